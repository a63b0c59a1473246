import { MAX_PATH_CHARS } from "../core/paths.js";
import type { Statement } from "better-sqlite3";
import type { Db } from "./database.js";
import { prepared, sqlLimit, unplanned } from "./statements.js";
import type { SymbolRow } from "./symbol-row.js";

/**
 * A search candidate: what ranking reads of a node and its file, and (from FTS5) its bm25 rank. The
 * rest of the row (signature, docstring) is read for the hits that are shown only (`searchDetails`):
 * a search weighs hundreds of candidates to show ten, and docstrings are the longest text we store.
 */
export type SearchRow = Pick<
  SymbolRow,
  "id" | "name" | "qualifiedName" | "kind" | "file" | "startLine" | "exported"
> & {
  /** bm25 (lower is better, negative); 0 for rows not found through the full-text index. */
  rank: number;
};

/**
 * Narrowing every search read applies. Null means "no filter". `pathLike` is a LIKE pattern
 * (escaped with `\`, case-insensitive); `pathGlob` a SQLite GLOB (case-sensitive, `*` crosses `/`).
 */
export interface SearchFilters {
  kinds: readonly string[] | null;
  languages: readonly string[] | null;
  pathLike: string | null;
  pathGlob: string | null;
}

const COLS = `n.id, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file, n.start_line AS startLine, n.exported`;

type RawSearchRow = [number, string, string, string, string, number, number, number];

/**
 * A statement's rows (COLS, then the rank) as SearchRows. They are read as arrays and made into
 * objects here: better-sqlite3 builds a row object property by property, which cost about 0.8 µs a
 * row more, and a search reads a few hundred candidate rows.
 */
function searchRows(statement: Statement, params: Record<string, unknown>): SearchRow[] {
  const rows = statement.raw(true).all(params) as RawSearchRow[];
  return rows.map(([id, name, qualifiedName, kind, file, startLine, exported, rank]) => ({
    id,
    name,
    qualifiedName,
    kind,
    file,
    startLine,
    exported,
    rank,
  }));
}

// Imports and file nodes are never search hits. With filters, they are written once with `IS NULL`
// escapes, so each read is one cached statement whatever filters a query carries; without any, a
// statement of its own leaves out the escapes, whose subqueries cost each read about 12 µs (a
// search makes four or five reads).
const UNFILTERED = `n.kind NOT IN ('import', 'file')`;
const FILTERED = `${UNFILTERED}
  AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
  AND (@langs IS NULL OR f.language IN (SELECT value FROM json_each(@langs)))
  AND (@pathLike IS NULL OR f.path LIKE ${unplanned("@pathLike")} ESCAPE '\\')
  AND (@pathGlob IS NULL OR f.path GLOB ${unplanned("@pathGlob")})`;

const filtered = (filters: SearchFilters) =>
  Boolean(filters.kinds || filters.languages || filters.pathLike || filters.pathGlob);

const where = (filters: SearchFilters) => (filtered(filters) ? FILTERED : UNFILTERED);

function bind(filters: SearchFilters) {
  return {
    kinds: filters.kinds ? JSON.stringify(filters.kinds) : null,
    langs: filters.languages ? JSON.stringify(filters.languages) : null,
    pathLike: filters.pathLike,
    pathGlob: filters.pathGlob,
  };
}

/**
 * Symbols whose name equals `name` ignoring ASCII case (through the NOCASE name index); the caller
 * tells exact from case-insensitive. Callables and types first, so a cap keeps the likelier ones.
 */
export function searchByName(db: Db, name: string, filters: SearchFilters, cap: number): SearchRow[] {
  return searchRows(
    prepared(
      db,
      `SELECT ${COLS}, 0 AS rank FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE n.name = @name COLLATE NOCASE AND ${where(filters)}
     ORDER BY n.kind IN ('variable', 'property', 'constant', 'enum_member'), length(f.path), f.path, n.start_line
     LIMIT ${sqlLimit(cap)}`,
    ),
    { ...bind(filters), name },
  );
}

/**
 * Symbols named `name` (ignoring ASCII case) whose qualified name is `qualified` or ends with
 * `.qualified` (`HashMap.get` among the JDK's 755 methods named `get`).
 */
export function searchByQualifiedName(
  db: Db,
  name: string,
  qualified: string,
  filters: SearchFilters,
  cap: number,
): SearchRow[] {
  // No qualified name is that long, and SQLite refuses so long a LIKE pattern.
  if (qualified.length > MAX_PATH_CHARS) return [];
  return searchRows(
    prepared(
      db,
      `SELECT ${COLS}, 0 AS rank FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE n.name = @name COLLATE NOCASE
       AND (n.qualified_name = @qualified COLLATE NOCASE OR n.qualified_name LIKE ${unplanned("@like")} ESCAPE '\\')
       AND ${where(filters)}
     ORDER BY length(f.path), f.path, n.start_line LIMIT ${sqlLimit(cap)}`,
    ),
    {
      ...bind(filters),
      name,
      qualified,
      like: `%.${qualified.replace(/[\\%_]/g, (c) => `\\${c}`)}`,
    },
  );
}

/**
 * Symbols whose name starts with `prefix` ignoring ASCII case, in index order (a range over the NOCASE
 * name index, so a common prefix costs no more than `cap` rows).
 */
export function searchByNamePrefix(db: Db, prefix: string, filters: SearchFilters, cap: number): SearchRow[] {
  const last = prefix.charCodeAt(prefix.length - 1);
  const hi = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return searchRows(
    prepared(
      db,
      `SELECT ${COLS}, 0 AS rank FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE n.name COLLATE NOCASE >= @lo AND n.name COLLATE NOCASE < @hi AND ${where(filters)}
     LIMIT ${sqlLimit(cap)}`,
    ),
    { ...bind(filters), lo: prefix, hi },
  );
}

/** How many names start with `prefix` ignoring ASCII case, counting no further than `max`. */
export function countNamePrefix(db: Db, prefix: string, max: number): number {
  const last = prefix.charCodeAt(prefix.length - 1);
  const hi = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return prepared(
    db,
    `SELECT count(*) FROM (SELECT 1 FROM nodes WHERE name COLLATE NOCASE >= @lo AND name COLLATE NOCASE < @hi LIMIT ${sqlLimit(max)})`,
  )
    .pluck()
    .get({ lo: prefix, hi }) as number;
}

/** Symbols with any of these exact names (the typo pass's candidates). */
export function searchByNames(db: Db, names: readonly string[], filters: SearchFilters, cap: number): SearchRow[] {
  return searchRows(
    prepared(
      db,
      `SELECT ${COLS}, 0 AS rank FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE n.name IN (SELECT value FROM json_each(@names)) AND ${where(filters)}
     ORDER BY length(f.path), f.path, n.start_line LIMIT ${sqlLimit(cap)}`,
    ),
    { ...bind(filters), names: JSON.stringify(names) },
  );
}

/**
 * How many rows an FTS5 expression matches, counting no further than `max`: a cheap test of whether
 * ranking them all is affordable (bm25 costs about a microsecond a row; `get` matches 47k rows in the JDK).
 */
export function countFullText(db: Db, match: string, max: number): number {
  return prepared(db, `SELECT count(*) FROM (SELECT 1 FROM search WHERE search MATCH @match LIMIT ${sqlLimit(max)})`)
    .pluck()
    .get({ match }) as number;
}

const BM25 = "bm25(search, 12.0, 6.0, 3.0, 1.0, 0.5)";

/**
 * Full-text matches for an FTS5 expression, best bm25 first. Column weights: name ≫ words (the
 * segments of the name) > qualified name > signature > docstring. Without filters only the best
 * rows are joined to their nodes (twice `cap`, since file nodes are indexed too and never returned).
 */
export function searchFullText(db: Db, match: string, filters: SearchFilters, cap: number): SearchRow[] {
  const sql = filtered(filters)
    ? `SELECT ${COLS}, ${BM25} AS rank
       FROM search JOIN nodes n ON n.id = search.rowid JOIN files f ON f.id = n.file_id
       WHERE search MATCH @match AND ${where(filters)}
       ORDER BY rank LIMIT ${sqlLimit(cap)}`
    : `SELECT ${COLS}, m.rank FROM
         (SELECT rowid AS id, ${BM25} AS rank FROM search WHERE search MATCH @match ORDER BY rank LIMIT ${sqlLimit(cap * 2)}) m
       JOIN nodes n ON n.id = m.id JOIN files f ON f.id = n.file_id
       WHERE ${where(filters)} ORDER BY m.rank LIMIT ${sqlLimit(cap)}`;
  return searchRows(prepared(db, sql), { ...bind(filters), match });
}

/** Symbols passing the filters alone (a query of only `kind:`/`lang:`/`path:`), in index order. */
export function searchFiltered(db: Db, filters: SearchFilters, cap: number): SearchRow[] {
  return searchRows(
    prepared(
      db,
      `SELECT ${COLS}, 0 AS rank FROM nodes n JOIN files f ON f.id = n.file_id WHERE ${where(filters)}
     ORDER BY n.id LIMIT ${sqlLimit(cap)}`,
    ),
    { ...bind(filters) },
  );
}

/** The rest of the rows of the hits a search shows, by node id. */
export function searchDetails(
  db: Db,
  ids: readonly number[],
): Map<number, Pick<SymbolRow, "uid" | "endLine" | "signature" | "docstring">> {
  const rows = prepared(
    db,
    `SELECT id, uid, end_line AS endLine, signature, docstring FROM nodes WHERE id IN (SELECT value FROM json_each(@ids))`,
  ).all({ ids: JSON.stringify(ids) }) as Pick<SymbolRow, "id" | "uid" | "endLine" | "signature" | "docstring">[];
  return new Map(rows.map(({ id, ...rest }) => [id, rest]));
}

/** Every distinct symbol name (imports' too: a name shared with a definition is still worth a lookup). */
export function distinctNames(db: Db): string[] {
  return prepared(db, "SELECT DISTINCT name FROM nodes").pluck().all() as string[];
}
