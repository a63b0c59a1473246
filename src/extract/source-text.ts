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

/**
 * Where the run of ASCII identifier characters (letters, digits, `_`, and `$` when `dollar`) that
 * starts at `start` ends; -1 when it runs into a non-ASCII character, which only the tree can
 * delimit. Lets extractors read a name from the source without asking WASM for the node's end.
 */
export function asciiIdentifierEnd(source: string, start: number, dollar: boolean): number {
  let i = start;
  for (;;) {
    const c = source.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || (dollar && c === 36)) i++;
    else return c >= 128 ? -1 : i;
  }
}

/** A block doc comment (opened by slash, star, star) starts at `at`; the empty comment of four characters is none. */
export function isBlockDoc(source: string, at: number): boolean {
  return source.startsWith("/**", at) && !source.startsWith("/**/", at);
}

/** A `///` line doc comment or a block doc comment starts at `at` (C#, Swift). */
export function isSlashOrBlockDoc(source: string, at: number): boolean {
  return source.startsWith("///", at) || isBlockDoc(source, at);
}
