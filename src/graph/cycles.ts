import type { FileDepGraph } from "../store/file-deps.js";

/** A directed graph on vertices 0..n-1 in compressed rows: `adj[start[v] .. start[v + 1])` are v's successors. */
interface Csr {
  start: Int32Array;
  adj: Int32Array;
}

function toCsr(n: number, from: ArrayLike<number>, to: ArrayLike<number>): Csr {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < from.length; e++) start[from[e]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const adj = new Int32Array(from.length);
  const fill = start.slice(0, n);
  for (let e = 0; e < from.length; e++) adj[fill[from[e]!]!++] = to[e]!;
  return { start, adj };
}

/**
 * Strongly connected components of a directed graph on vertices 0..n-1 (edge e goes from[e] → to[e]),
 * by Tarjan's algorithm with explicit stacks: no recursion, so a chain of 100k files cannot overflow
 * the call stack. Every vertex is in exactly one component; components come in reverse topological order.
 */
export function stronglyConnectedComponents(n: number, from: ArrayLike<number>, to: ArrayLike<number>): number[][] {
  return tarjan(n, toCsr(n, from, to));
}

function tarjan(n: number, { start, adj }: Csr): number[][] {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n); // Tarjan's stack of visited, unassigned vertices
  const call = new Int32Array(n); // the simulated recursion: call[0..depth]
  const next = new Int32Array(n); // per vertex, the next edge to look at
  const components: number[][] = [];
  let counter = 0;
  let sp = 0;
  const visit = (v: number) => {
    index[v] = low[v] = counter++;
    stack[sp++] = v;
    onStack[v] = 1;
    next[v] = start[v]!;
  };
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    call[0] = root;
    visit(root);
    while (depth >= 0) {
      const v = call[depth]!;
      if (next[v]! < start[v + 1]!) {
        const w = adj[next[v]!++]!;
        if (index[w] === -1) {
          visit(w);
          call[++depth] = w;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v]!, index[w]!);
        }
        continue;
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack[--sp]!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(component);
      }
      depth--;
      if (depth >= 0) {
        const parent = call[depth]!;
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
    }
  }
  return components;
}

/** The least of a list too long to spread into Math.min's arguments. */
const smallest = (list: number[]): number => list.reduce((a, b) => (b < a ? b : a));

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const compareCycles = (a: string[], b: string[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return compareText(a[i]!, b[i]!);
  }
  return a.length - b.length;
};

/**
 * Import cycles among files: one elementary cycle per strongly connected component of more than one
 * file, or per file importing itself, as paths closing on the first (`[a, b, a]`). The cycle is the
 * shortest one through the component's smallest path (or, with `inScope`, its smallest path in scope;
 * components with no file in scope are left out), rotated to start at its smallest path. Cycles are
 * sorted, so the answer is the same on every run.
 */
export function importCycles(deps: FileDepGraph, inScope?: (path: string) => boolean): string[][] {
  // Smallest path by index, whatever order the caller's paths come in.
  const order = deps.paths.map((_, i) => i).sort((a, b) => compareText(deps.paths[a]!, deps.paths[b]!));
  const rankOf = new Int32Array(order.length);
  order.forEach((v, r) => (rankOf[v] = r));
  const paths = order.map((v) => deps.paths[v]!);
  const n = paths.length;
  const from = deps.from.map((v) => rankOf[v]!);
  const to = deps.to.map((v) => rankOf[v]!);
  const graph = toCsr(n, from, to);
  // Ascending successors make the search below, and so the cycle it finds, independent of input order.
  for (let v = 0; v < n; v++) graph.adj.subarray(graph.start[v]!, graph.start[v + 1]!).sort();
  const selfLoop = new Uint8Array(n);
  for (let e = 0; e < from.length; e++) if (from[e] === to[e]) selfLoop[from[e]!] = 1;
  const components = tarjan(n, graph);
  const componentOf = new Int32Array(n);
  components.forEach((component, c) => component.forEach((v) => (componentOf[v] = c)));
  const cycles: string[][] = [];
  components.forEach((component, c) => {
    if (component.length === 1 && !selfLoop[component[0]!]) return;
    const candidates = inScope ? component.filter((v) => inScope(paths[v]!)) : component;
    if (!candidates.length) return;
    const first = smallest(candidates);
    const ids = component.length === 1 ? [first] : shortestCycleThrough(graph, first, componentOf, c);
    const low = ids.indexOf(smallest(ids));
    const rotated = [...ids.slice(low), ...ids.slice(0, low)];
    cycles.push([...rotated, rotated[0]!].map((v) => paths[v]!));
  });
  return cycles.sort(compareCycles);
}

/** Breadth first from `s` inside its component (self-imports aside) back to `s`: the vertices of the cycle, `s` first. */
function shortestCycleThrough({ start, adj }: Csr, s: number, componentOf: Int32Array, c: number): number[] {
  const parent = new Map<number, number>([[s, -1]]);
  const queue = [s];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    for (let e = start[u]!; e < start[u + 1]!; e++) {
      const w = adj[e]!;
      if (w === s && u !== s) {
        const path: number[] = [];
        for (let v = u; v !== -1; v = parent.get(v)!) path.push(v);
        return path.reverse();
      }
      if (componentOf[w] !== c || parent.has(w)) continue;
      parent.set(w, u);
      queue.push(w);
    }
  }
  return [s]; // unreachable: every vertex of a component of two or more lies on a cycle
}
