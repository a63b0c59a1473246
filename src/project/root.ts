import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, parse, resolve } from "node:path";
import { DB_FILE, INDEX_DIR } from "../config/paths.js";
import { CodegraphError } from "../core/errors.js";

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

/** True for the filesystem root and the user's home: far too broad to index or watch. */
export function isUnsafeRoot(dir: string): boolean {
  const abs = resolve(dir);
  return abs === parse(abs).root || abs === resolve(homedir());
}

/**
 * The project a command works on: `--path` if given (must exist), else the indexed project around
 * the working directory. Commands that read the index need one; `init` takes the folder as given.
 */
export function resolveProject(pathOption: string | undefined, cwd = process.cwd()): string {
  if (pathOption !== undefined) {
    const abs = resolve(cwd, pathOption);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) {
      throw new CodegraphError("BAD_INPUT", `${abs} is not a directory. Pass the project folder with --path.`);
    }
    return findIndexedRoot(abs) ?? abs;
  }
  const found = findIndexedRoot(cwd);
  if (!found) {
    throw new CodegraphError(
      "NOT_INDEXED",
      `No codegraph index in ${cwd} or above it. Run \`codegraph init\` in the project, or pass --path <project>.`,
    );
  }
  return found;
}
