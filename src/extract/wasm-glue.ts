import type { Node, Query, QueryCapture, QueryMatch } from "web-tree-sitter";

/**
 * Faster glue for the pinned web-tree-sitter (0.25.6). Extraction crosses into WASM for every capture
 * and every node property it reads, and the library's JavaScript side of each crossing costs more
 * than it needs to:
 *   - `Query.matches` makes each captured node through the `Node` class, whose seven field
 *     initialisers (one of them the computed `[0]`) were 8% of extraction on tokio, and reads the
 *     matches through the generic `getValue`;
 *   - `getValue` and `setValue`, which every node property goes through, test the type name and read
 *     memory through a little-endian `DataView`.
 * Here matches are read straight from WASM memory, captured nodes are made by a constructor of ours with
 * `Node`'s prototype and fields (every method works on them), and 32-bit reads and writes use an
 * `Int32Array`. Identical graphs on the medium tier's fourteen projects.
 *
 * It all needs the Emscripten module, which is the options object given to `Parser.init` (Emscripten
 * fills in the object it is passed), and a little-endian machine (the library reads WASM memory as
 * little-endian whatever the machine). Without either, or for a query with text predicates (which
 * only the library evaluates), the library's own code runs.
 */

/** The parts of web-tree-sitter's Emscripten module used here. */
export interface TreeSitterBinding {
  /** Where Emscripten finds a file the module needs, by its name (see extract/parser.ts). */
  locateFile?: (file: string) => string;
  HEAP32?: Int32Array;
  getValue?: (address: number, type?: string) => number;
  setValue?: (address: number, value: number, type?: string) => void;
  _ts_init?: () => number;
  _ts_query_matches_wasm?: (...args: number[]) => void;
  _free?: (address: number) => void;
  [cFunction: `_ts_node_${string}_wasm`]: ((tree: number, arg?: number) => number | void) | undefined;
}

/** The object handed to `Parser.init`: Emscripten turns it into the module. */
export const binding: TreeSitterBinding = {};

/** One node as the binding writes it: id, start byte, start row, start column, and its context word. */
const NODE_INTS = 5;
/**
 * Bounds on every query's cursor, for trees no one writes by hand. At each node the cursor visits
 * every match under way, and a pattern waiting for a later child stays under way through the whole
 * subtree before it: one per level of a deep chain, so the cost grows with the square of the depth.
 * A 20,000-call method chain (116 KB of generated JavaScript) took 11 s, and past a depth of 65,535
 * (a 70,000-term concatenation) the cursor's 16-bit depths wrap and states are never dropped (19 s
 * for 600 KB). With at most 1,024 matches under way (tree-sitter drops matches beyond) and no match
 * starting deeper than 4,096 levels, those take about a second. Nothing written by hand comes near
 * either bound: the medium tier's fourteen projects index to identical graphs with them. Every run
 * must be bounded: the library's one cursor keeps the capture lists it grew, and a bounded run
 * reuses them all (the limit only stops it growing more).
 */
export const QUERY_LIMITS = { matchLimit: 1024, maxStartDepth: 4096 } as const;

/**
 * Query runs so far in this thread that stopped at QUERY_LIMITS.matchLimit: a file whose extraction
 * adds to it was extracted in part (see `extractSource`). A match not started below
 * QUERY_LIMITS.maxStartDepth leaves no such trace; tree-sitter does not report it.
 */
let limitedRuns = 0;

/** How many query runs in this thread have stopped at the match limit (see `limitedRuns`). */
export function queryRunsCutShort(): number {
  return limitedRuns;
}

interface NodeFields {
  0: number;
}

/**
 * Makes a `Node` without running the class's initialisers: an object with `Node`'s prototype and
 * fields, made by a constructor of our own. Every node method reads the element `this[0]` to hand the
 * node to WASM, and V8's optimised code adds an element to a fresh plain object only through a slow
 * runtime call (a constructor storing `this[0]`: about 160 ns a node), but allocates it with an array
 * (`super(1)`): 25-30 ns. An object literal (`{ __proto__, 0: .. }`, used before) pays a runtime call
 * to set its prototype: 100 ns. The array's own methods are not inherited (its prototype is `Node`'s),
 * only `length` (1) and `Array.isArray` tell it apart, and nothing reading nodes asks either. jdk-util's
 * node making 81 -> 29 ms of profile; a full index 0.5-1% less CPU.
 */
type NodeMaker = (
  tree: Node["tree"],
  id: number,
  startIndex: number,
  row: number,
  column: number,
  other: number,
) => Node;

function nodeMaker(prototype: object): NodeMaker {
  class FastNode extends Array<number> {
    constructor(tree: unknown, id: number, startIndex: number, row: number, column: number, other: number) {
      super(1);
      const fields = this as unknown as Record<string, unknown>;
      this[0] = other;
      fields._children = undefined;
      fields._namedChildren = undefined;
      fields.id = id;
      fields.startIndex = startIndex;
      fields.startPosition = { row, column };
      fields.tree = tree;
    }
  }
  Object.setPrototypeOf(FastNode.prototype, prototype);
  return (tree, id, startIndex, row, column, other) =>
    new FastNode(tree, id, startIndex, row, column, other) as unknown as Node;
}

let makeNode: NodeMaker | null = null;
let transferBuffer = 0;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Whether the binding has what the fast paths need. */
function ready(b: TreeSitterBinding): boolean {
  return LITTLE_ENDIAN && Boolean(b.HEAP32 && b._ts_init && b._ts_query_matches_wasm && b._free);
}

/**
 * Once `Parser.init` is done: 32-bit `getValue` and `setValue` through an `Int32Array`, the rest
 * through the library's own. The array is taken again after WASM memory grows (its old buffer is
 * then detached, and its length 0).
 */
export function speedUpBinding(): void {
  const b = binding;
  if (!ready(b) || !b.getValue || !b.setValue) return;
  const get = b.getValue;
  const set = b.setValue;
  let heap = b.HEAP32!;
  const current = () => (heap.length ? heap : (heap = b.HEAP32!));
  b.getValue = (address, type) => (type === "i32" ? current()[address >> 2]! : get(address, type));
  b.setValue = (address, value, type) => {
    if (type === "i32") current()[address >> 2] = value;
    else set(address, value, type);
  };
}

/** Node methods taking one number (an index or a field id) → the C function that answers them. */
const NODE_METHODS = {
  child: "_ts_node_child_wasm",
  namedChild: "_ts_node_named_child_wasm",
  childForFieldId: "_ts_node_child_by_field_id_wasm",
} as const;
/** Node getters answering a node → the C function that answers them. */
const NODE_GETTERS = {
  parent: "_ts_node_parent_wasm",
  nextSibling: "_ts_node_next_sibling_wasm",
  previousSibling: "_ts_node_prev_sibling_wasm",
  nextNamedSibling: "_ts_node_next_named_sibling_wasm",
  previousNamedSibling: "_ts_node_prev_named_sibling_wasm",
} as const;
/** Node getters answering a number → the C function that returns it. */
const NODE_NUMBERS = {
  typeId: "_ts_node_symbol_wasm",
  endIndex: "_ts_node_end_index_wasm",
  childCount: "_ts_node_child_count_wasm",
  namedChildCount: "_ts_node_named_child_count_wasm",
} as const;
/** Node getters answering a flag → the C function that returns it (1 for true). */
const NODE_FLAGS = {
  isNamed: "_ts_node_is_named_wasm",
  isError: "_ts_node_is_error_wasm",
  isMissing: "_ts_node_is_missing_wasm",
  hasError: "_ts_node_has_error_wasm",
} as const;
const END_POINT = "_ts_node_end_point_wasm";
/** Node getters answering a list of nodes → the field the library keeps it in, and the C function that writes it. */
const NODE_LISTS = {
  children: ["_children", "_ts_node_children_wasm"],
  namedChildren: ["_namedChildren", "_ts_node_named_children_wasm"],
} as const;

type NodeCall = (tree: number, arg?: number) => number | void;
type NodeFn = `_ts_node_${string}_wasm`;

/** Field ids by name, per language (the library looks a name up with `indexOf` on every call). */
const fieldIdsByLanguage = new WeakMap<object, Map<string, number>>();

/**
 * Gives `Node`'s navigation (`child`, `namedChild`, `childForFieldId`, `childForFieldName`, `parent`,
 * the siblings) and its scalar getters (`typeId`, and through it `type`; `endIndex`, and through it
 * `text`; `endPosition`, the child counts, `isNamed` and the other flags) the direct memory access of
 * `matches`. The library hands a node to WASM with five `setValue` calls and reads one back with
 * `getValue` calls and the `Node` class's initialisers; the getters alone were 5% of a warm extraction
 * of Django, the nodes' initialisers 6% of tokio's. Done once, on the shared prototype, when the
 * binding has every function needed; otherwise the library's code stays. The answers are the
 * library's own, field for field (tested).
 */
export function speedUpNodes(NodeClass: { prototype: object }): void {
  const b = binding;
  const fns: NodeFn[] = [NODE_METHODS, NODE_GETTERS, NODE_NUMBERS, NODE_FLAGS].flatMap((t) => Object.values(t));
  fns.push(END_POINT, ...Object.values(NODE_LISTS).map(([, fn]) => fn));
  if (!ready(b) || fns.some((f) => typeof b[f] !== "function")) return;
  const proto = NodeClass.prototype as Record<string | symbol, unknown>;
  if (proto[SPED_UP]) return;
  makeNode ??= nodeMaker(NodeClass.prototype);
  if (!transferBuffer) transferBuffer = b._ts_init!();
  const method = (key: string, value: (this: Node, arg: never) => unknown) =>
    Object.defineProperty(proto, key, { configurable: true, writable: true, value });
  const getter = (key: string, get: (this: Node) => unknown) =>
    Object.defineProperty(proto, key, { configurable: true, get });
  for (const [key, fn] of Object.entries(NODE_METHODS)) {
    const c = b[fn]!;
    method(key, function (n: number) {
      return navigate(this, c, n);
    });
  }
  for (const [key, fn] of Object.entries(NODE_GETTERS)) {
    const c = b[fn]!;
    getter(key, function () {
      return navigate(this, c, 0);
    });
  }
  for (const [key, fn] of Object.entries(NODE_NUMBERS)) {
    const c = b[fn]!;
    getter(key, function () {
      return ask(this, c);
    });
  }
  for (const [key, fn] of Object.entries(NODE_FLAGS)) {
    const c = b[fn]!;
    getter(key, function () {
      return ask(this, c) === 1;
    });
  }
  for (const [key, [field, fn]] of Object.entries(NODE_LISTS)) {
    const c = b[fn]!;
    getter(key, function () {
      const fields = this as unknown as Record<string, Node[] | undefined>;
      return (fields[field] ??= list(this, c));
    });
  }
  const endPoint = b[END_POINT]!;
  getter("endPosition", function () {
    ask(this, endPoint);
    const heap = binding.HEAP32!;
    const word = transferBuffer >> 2;
    return { row: heap[word]!, column: heap[word + 1]! };
  });
  const byField = b._ts_node_child_by_field_id_wasm!;
  method("childForFieldName", function (name: string) {
    const language = this.tree.language;
    let ids = fieldIdsByLanguage.get(language);
    if (!ids) {
      ids = new Map();
      // Entry 0 is null: no field.
      language.fields.forEach((field, id) => field !== null && ids!.set(field, id));
      fieldIdsByLanguage.set(language, ids);
    }
    const id = ids.get(name);
    return id === undefined ? null : navigate(this, byField, id);
  });
  proto[SPED_UP] = true;
}

const SPED_UP = Symbol("codegraph fast nodes");

/** Write `node` where the binding reads a node from (as the library's `marshalNode` does). */
function handOver(node: Node, heap: Int32Array, word: number): void {
  heap[word] = node.id;
  heap[word + 1] = node.startIndex;
  heap[word + 2] = node.startPosition.row;
  heap[word + 3] = node.startPosition.column;
  heap[word + 4] = (node as unknown as NodeFields)[0];
}

/** Hand `node` to WASM and return what `c` answers for it. */
function ask(node: Node, c: NodeCall): number {
  handOver(node, binding.HEAP32!, transferBuffer >> 2);
  return c((node.tree as unknown as { 0: number })[0]) as number;
}

/**
 * Hand `node` to WASM, call `c`, and read back the nodes it wrote: a count and an array it allocated,
 * freed here (as the library's `children` does).
 */
function list(node: Node, c: NodeCall): Node[] {
  const b = binding as Required<TreeSitterBinding>;
  const word = transferBuffer >> 2;
  handOver(node, b.HEAP32, word);
  const tree = node.tree;
  c((tree as unknown as { 0: number })[0]);
  // The call may have grown the WASM memory, which replaces the views.
  const heap = b.HEAP32;
  const count = heap[word]!;
  const buffer = heap[word + 1]!;
  const out = new Array<Node>(count);
  for (let i = 0, at = buffer >> 2; i < count; i++, at += NODE_INTS) {
    const id = heap[at]!;
    out[i] =
      id === 0
        ? (null as unknown as Node)
        : makeNode!(tree, id, heap[at + 1]!, heap[at + 2]!, heap[at + 3]!, heap[at + 4]!);
  }
  if (count > 0) b._free(buffer);
  return out;
}

/** Hand `node` to WASM, call `c`, and read back the node it wrote (null for none). */
function navigate(node: Node, c: NodeCall, arg: number): Node | null {
  const word = transferBuffer >> 2;
  handOver(node, binding.HEAP32!, word);
  const tree = node.tree;
  c((tree as unknown as { 0: number })[0], arg);
  // The call may have grown the WASM memory, which replaces the views.
  const heap = binding.HEAP32!;
  const id = heap[word]!;
  if (id === 0) return null;
  return makeNode!(tree, id, heap[word + 1]!, heap[word + 2]!, heap[word + 3]!, heap[word + 4]!);
}

/**
 * Gives `query` the fast `matches` when the binding allows it, else the library's with QUERY_LIMITS;
 * returns the query either way. `NodeClass` is web-tree-sitter's `Node` export (its prototype is
 * shared, its constructor never called).
 */
export function withFastMatches(query: Query, NodeClass: { prototype: object }): Query {
  const predicates = (query as unknown as { textPredicates?: unknown[][] }).textPredicates;
  if (!ready(binding) || !Array.isArray(predicates) || predicates.some((p) => p.length > 0)) {
    const matches = query.matches.bind(query);
    Object.defineProperty(query, "matches", {
      value: (node: Node) => {
        const found = matches(node, QUERY_LIMITS);
        if (query.didExceedMatchLimit()) limitedRuns++;
        return found;
      },
    });
    return query;
  }
  makeNode ??= nodeMaker(NodeClass.prototype);
  // The library's transfer buffer: a static array whose address `ts_init` returns, every time.
  if (!transferBuffer) transferBuffer = binding._ts_init!();
  const names = query.captureNames;
  const fast = (node: Node): QueryMatch[] => matchesOf(query, names, node);
  Object.defineProperty(query, "matches", { value: fast });
  return query;
}

function matchesOf(query: Query, names: readonly string[], node: Node): QueryMatch[] {
  const b = binding as Required<TreeSitterBinding>;
  const make = makeNode!;
  const tree = node.tree;
  const word = transferBuffer >> 2;
  handOver(node, b.HEAP32, word);
  const q = (query as unknown as { 0: number })[0];
  const t = (tree as unknown as { 0: number })[0];
  b._ts_query_matches_wasm(q, t, 0, 0, 0, 0, 0, 0, QUERY_LIMITS.matchLimit, QUERY_LIMITS.maxStartDepth, 0);
  // The call may have grown the WASM memory, which replaces the views.
  const heap = b.HEAP32;
  const count = heap[word]!;
  const start = heap[word + 1]!;
  if (heap[word + 2]) limitedRuns++;
  const result = new Array<QueryMatch>(count);
  let at = start >> 2;
  for (let i = 0; i < count; i++) {
    const patternIndex = heap[at++]!;
    const captureCount = heap[at++]!;
    const captures = new Array<QueryCapture>(captureCount);
    for (let c = 0; c < captureCount; c++) {
      const name = names[heap[at]!]!;
      const captured = make(tree, heap[at + 1]!, heap[at + 2]!, heap[at + 3]!, heap[at + 4]!, heap[at + 5]!);
      captures[c] = { patternIndex, name, node: captured };
      at += 1 + NODE_INTS;
    }
    result[i] = { pattern: patternIndex, patternIndex, captures };
  }
  b._free(start);
  return result;
}
