import { describe, expect, it } from "vitest";
import { Node, Query, type QueryMatch, type Tree } from "web-tree-sitter";
import { loadLanguage } from "../../src/extract/parser.js";
import { QUERY_LIMITS, binding, queryRunsCutShort, withFastMatches } from "../../src/extract/wasm-glue.js";

/** The library's own navigation and getters, taken before the first grammar load puts the fast one in its place. */
const NAVIGATION = ["child", "namedChild", "childForFieldId", "childForFieldName"] as const;
const NAVIGATION_GETTERS = [
  "parent",
  "nextSibling",
  "previousSibling",
  "nextNamedSibling",
  "previousNamedSibling",
] as const;
const SCALARS = [
  "typeId",
  "type",
  "endIndex",
  "endPosition",
  "text",
  "childCount",
  "namedChildCount",
  "isNamed",
  "isError",
  "isMissing",
  "hasError",
] as const;
/** Getters answering a node's children, and the field each keeps its answer in. */
const LISTS = { children: "_children", namedChildren: "_namedChildren" } as const;
const library = Object.fromEntries(
  [...NAVIGATION, ...NAVIGATION_GETTERS, ...SCALARS, ...Object.keys(LISTS)].map((k) => [
    k,
    Object.getOwnPropertyDescriptor(Node.prototype, k)!,
  ]),
);

/** A node's every property, compared field for field (a missing node is null). */
function about(n: Node | null) {
  return (
    n && {
      id: n.id,
      start: n.startIndex,
      from: n.startPosition,
      to: n.endPosition,
      type: n.type,
      text: n.text,
      word: (n as unknown as { 0: number })[0],
      isNode: n instanceof Node,
    }
  );
}

const RUST = `
/// A shape.
pub struct Circle { r: f64 }
impl Circle {
    pub fn area(&self) -> f64 { std::f64::consts::PI * self.r * self.r }
    fn grow(&mut self, by: f64) { self.r += by; helper(self.r); }
}
fn helper(x: f64) -> f64 { let c = Circle { r: x }; c.area() }
macro_rules! twice { ($e:expr) => { $e; $e } }
fn main() { twice!(helper(1.0)); let s = "ünïcode"; println!("{}", s); }
`;

/** Everything a capture's node tells, read through the library's own methods. */
function describeMatches(matches: QueryMatch[]) {
  return matches.map((m) => ({
    pattern: m.patternIndex,
    captures: m.captures.map(({ name, node }) => ({
      name,
      id: node.id,
      type: node.type,
      start: node.startIndex,
      end: node.endIndex,
      from: node.startPosition,
      to: node.endPosition,
      text: node.text,
      parent: node.parent?.id ?? null,
      named: node.childForFieldName("name")?.text ?? null,
      children: node.namedChildCount,
      isNode: node instanceof Node,
    })),
  }));
}

async function rust(): Promise<{ query: (source: string) => Query; parse: (source: string) => Tree }> {
  const { parser } = await loadLanguage("rust");
  const language = parser.language!;
  return {
    query: (source) => new Query(language, source),
    parse: (source) => parser.parse(source)!,
  };
}

const QUERY = `
(function_item name: (identifier) @name parameters: (parameters) @params) @def
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @method))
(macro_invocation macro: (identifier) @macro) @call
(string_literal) @string
`;

describe("the faster query glue", () => {
  it("answers a query exactly as the library does, node for node", async () => {
    const { query, parse } = await rust();
    const tree = parse(RUST);
    try {
      const fast = withFastMatches(query(QUERY), Node);
      expect(Object.hasOwn(fast, "matches")).toBe(true);
      const library = Query.prototype.matches.call(fast, tree.rootNode);
      const ours = fast.matches(tree.rootNode);
      expect(ours.length).toBeGreaterThan(8);
      expect(describeMatches(ours)).toEqual(describeMatches(library));
      // From a node inside the tree too, not only the root.
      const impl = tree.rootNode.namedChildren.find((n) => n?.type === "impl_item")!;
      expect(describeMatches(fast.matches(impl))).toEqual(describeMatches(Query.prototype.matches.call(fast, impl)));
    } finally {
      tree.delete();
    }
  });

  it("stays right when the matches outgrow WASM memory", async () => {
    const { query, parse } = await rust();
    // Half a million captured nodes: 14 MB of matches, more than the memory the parse left.
    const source = Array.from({ length: 30_000 }, (_, i) => `fn f${i}(a: u8) -> u8 { g(a, ${i}) + h(a) }`).join("\n");
    const tree = parse(source);
    try {
      const fast = withFastMatches(query("(_) @any"), Node);
      const before = binding.HEAP32!.buffer;
      const ours = fast.matches(tree.rootNode);
      expect(binding.HEAP32!.buffer).not.toBe(before);
      const library = Query.prototype.matches.call(fast, tree.rootNode);
      expect(ours.length).toBe(library.length);
      expect(ours.length).toBeGreaterThan(500_000);
      for (const i of [0, 1, 777, 123_456, ours.length - 1]) {
        const [a, b] = [ours[i]!.captures[0]!.node, library[i]!.captures[0]!.node];
        expect([a.id, a.type, a.startIndex, a.endIndex, a.text]).toEqual([
          b.id,
          b.type,
          b.startIndex,
          b.endIndex,
          b.text,
        ]);
      }
    } finally {
      tree.delete();
    }
  });

  it("leaves a query with text predicates to the library, which evaluates them", async () => {
    const { query, parse } = await rust();
    const tree = parse(RUST);
    try {
      const q = withFastMatches(query(`((identifier) @id (#eq? @id "helper"))`), Node);
      const found = q.matches(tree.rootNode).map((m) => m.captures[0]!.node.text);
      expect(found).toEqual(["helper", "helper", "helper"]);
      expect(describeMatches(q.matches(tree.rootNode))).toEqual(
        describeMatches(Query.prototype.matches.call(q, tree.rootNode, QUERY_LIMITS)),
      );
    } finally {
      tree.delete();
    }
  });

  /** How many matches of `pattern` in `source` we give and the unbounded library gives; ours must be the library's under QUERY_LIMITS. */
  async function bounded(source: string, pattern: string) {
    const { query, parse } = await rust();
    const tree = parse(source);
    try {
      const fast = withFastMatches(query(pattern), Node);
      const before = queryRunsCutShort();
      const ours = fast.matches(tree.rootNode);
      const cutShort = queryRunsCutShort() - before;
      const library = Query.prototype.matches.call(fast, tree.rootNode, QUERY_LIMITS);
      expect(describeMatches(ours)).toEqual(describeMatches(library));
      // Last: the cursor is shared and keeps the capture lists it grew, which a bounded run reuses
      // beyond the limit (a limit only stops it growing more). Everything we run is bounded.
      const unbounded = Query.prototype.matches.call(fast, tree.rootNode).length;
      return { ours: ours.length, unbounded, cutShort };
    } finally {
      tree.delete();
    }
  }

  it("keeps at most QUERY_LIMITS.matchLimit matches under way", async () => {
    // Each call of a chain waits for its arguments while the cursor walks the rest of the chain.
    const calls = 3 * QUERY_LIMITS.matchLimit;
    const { ours, unbounded, cutShort } = await bounded(
      `fn main() { let y = x${".m()".repeat(calls)}; }`,
      "(call_expression function: (field_expression value: (_) @recv) arguments: (arguments) @args)",
    );
    expect(unbounded).toBe(calls);
    expect(ours).toBe(QUERY_LIMITS.matchLimit);
    expect(cutShort).toBe(1);
    // Below the limit, the run is not counted.
    const short = await bounded(
      `fn main() { let y = x${".m()".repeat(100)}; }`,
      "(call_expression function: (field_expression value: (_) @recv) arguments: (arguments) @args)",
    );
    expect(short).toEqual({ ours: 100, unbounded: 100, cutShort: 0 });
  });

  it("starts no match deeper than QUERY_LIMITS.maxStartDepth", async () => {
    const levels = QUERY_LIMITS.maxStartDepth + 500;
    const { ours, unbounded } = await bounded(
      `fn main() ${"{ g(); ".repeat(levels)}${"}".repeat(levels)}`,
      "(call_expression function: (identifier) @name)",
    );
    expect(unbounded).toBe(levels);
    expect(ours).toBeGreaterThan(QUERY_LIMITS.maxStartDepth / 4);
    expect(ours).toBeLessThan(levels);
  });

  it("navigates and describes a tree exactly as the library does, from every node", async () => {
    const { parse } = await rust();
    // With a syntax error, so that the error flags are true somewhere.
    const tree = parse(`${RUST}\nfn broken( { let = ; }\nstruct S { a: }`);
    try {
      expect(Object.getOwnPropertyDescriptor(Node.prototype, "parent")).not.toEqual(library.parent);
      const fields = tree.language.fields;
      const all: Node[] = [];
      const walk = (n: Node) => {
        all.push(n);
        for (const c of n.children) if (c) walk(c);
      };
      walk(tree.rootNode);
      expect(all.length).toBeGreaterThan(150);
      let found = 0;
      for (const n of all) {
        for (const k of SCALARS) {
          expect((n as unknown as Record<string, unknown>)[k]).toEqual(library[k]!.get!.call(n));
        }
        for (const k of NAVIGATION_GETTERS) {
          const ours = about((n as unknown as Record<string, Node | null>)[k]!);
          expect(ours).toEqual(about(library[k]!.get!.call(n) as Node | null));
          if (ours) found++;
        }
        for (const [k, kept] of Object.entries(LISTS)) {
          const fields = n as unknown as Record<string, Node[] | undefined>;
          const theirs = (library[k]!.get!.call(n) as Node[]).map(about);
          fields[kept] = undefined; // the library's answer, kept in the same field, would be ours
          const ours = fields[k]!;
          expect(ours.map(about)).toEqual(theirs);
          expect(fields[k]).toBe(ours);
        }
        for (let i = 0; i <= n.childCount; i++) {
          expect(about(n.child(i))).toEqual(about(library.child!.value.call(n, i)));
          expect(about(n.namedChild(i))).toEqual(about(library.namedChild!.value.call(n, i)));
        }
        for (let id = 1; id < fields.length; id++) {
          expect(about(n.childForFieldId(id))).toEqual(about(library.childForFieldId!.value.call(n, id)));
          const name = fields[id]!;
          expect(about(n.childForFieldName(name))).toEqual(about(library.childForFieldName!.value.call(n, name)));
        }
      }
      expect(found).toBeGreaterThan(500);
      expect(all.filter((n) => n.isError).length).toBeGreaterThan(0);
      expect(all.filter((n) => n.isMissing).length).toBeGreaterThan(0);
      expect(tree.rootNode.childForFieldName("no such field")).toBeNull();
    } finally {
      tree.delete();
    }
  });
});
