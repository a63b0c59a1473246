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

/** How a language writes comments: line comments' openers, and whether `/* .. *\/` is a block comment. */
export interface CommentSyntax {
  line: readonly string[];
  block: boolean;
}

/** `//` and `/* .. *\/`: C and the languages that took its comments. */
export const C_COMMENTS: CommentSyntax = { line: ["//"], block: true };
/** `#` to the line's end (Python, Ruby), where `//` is an operator or a regular expression. */
export const HASH_COMMENTS: CommentSyntax = { line: ["#"], block: false };

/**
 * The text with its comments replaced by a space (a line comment up to its line break). Quotes are
 * followed within a line, so `"http://x"` stays whole; a quote not closed on its line (a Rust
 * lifetime, `'a`) ends there, which at worst leaves a comment in.
 */
export function withoutComments(text: string, syntax: CommentSyntax): string {
  if (!syntax.line.some((open) => text.includes(open)) && !(syntax.block && text.includes("/*"))) return text;
  let out = "";
  let from = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote || c === "\n") quote = "";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      quote = c;
      continue;
    }
    let end = -1;
    if (syntax.line.some((open) => text.startsWith(open, i))) {
      end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
    } else if (syntax.block && text.startsWith("/*", i)) {
      end = text.indexOf("*/", i + 2);
      end = end < 0 ? text.length : end + 2;
    } else continue;
    // `f(bool /*value*/)` reads `f(bool)`: no space is left before a list's close.
    const before = text.slice(from, i);
    const close = /^\s*(?=[),\]>])/.exec(text.slice(end, end + 80));
    out += close ? before.trimEnd() : `${before} `;
    from = end + (close ? close[0].length : 0);
    i = from - 1;
  }
  return from ? out + text.slice(from) : text;
}
