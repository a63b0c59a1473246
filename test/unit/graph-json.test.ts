import { describe, expect, it } from "vitest";
import type { NodeLinkGraph } from "../../src/query/export.js";
import { nodeLinkJson } from "../../src/render/graph-json.js";

describe("node-link JSON in chunks", () => {
  const graph: NodeLinkGraph = {
    directed: true,
    multigraph: true,
    graph: { name: "codegraph", root: "demo", files: 1, generatedAt: "now", indexedAt: null, syncedAt: null },
    nodes: Array.from({ length: 50 }, (_, i) => ({
      id: `n${i}`,
      name: `f"${i}`,
      qualifiedName: `M.f${i}`,
      kind: "function",
      filePath: "a.ts",
      startLine: i,
      endLine: i + 1,
    })),
    links: Array.from({ length: 80 }, (_, i) => ({
      source: `n${i % 50}`,
      target: `n${(i * 7) % 50}`,
      kind: i % 2 ? "calls" : "contains",
      line: i % 2 ? i : null,
    })),
  };

  it("parses back to the same graph whatever the chunk size", () => {
    for (const size of [1, 100, 1 << 20]) {
      const chunks = [...nodeLinkJson(graph, size)];
      expect(JSON.parse(chunks.join(""))).toEqual(graph);
    }
  });

  it("writes one node or link per line", () => {
    const lines = [...nodeLinkJson(graph)].join("").trimEnd().split("\n");
    expect(lines).toHaveLength(1 + 50 + 1 + 80 + 1);
  });

  it("writes empty lists as valid JSON", () => {
    const empty = { ...graph, nodes: [], links: [] };
    expect(JSON.parse([...nodeLinkJson(empty)].join(""))).toEqual(empty);
  });
});
