import type { SourceLines } from "../query/node.js";

/** Source lines with their line numbers right-aligned, two spaces before the code (`  42  code`). */
export function numbered(src: SourceLines, indent = ""): string {
  const width = String(Math.max(src.endLine, 1)).length;
  return src.lines.map((l, i) => `${indent}${String(src.startLine + i).padStart(width)}  ${l}`).join("\n");
}
