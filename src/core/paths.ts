import { realpathSync } from "node:fs";
import { isAbsolute, posix, relative, sep } from "node:path";

/**
 * Characters past which a path names no file (Linux's PATH_MAX). Looking a longer one up only costs,
 * and SQLite refuses a LIKE pattern past 50,000 bytes ("pattern too complex").
 */
export const MAX_PATH_CHARS = 4096;

/** Whether the absolute path `p` lies strictly inside the folder `base`. */
export function liesInside(p: string, base: string): boolean {
  if (sep === "/" && underWithoutDots(p, base)) return true;
  const rel = relative(base, p);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Whether `p` is `base`, a slash, and a path with no segment starting with a dot (`.`, `..`, `.git`)
 * and no empty one to normalise: then it lies inside without `relative`, which resolves both paths
 * (a scan of 3,300 files paid 50 ms for it). POSIX only: Windows takes `/` as a separator too.
 */
function underWithoutDots(p: string, base: string): boolean {
  const at = base.length;
  return (
    at > 0 &&
    p.length > at + 1 &&
    p[at] === "/" &&
    p[at + 1] !== "/" &&
    p.startsWith(base) &&
    p.indexOf("/.", at) === -1
  );
}

/**
 * A path's real location, or null when it cannot be resolved (it does not exist, a link dangles).
 * The system's realpath(3): Node's own walks the path a component at a time in JavaScript, with an
 * lstat each, and took twice as long (30 µs against 15 for a Django file).
 */
export function realPathOf(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** A path's real location, or the path as given when it cannot be resolved (a project root, mostly). */
export function realPathOrGiven(path: string): string {
  return realPathOf(path) ?? path;
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
