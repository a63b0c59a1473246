import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/**
 * Of `names`, those that name a declaration (imports and file nodes are not declarations), matched
 * exactly, case included: one lookup through the name index for a whole prompt's tokens.
 */
export function declaredNames(db: Db, names: readonly string[]): Set<string> {
  if (!names.length) return new Set();
  const rows = prepared(
    db,
    `SELECT DISTINCT name FROM nodes
       WHERE name IN (SELECT value FROM json_each(?)) AND kind NOT IN ('import', 'file')`,
  ).all(JSON.stringify([...new Set(names)])) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/**
 * Whether any node's name has one of `words` as one of its words (`template` in `TemplateResponse`,
 * `get_template`), through the full-text index's `words` column. Words are lower-case letters and
 * digits; anything else is dropped, so the match expression cannot be malformed.
 */
export function anyNameHasWord(db: Db, words: readonly string[]): boolean {
  const terms = [...new Set(words.map((w) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")).filter(Boolean))];
  if (!terms.length) return false;
  const match = `words : (${terms.map((t) => `"${t}"`).join(" OR ")})`;
  return prepared(db, "SELECT 1 FROM search WHERE search MATCH ? LIMIT 1").get(match) !== undefined;
}
