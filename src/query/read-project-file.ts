import type { Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { liesInside, realPathOf, realPathOrGiven } from "../core/paths.js";
import { readRegularInside } from "../core/regular-file.js";

/**
 * A path as the project names it (`src/app.ts`), from what a user or agent typed: project-relative
 * or absolute, `./` or Windows separators. Null when it lexically leaves the project (`../x`, an
 * absolute path elsewhere). Symlinks are not followed here; {@link resolveProjectPath} does that.
 */
export function projectRelative(root: string, input: string): string | null {
  const text = input.replace(/\\/g, "/");
  const found = relativeTo(root, text);
  if (found !== null || !isAbsolute(text)) return found;
  // An absolute path through a link to the project: only then the root's real path, and then the
  // path's own (the shell's working folder was a link to the project, which Node reports resolved).
  const realRoot = realPathOrGiven(root);
  const real = realPathOf(text) ?? realParentOf(text);
  return relativeTo(realRoot, text) ?? (real === null ? null : relativeTo(realRoot, real));
}

/** A path whose file does not exist (yet) resolved through its folder's real path, or null. */
function realParentOf(text: string): string | null {
  const folder = realPathOf(dirname(text));
  return folder === null ? null : join(folder, basename(text));
}

/** `text` (relative to `base`, or absolute) as a path inside `base`, "" for `base` itself, else null. */
function relativeTo(base: string, text: string): string | null {
  const abs = resolve(base, text);
  if (abs === base) return "";
  return liesInside(abs, base) ? relative(base, abs).split(sep).join("/") : null;
}

/**
 * The real location on disk of a project file, refusing any path that leaves the project (`..`,
 * absolute paths elsewhere, symlinks pointing out) with OUTSIDE_PROJECT. Null when it does not exist.
 * Every read of project bytes goes through here, or through readInsideProject, which checks the open
 * file instead. A caller resolving many files at once may pass the root's {@link realPathOrGiven},
 * worked out once.
 */
export function resolveProjectPath(root: string, relPath: string, realRootPath?: string): string | null {
  const abs = resolve(root, relPath);
  if (!liesInside(abs, root)) {
    throw new CodegraphError("OUTSIDE_PROJECT", `${relPath} is outside the project; only project files can be read.`);
  }
  // `node` and `explore` resolve each file they quote, and the project's root: both the same way.
  const real = realPathOf(abs);
  if (real === null) return null;
  if (!liesInside(real, realRootPath ?? realPathOrGiven(root))) {
    throw new CodegraphError("OUTSIDE_PROJECT", `${relPath} links outside the project; it is not read.`);
  }
  return real;
}

/**
 * What `read` makes of a project file opened at its path as the project names it: null when it is not
 * a regular file inside the project (a path that leaves it, a link out, a file that cannot be read).
 * No realpath is taken: the open file itself is checked (readRegularInside), which a realpath would
 * only repeat. The search for a pasted message reads 3,300 files of the JDK, and their realpaths took
 * 80 ms; each file explore or `node` quotes was realpath'd too.
 */
export function readInsideProject<T>(
  root: string,
  relPath: string,
  realRoot: string,
  read: (fd: number, st: Stats) => T,
): T | null {
  const abs = resolve(root, relPath);
  return liesInside(abs, root) ? readRegularInside(realRoot, abs, read) : null;
}
