import { MAX_PATH_CHARS } from "../core/paths.js";
import { contentVersion } from "./content-version.js";
import type { Db } from "./database.js";
import { prepared, sqlLimit, unplanned } from "./statements.js";

/** SQLite's LIKE folds ASCII letters only: so does this. */
const foldAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** What follows the last `/` (all of it when there is none). */
const lastSegment = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * Lookups at one version of the index answered by a LIKE over every file before the paths are kept
 * by last segment: keeping them reads every path once, about four LIKEs' worth, so a process that
 * asks a few times (a CLI command, the prompt hook) never pays more than twice what it did.
 */
const LIKES_BEFORE_KEEPING = 3;

interface PathIndex {
  version: string;
  lookups: number;
  /** Indexed paths by their last segment, folded, each list in the index's path order. */
  byName: Map<string, string[]> | null;
}

const indexes = new WeakMap<Db, PathIndex>();

function keptPaths(db: Db): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of prepared(db, "SELECT path FROM files ORDER BY path").pluck().all() as string[]) {
    const name = foldAscii(lastSegment(path));
    const list = byName.get(name);
    if (list) list.push(path);
    else byName.set(name, [path]);
  }
  return byName;
}

/**
 * Indexed paths that end with `suffix` on a segment boundary (`app.ts` matches `src/app.ts`, never
 * `src/myapp.ts`), in path order, at most `limit`: the path itself, or one ending with `/` and the
 * suffix with ASCII letters in either case. A LIKE over every file answers the first lookups at a
 * version of the index; later ones (a server's) look the suffix's last segment up among the paths
 * kept in memory. The LIKE was about 0.1 ms on Django's 880 files, a quarter of a `node` call, and
 * 3.5 ms on 30,000; the lookup is 10 µs.
 */
export function pathsEndingWith(db: Db, suffix: string, limit: number): string[] {
  if (suffix.length > MAX_PATH_CHARS) return [];
  const version = contentVersion(db);
  let index = indexes.get(db);
  if (index?.version !== version) indexes.set(db, (index = { version, lookups: 0, byName: null }));
  if (!index.byName && ++index.lookups <= LIKES_BEFORE_KEEPING) {
    const escaped = suffix.replace(/[\\%_]/g, (c) => `\\${c}`);
    return prepared(
      db,
      `SELECT path FROM files WHERE path = ? OR path LIKE ${unplanned("?")} ESCAPE '\\' ORDER BY path LIMIT ${sqlLimit(limit)}`,
    )
      .pluck()
      .all(suffix, `%/${escaped}`) as string[];
  }
  index.byName ??= keptPaths(db);
  const same = index.byName.get(foldAscii(lastSegment(suffix)));
  if (!same) return [];
  const tail = `/${foldAscii(suffix)}`;
  const out: string[] = [];
  for (const path of same) {
    if (out.length >= limit) break;
    if (path === suffix || foldAscii(path).endsWith(tail)) out.push(path);
  }
  return out;
}
