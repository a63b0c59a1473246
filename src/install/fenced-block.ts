import { CodegraphError } from "../core/errors.js";

/**
 * Our instructions live in agents' Markdown files (AGENTS.md, CLAUDE.md, GEMINI.md) between two
 * markers, so they can be replaced in place or removed without touching a byte the user wrote.
 */
export const BLOCK_BEGIN = "<!-- BEGIN codegraph (managed by `codegraph install`; edits inside are replaced) -->";
export const BLOCK_END = "<!-- END codegraph -->";
const BEGIN_PREFIX = "<!-- BEGIN codegraph";

/** Put `body` in our block: replaced where it is, or appended after a blank line. */
export function upsertBlock(text: string, file: string, body: string): string {
  const block = `${BLOCK_BEGIN}\n${body.trimEnd()}\n${BLOCK_END}`;
  const span = findBlock(text, file);
  if (span) return text.slice(0, span.start) + block + text.slice(span.end);
  if (text === "") return `${block}\n`;
  return `${text}${text.endsWith("\n") ? "\n" : "\n\n"}${block}\n`;
}

/** Take our block out, with the line break after it and the blank line we put before it. */
export function removeBlock(text: string, file: string): string {
  const span = findBlock(text, file);
  if (!span) return text;
  let before = text.slice(0, span.start);
  let after = text.slice(span.end);
  if (after.startsWith("\n")) after = after.slice(1);
  // The blank line that set the block apart goes with it.
  if (before.endsWith("\n\n") && (after === "" || after.startsWith("\n"))) before = before.slice(0, -1);
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
