import { CodegraphError } from "../core/errors.js";
import { inLineEndingOf, lineEnding } from "./line-ending.js";

/**
 * Our instructions live in agents' Markdown files (AGENTS.md, CLAUDE.md, GEMINI.md) between two
 * markers, so they can be replaced in place or removed without touching a byte the user wrote.
 */
export const BLOCK_BEGIN = "<!-- BEGIN codegraph (managed by `codegraph install`; edits inside are replaced) -->";
export const BLOCK_END = "<!-- END codegraph -->";
const BEGIN_PREFIX = "<!-- BEGIN codegraph";

/**
 * Put `body` in our block: replaced where it is, or appended after a blank line, in the file's line
 * endings. A file that ends without a line break keeps ending without one, so uninstall can give it
 * back as it was.
 */
export function upsertBlock(text: string, file: string, body: string): string {
  const nl = lineEnding(text);
  const block = inLineEndingOf(text, `${BLOCK_BEGIN}\n${body.trimEnd()}\n${BLOCK_END}`);
  const span = findBlock(text, file);
  if (span) return text.slice(0, span.start) + block + text.slice(span.end);
  if (text === "") return `${block}${nl}`;
  return text.endsWith("\n") ? `${text}${nl}${block}${nl}` : `${text}${nl}${nl}${block}`;
}

/** Take our block out, with the line break after it and the blank line we put before it. */
export function removeBlock(text: string, file: string): string {
  const span = findBlock(text, file);
  if (!span) return text;
  let before = text.slice(0, span.start);
  const after = text.slice(span.end).replace(/^\r?\n/, "");
  // The blank line that set the block apart goes with it.
  if (/\r?\n\r?\n$/.test(before) && (after === "" || /^\r?\n/.test(after))) before = before.replace(/\r?\n$/, "");
  // The block ended the file without a line break: the line before it ends the file again.
  if (span.end === text.length) before = before.replace(/\r?\n$/, "");
  const rest = before + after;
  return rest.trim() === "" ? "" : rest;
}

export function hasBlock(text: string, file: string): boolean {
  return findBlock(text, file) !== undefined;
}

function findBlock(text: string, file: string): { start: number; end: number } | undefined {
  const start = text.indexOf(BEGIN_PREFIX);
  const endMarker = text.indexOf(BLOCK_END, start < 0 ? 0 : start);
  if (start < 0 && endMarker < 0) return undefined;
  if (start < 0 || endMarker < 0) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: the codegraph block has a ${start < 0 ? "END" : "BEGIN"} marker but no ${start < 0 ? "BEGIN" : "END"} marker. Restore or delete the other marker by hand; the file was left untouched.`,
    );
  }
  return { start, end: endMarker + BLOCK_END.length };
}
