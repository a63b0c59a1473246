import { describe, expect, it } from "vitest";
import { importCycles, stronglyConnectedComponents } from "../../src/graph/cycles.js";
import type { FileDepGraph } from "../../src/store/file-deps.js";

/** The file graph of (importer, imported) path pairs, listing paths in first-seen order (unsorted on purpose). */
function fileGraph(pairs: [string, string][], extraFiles: string[] = []): FileDepGraph {
  const paths = [...new Set([...pairs.flat(), ...extraFiles])];
  const index = new Map(paths.map((p, i) => [p, i]));
  return {
    paths,
    from: Int32Array.from(pairs, ([f]) => index.get(f)!),
    to: Int32Array.from(pairs, ([, t]) => index.get(t)!),
  };
}

const sortedComponents = (components: number[][]) =>
  components.map((c) => [...c].sort((a, b) => a - b)).sort((a, b) => a[0]! - b[0]!);

describe("strongly connected components (iterative Tarjan)", () => {
  it("finds the components of a small graph", () => {
    // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone
    const from = [0, 1, 2, 2, 3, 4];
    const to = [1, 2, 0, 3, 4, 3];
    expect(sortedComponents(stronglyConnectedComponents(6, from, to))).toEqual([[0, 1, 2], [3, 4], [5]]);
  });

  it("walks a 100k-vertex cycle without overflowing the stack", () => {
    const n = 100_000;
    const from = Int32Array.from({ length: n }, (_, i) => i);
    const to = Int32Array.from({ length: n }, (_, i) => (i + 1) % n);
    const components = stronglyConnectedComponents(n, from, to);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(n);
  });

  it("walks a 100k-vertex chain into 100k singleton components", () => {
    const n = 100_000;
    const from = Int32Array.from({ length: n - 1 }, (_, i) => i);
    const to = Int32Array.from({ length: n - 1 }, (_, i) => i + 1);
    const components = stronglyConnectedComponents(n, from, to);
    expect(components).toHaveLength(n);
    expect(components[0]).toEqual([n - 1]); // reverse topological order: the sink first
  });
});

describe("import cycles between files", () => {
  const dep = (from: string, to: string): [string, string] => [from, to];

  it("reports one cycle per tangle, from its smallest path, closing on it, sorted", () => {
    const deps = [
      dep("z.ts", "x.ts"),
      dep("x.ts", "y.ts"),
      dep("y.ts", "z.ts"),
      dep("b.ts", "a.ts"),
      dep("a.ts", "b.ts"),
      dep("self.ts", "self.ts"),
      dep("d.ts", "e.ts"),
    ];
    expect(importCycles(fileGraph(deps, ["lonely.ts"]))).toEqual([
      ["a.ts", "b.ts", "a.ts"],
      ["self.ts", "self.ts"],
      ["x.ts", "y.ts", "z.ts", "x.ts"],
    ]);
    expect(importCycles(fileGraph([...deps].reverse()))).toEqual(importCycles(fileGraph(deps)));
  });

  it("reports the shortest cycle through the smallest file of a larger tangle", () => {
    // a → b → c → d → a, and a shortcut c → a
    const deps = [dep("a", "b"), dep("b", "c"), dep("c", "d"), dep("d", "a"), dep("c", "a")];
    expect(importCycles(fileGraph(deps))).toEqual([["a", "b", "c", "a"]]);
  });

  it("keeps only cycles through files in scope, rotated to start at their smallest path", () => {
    const deps = [dep("lib/p", "app/q"), dep("app/q", "lib/p"), dep("x", "y"), dep("y", "x")];
    expect(importCycles(fileGraph(deps), (p) => p.startsWith("lib/"))).toEqual([["app/q", "lib/p", "app/q"]]);
  });

  it("finds a 100k-file cycle without overflowing the stack", () => {
    const n = 100_000;
    const name = (i: number) => `f${String(i).padStart(6, "0")}.ts`;
    const graph: FileDepGraph = {
      paths: Array.from({ length: n }, (_, i) => name(i)),
      from: Int32Array.from({ length: n }, (_, i) => i),
      to: Int32Array.from({ length: n }, (_, i) => (i + 1) % n),
    };
    const cycles = importCycles(graph);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(n + 1);
    expect(cycles[0]![0]).toBe(name(0));
    expect(cycles[0]![n]).toBe(name(0));
  });
});
