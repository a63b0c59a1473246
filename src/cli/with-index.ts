import { dbPath } from "../config/paths.js";
import { resolveProject } from "../project/root.js";
import { explainIndexError } from "../query/open-index.js";
import { openDatabase, type Db } from "../store/database.js";

/**
 * Open the project's index read-only for one command (`--path`, else find-up from the working
 * directory). Damage a statement finds on the way is told as such, with the command that repairs it.
 */
export function withIndex<T>(opts: { path?: string }, fn: (db: Db, root: string) => T): T {
  const root = resolveProject(opts.path);
  const db = openDatabase(dbPath(root), { readonly: true });
  try {
    return fn(db, root);
  } catch (e) {
    throw explainIndexError(root, e);
  } finally {
    db.close();
  }
}
