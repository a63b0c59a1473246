import type { Statement } from "better-sqlite3";
import type { Db } from "./database.js";

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A prepared statement, compiled once per connection. Preparing costs tens of microseconds; a
 * callers query on a long-lived server runs dozens of lookups, so the read paths reuse statements.
 */
export function prepared(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let stmt = byText.get(sql);
  if (!stmt) byText.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
