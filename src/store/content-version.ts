import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/**
 * A token that changes whenever the index's content may have: another connection's commit moves
 * `data_version`, this connection's own writes move `total_changes()`. Cheap enough for every request.
 */
export function contentVersion(db: Db): string {
  const v = prepared(db, "PRAGMA data_version").pluck().get() as number;
  const own = prepared(db, "SELECT total_changes()").pluck().get() as number;
  return `${v}:${own}`;
}
