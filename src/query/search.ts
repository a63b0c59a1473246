import type { Db } from "../store/database.js";
import { SYMBOL_SELECT, toHit, type SymbolHit } from "./symbols.js";
import { prepared } from "../store/statements.js";

export interface SearchOptions {
  kind?: string;
  limit?: number;
}

export interface SearchResult {
  query: string;
  hits: (SymbolHit & { score: number })[];
}

/** FTS5 query text from free text: each word a prefix term, any of them may match. */
function ftsQuery(text: string): string | null {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}_]+/u)
    .flatMap((w) => w.split("_"))
    .filter((w) => w.length > 0)
    .map((w) => `"${w.toLowerCase()}"*`);
  return words.length ? words.join(" OR ") : null;
}

/**
 * Symbols matching free text: exact names first (case-sensitive, then not), then FTS5 over names,
 * the words inside them, qualified names, signatures and docstrings, ranked by bm25 with names weighted most.
 */
export function searchSymbols(db: Db, query: string, options: SearchOptions = {}): SearchResult {
  const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
  const kindClause = options.kind ? "AND n.kind = @kind" : "";
  const params = { q: query.trim(), kind: options.kind ?? null, limit };
  const seen = new Set<number>();
  const hits: SearchResult["hits"] = [];
  const add = (rows: (Parameters<typeof toHit>[0] & { score: number })[]) => {
    for (const r of rows) {
      if (hits.length >= limit || seen.has(r.id)) continue;
      seen.add(r.id);
      hits.push({ ...toHit(r), score: r.score });
    }
  };
  if (!params.q) return { query, hits };
  add(
    prepared(
      db,
      `${SYMBOL_SELECT} WHERE (n.name = @q OR n.qualified_name = @q) AND n.kind NOT IN ('import', 'file') ${kindClause}
         ORDER BY n.exported DESC, length(f.path), f.path LIMIT @limit`,
    )
      .all(params)
      .map((r) => ({ ...(r as object), score: 100 })) as never,
  );
  add(
    prepared(
      db,
      `${SYMBOL_SELECT} WHERE n.name = @q COLLATE NOCASE AND n.kind NOT IN ('import', 'file') ${kindClause}
         ORDER BY f.path LIMIT @limit`,
    )
      .all(params)
      .map((r) => ({ ...(r as object), score: 90 })) as never,
  );
  const fts = ftsQuery(params.q);
  if (fts && hits.length < limit) {
    const rows = prepared(
      db,
      `${SYMBOL_SELECT.replace("SELECT ", "SELECT -m.rank AS score, ")}
         JOIN (SELECT rowid AS rid, bm25(search, 10.0, 6.0, 3.0, 1.0, 0.5) AS rank FROM search
               WHERE search MATCH @fts ORDER BY rank LIMIT @cap) m ON m.rid = n.id
         ${options.kind ? "WHERE n.kind = @kind" : ""} ORDER BY m.rank LIMIT @limit`,
    ).all({ fts, kind: params.kind, limit, cap: limit * 10 });
    add(rows as never);
  }
  return { query, hits };
}
