import type { NodeLinkGraph } from "../query/export.js";

/**
 * Node-link JSON in pieces of about `chunkChars` characters, one node or link per line: a graph of
 * millions of edges never becomes one string (V8 caps a string near 512 MiB), and the output stays
 * greppable. Parsed, it equals `JSON.parse(JSON.stringify(g))`.
 */
export function* nodeLinkJson(g: NodeLinkGraph, chunkChars = 1 << 20): Generator<string> {
  let buf = `{"directed":${g.directed},"multigraph":${g.multigraph},"graph":${JSON.stringify(g.graph)},"nodes":[`;
  const list = function* (items: readonly unknown[]) {
    for (let i = 0; i < items.length; i++) {
      buf += `${i ? "," : ""}\n${JSON.stringify(items[i])}`;
      if (buf.length >= chunkChars) {
        yield buf;
        buf = "";
      }
    }
  };
  yield* list(g.nodes);
  buf += `\n],"links":[`;
  yield* list(g.links);
  buf += "\n]}\n";
  yield buf;
}
