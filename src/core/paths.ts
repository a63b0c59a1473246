import { posix } from "node:path";

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
