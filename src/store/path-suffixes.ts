import { contentVersion } from "./content-version.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/** SQLite's LIKE folds ASCII letters only: so does this. */
const foldAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** What follows the last `/` (all of it when there is none). */
const lastSegment = (path: string) => path.slice(path.lastIndexOf("/") + 1);

interface PathIndex {
  version: string;
  /** Indexed paths by their last segment, folded, each list in the index's path order. */
  byName: Map<string, string[]>;
}

const indexes = new WeakMap<Db, PathIndex>();

/**
 * The indexed paths by last segment, built once per connection and again when the index's content
 * changes. A path suffix (`app.ts`, `QuerySet.filter` when `node` is asked for a symbol) was a LIKE
 * over every file: about 0.1 ms a call on Django's 880 files, a quarter of a `node` call, and
 * growing with the project; this is one lookup.
 */
function pathIndex(db: Db): PathIndex {
  const version = contentVersion(db);
  const cached = indexes.get(db);
  if (cached?.version === version) return cached;
  const byName = new Map<string, string[]>();
  for (const path of prepared(db, "SELECT path FROM files ORDER BY path").pluck().all() as string[]) {
    const name = foldAscii(lastSegment(path));
    const list = byName.get(name);
    if (list) list.push(path);
    else byName.set(name, [path]);
  }
  const index = { version, byName };
  indexes.set(db, index);
  return index;
}

/**
 * Indexed paths that end with `suffix` on a segment boundary (`app.ts` matches `src/app.ts`, never
 * `src/myapp.ts`), in path order, at most `limit`: the path itself, or one ending with `/` and the
 * suffix with ASCII letters in either case (as `path = ? OR path LIKE '%/' || ?` had them).
 */
export function pathsEndingWith(db: Db, suffix: string, limit: number): string[] {
  const same = pathIndex(db).byName.get(foldAscii(lastSegment(suffix)));
  if (!same) return [];
  const tail = `/${foldAscii(suffix)}`;
  const out: string[] = [];
  for (const path of same) {
    if (out.length >= limit) break;
    if (path === suffix || foldAscii(path).endsWith(tail)) out.push(path);
  }
  return out;
}
