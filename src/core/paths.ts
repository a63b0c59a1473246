import { isAbsolute, posix, relative, sep } from "node:path";

/**
 * Characters past which a path names no file (Linux's PATH_MAX). Looking a longer one up only costs,
 * and SQLite refuses a LIKE pattern past 50,000 bytes ("pattern too complex").
 */
export const MAX_PATH_CHARS = 4096;

/** Whether the absolute path `p` lies strictly inside the folder `base`. */
export function liesInside(p: string, base: string): boolean {
  const rel = relative(base, p);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Directory of a project-relative path (`""` for the root). */
export function dirOf(relPath: string): string {
  const d = posix.dirname(relPath);
  return d === "." ? "" : d;
}

/** Join and normalise project-relative segments; returns null when the result escapes the root. */
export function joinRel(base: string, rel: string): string | null {
  const joined = posix.normalize(posix.join(base || ".", rel));
  if (joined === ".." || joined.startsWith("../") || posix.isAbsolute(joined)) return null;
  return joined === "." ? "" : joined;
}
