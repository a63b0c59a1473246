import type { Node } from "web-tree-sitter";

/**
 * A node-shaped span from `node`'s start to `end`, with the end position counted from the source
 * text rather than asked of WASM. For comments whose extent we read from the text (the builder only
 * needs indexes and positions).
 */
export function spanTo(source: string, node: Node, end: number): Node {
  const start = node.startIndex;
  const from = node.startPosition;
  let row = from.row;
  let lineStart = -1;
  for (let i = source.indexOf("\n", start); i >= 0 && i < end; i = source.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  const column = lineStart < 0 ? from.column + (end - start) : end - lineStart;
  const span: Pick<Node, "startIndex" | "endIndex" | "startPosition" | "endPosition"> = {
    startIndex: start,
    endIndex: end,
    startPosition: from,
    endPosition: { row, column },
  };
  return span as Node;
}
