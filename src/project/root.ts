import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, parse, resolve } from "node:path";
import { DB_FILE, INDEX_DIR } from "../config/paths.js";
import { CodegraphError } from "../core/errors.js";
import { realPathOf } from "../core/paths.js";

/** The nearest folder at or above `start` holding an index, or null. */
export function findIndexedRoot(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, INDEX_DIR, DB_FILE))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** Folders' real paths, by path: isUnsafeRoot runs on every call a server answers. */
const realPaths = new Map<string, string>();
const realPathCached = (abs: string): string => {
  const known = realPaths.get(abs);
  if (known !== undefined) return known;
  const real = realPathOf(abs);
  if (real === null) return abs; // not there (yet): nothing to remember
  if (realPaths.size >= 256) realPaths.clear();
  realPaths.set(abs, real);
  return real;
};

/**
 * True for the filesystem root and the user's home: far too broad to index or watch. Also when reached
 * through a link (`~/work -> ~`, or a HOME that is itself a link): compared by real path too.
 */
export function isUnsafeRoot(dir: string): boolean {
  const abs = resolve(dir);
  const home = resolve(homedir());
  if (abs === parse(abs).root || abs === home) return true;
  const real = realPathCached(abs);
  return real === parse(real).root || real === realPathCached(home);
}

/**
 * A folder between `start` and the indexed project above it (or the root) whose `.codegraph/` holds a
 * config but no index yet: an `init` there is under way or was killed. Commands then work on that
 * folder (and say it has no index yet), not on the project above, which the user did not mean.
 */
function unfinishedIndexBelow(start: string, indexed: string | null): string | null {
  for (let dir = resolve(start); dir !== indexed; dir = dirname(dir)) {
    if (existsSync(join(dir, INDEX_DIR, "config.toml"))) return dir;
    if (dirname(dir) === dir) return null;
  }
  return null;
}

/**
 * The project a command works on: `--path` if given (must exist), else the indexed project around
 * the working directory. Commands that read the index need one; `init` takes the folder as given.
 */
export function resolveProject(pathOption: string | undefined, cwd = process.cwd()): string {
  if (pathOption !== undefined) {
    const abs = resolve(cwd, pathOption);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) {
      const what = existsSync(abs) ? "is not a directory" : "does not exist";
      throw new CodegraphError("BAD_INPUT", `${abs} ${what}. Pass the project folder with --path.`);
    }
    const indexed = findIndexedRoot(abs);
    return unfinishedIndexBelow(abs, indexed) ?? indexed ?? abs;
  }
  const indexed = findIndexedRoot(cwd);
  const found = unfinishedIndexBelow(cwd, indexed) ?? indexed;
  if (!found) {
    throw new CodegraphError(
      "NOT_INDEXED",
      `No codegraph index in ${cwd} or above it. Run \`codegraph init\` in the project, or pass --path <project>.`,
    );
  }
  return found;
}
