import { describe, expect, it } from "vitest";
import { Node, Query } from "web-tree-sitter";
import { loadLanguage } from "../../src/extract/parser.js";
import { QUERY_LIMITS, queryRunsCutShort, withFastMatches } from "../../src/extract/wasm-glue.js";

// Apart from wasm-glue.test.ts, whose unbounded runs grow the thread's one query cursor: a bounded
// run then reuses every capture list it grew, and the match limit never binds.

describe("query runs that stop at the match limit", () => {
  it("are counted for a query with text predicates, which the library's own matches answers", async () => {
    const { parser } = await loadLanguage("rust");
    const language = parser.language!;
    // A pattern on a call's receiver waits for its arguments while the rest of the chain is walked.
    const pattern = `((call_expression function: (field_expression value: (_) @recv) arguments: (arguments)) (#match? @recv "^x"))`;
    const count = (calls: number) => {
      const tree = parser.parse(`fn main() { let y = x${".m()".repeat(calls)}; }`)!;
      try {
        const q = withFastMatches(new Query(language, pattern), Node);
        const before = queryRunsCutShort();
        const found = q.matches(tree.rootNode).length;
        return { found, cutShort: queryRunsCutShort() - before };
      } finally {
        tree.delete();
      }
    };
    expect(count(100)).toEqual({ found: 100, cutShort: 0 });
    const long = count(3 * QUERY_LIMITS.matchLimit);
    expect(long.cutShort).toBe(1);
    expect(long.found).toBeLessThan(3 * QUERY_LIMITS.matchLimit);
  });
});
