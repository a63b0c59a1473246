import { dbPath } from "../config/paths.js";
import { resolveProject } from "../project/root.js";
import { openDatabase, type Db } from "../store/database.js";

/** Open the project's index read-only for one command (`--path`, else find-up from the working directory). */
export function withIndex<T>(opts: { path?: string }, fn: (db: Db, root: string) => T): T {
  const root = resolveProject(opts.path);
  const db = openDatabase(dbPath(root), { readonly: true });
  try {
    return fn(db, root);
  } finally {
    db.close();
  }
}
