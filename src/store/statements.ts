import type { Statement } from "better-sqlite3";
import type { Db } from "./database.js";

const cache = new WeakMap<Db, Map<string, Statement>>();

/** Statements kept per connection: a row count written into the text (sqlLimit) makes a new one. */
export const MAX_KEPT_STATEMENTS = 400;

/**
 * A prepared statement, compiled once per connection. Preparing costs tens of microseconds; a
 * callers query on a long-lived server runs dozens of lookups, so the read paths reuse statements.
 */
export function prepared(db: Db, sql: string): Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let stmt = byText.get(sql);
  if (!stmt) {
    if (byText.size >= MAX_KEPT_STATEMENTS) byText.delete(byText.keys().next().value!);
    byText.set(sql, (stmt = db.prepare(sql)));
  }
  return stmt;
}

/*
 * SQLite plans a statement with the values bound to its LIMIT and to the pattern of a LIKE or GLOB,
 * and marks it to be compiled again whenever such a parameter is bound again. A cached statement
 * would then be compiled anew on every run: 10-40 µs each, a search makes six or seven such reads.
 * So a LIMIT is written into the text (sqlLimit), and a pattern is handed over as an expression
 * the planner does not look into (unplanned). None of our patterns could use an index by its prefix:
 * they start with `%`, or LIKE ignores case where the path index does not, or a GLOB filters files
 * reached through their nodes. The plans stay the same.
 */

/** A row count for a LIMIT, as SQL text: a whole number, at least 0. */
export function sqlLimit(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`a row limit must be a number, not ${n}`);
  return String(Math.max(0, Math.floor(n)));
}

/** A bound parameter (`?`, `@name`) as an expression whose value the planner does not read. */
export const unplanned = (param: string): string => `(${param} || '')`;
