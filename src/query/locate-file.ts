import { isCodegraphError } from "../core/errors.js";
import type { Db } from "../store/database.js";
import { fileRecord } from "../store/file-lookup.js";
import { pathsEndingWith } from "../store/path-suffixes.js";
import { projectRelative, resolveProjectPath } from "./read-project-file.js";

/** A line or an inclusive line range pasted after a path (`:42`, `:42-80`, `#L42`, `#L42-L80`). */
export interface LineSelector {
  start: number;
  /** Inclusive; absent for a single line. */
  end?: number;
}

/** Line numbers above this in a selector are not believed: the suffix then stays part of the name. */
export const MAX_SELECTOR_LINE = 1_000_000;

/** How many candidates an ambiguous path lists. */
const MAX_CANDIDATES = 20;

const SELECTOR = /^(.+?)(?::(\d+)(?:-(\d+))?|#L(\d+)(?:-L?(\d+))?)$/;

/**
 * Split a pasted editor/GitHub location into its path and line selector. Null when the text has no
 * valid positive selector: zero, reversed, overflowing ranges and `C:12` (a Windows drive, not a
 * line) are not selectors, so such text stays a literal file name.
 */
export function splitLineSelector(text: string): { path: string; selector: LineSelector } | null {
  const m = SELECTOR.exec(text);
  if (!m) return null;
  const path = m[1]!;
  const start = Number(m[2] ?? m[4]);
  const endText = m[3] ?? m[5];
  const end = endText === undefined ? undefined : Number(endText);
  if (/^[A-Za-z]$/.test(path)) return null;
  if (!Number.isSafeInteger(start) || start < 1 || start > MAX_SELECTOR_LINE) return null;
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start || end > MAX_SELECTOR_LINE)) return null;
  return { path, selector: end === undefined ? { start } : { start, end } };
}

export type FileResolution =
  | { type: "file"; path: string; selector: LineSelector | null }
  | { type: "ambiguous"; candidates: string[]; more: boolean }
  | { type: "outside" }
  | { type: "none" };

/**
 * The indexed file a user or agent means by `input`. The literal text is tried first (exact path, then
 * a unique segment-aligned suffix such as `app.ts` for `src/app.ts`); only when the literal misses is
 * a line selector stripped and the rest tried the same way. Several suffix matches are listed, never
 * guessed. A path that leaves the project, lexically or through a symlink, is "outside".
 */
export function resolveIndexedFile(db: Db, root: string, input: string): FileResolution {
  const literal = input.trim().replace(/^[`'"]|[`'"]$/g, "");
  if (!literal) return { type: "none" };
  const split = splitLineSelector(literal);
  const forms: { text: string; selector: LineSelector | null }[] = [{ text: literal, selector: null }];
  if (split) forms.push({ text: split.path, selector: split.selector });
  const rels = forms.map((f) => ({ ...f, rel: projectRelative(root, f.text) }));
  if (rels.every((f) => f.rel === null)) return { type: "outside" };
  for (const f of rels) {
    if (!f.rel) continue;
    if (fileRecord(db, f.rel)) return { type: "file", path: f.rel, selector: f.selector };
    const matches = pathsEndingWith(db, f.rel, MAX_CANDIDATES + 1);
    if (matches.length === 1) return { type: "file", path: matches[0]!, selector: f.selector };
    if (matches.length > 1) {
      return { type: "ambiguous", candidates: matches.slice(0, MAX_CANDIDATES), more: matches.length > MAX_CANDIDATES };
    }
  }
  // Not indexed. Say "outside" rather than "not found" for a symlink that leads out of the project.
  for (const f of rels) {
    if (!f.rel) continue;
    try {
      resolveProjectPath(root, f.rel);
    } catch (e) {
      if (isCodegraphError(e) && e.code === "OUTSIDE_PROJECT") return { type: "outside" };
      throw e;
    }
  }
  return { type: "none" };
}
