import { MAX_PATH_CHARS } from "../core/paths.js";
import type { Db } from "./database.js";
import { membersOutside } from "./outside-members.js";
import { prepared, sqlLimit, unplanned } from "./statements.js";

export type { SymbolRow } from "./symbol-row.js";
import type { SymbolRow } from "./symbol-row.js";

const SELECT = `SELECT n.id, n.uid, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file,
  n.start_line AS startLine, n.end_line AS endLine, n.signature, n.docstring, n.exported
  FROM nodes n JOIN files f ON f.id = n.file_id`;

const CALLABLE = "('function', 'method', 'constructor')";

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Indexed paths whose name without its extension is `stem` or ends with `/stem`, on a segment
 * boundary: `query-builder` finds `src/query-builder.ts`, `utils/format` finds `src/utils/format.ts`.
 * One extension only: `query-builder.test.ts` is not `query-builder`. Sorted, at most `limit`.
 */
export function pathsWithStem(db: Db, stem: string, limit: number): string[] {
  if (stem.length > MAX_PATH_CHARS) return [];
  const escaped = likeEscape(stem);
  const rows = prepared(
    db,
    `SELECT path FROM files WHERE path LIKE ${unplanned("?")} ESCAPE '\\' OR path LIKE ${unplanned("?")} ESCAPE '\\'
       ORDER BY path LIMIT ${sqlLimit(limit * 4)}`,
  ).all(`${escaped}.%`, `%/${escaped}.%`) as { path: string }[];
  return rows
    .map((r) => r.path)
    .filter((p) => {
      const dot = p.lastIndexOf(".");
      const start = dot - stem.length;
      return (
        start >= 0 &&
        p.slice(start, dot) === stem &&
        (start === 0 || p[start - 1] === "/") &&
        /^[A-Za-z0-9]+$/.test(p.slice(dot + 1))
      );
    })
    .slice(0, limit);
}

/** Of `paths`, those that define a node (not an import) named one of `names`. */
export function pathsDefiningAny(db: Db, paths: readonly string[], names: readonly string[]): Set<string> {
  if (!paths.length || !names.length) return new Set();
  const rows = prepared(
    db,
    `SELECT DISTINCT f.path FROM nodes n JOIN files f ON f.id = n.file_id
       WHERE n.name IN (SELECT value FROM json_each(?)) AND n.kind NOT IN ('import', 'file')
         AND f.path IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify([...new Set(names)]), JSON.stringify([...new Set(paths)])) as { path: string }[];
  return new Set(rows.map((r) => r.path));
}

/** The innermost function, method or constructor of `path` whose lines include `line`. */
export function innermostCallableAt(db: Db, path: string, line: number): SymbolRow | undefined {
  return prepared(
    db,
    `${SELECT} WHERE f.path = ? AND n.kind IN ${CALLABLE} AND n.start_line <= ? AND n.end_line >= ?
       ORDER BY n.start_line DESC, n.end_line ASC, n.id LIMIT 1`,
  ).get(path, line, line) as SymbolRow | undefined;
}

/** How many lines an indexed file had when it was indexed (its file node's last line), or null. */
export function indexedLineCount(db: Db, path: string): number | null {
  const row = prepared(
    db,
    `SELECT n.end_line AS lines FROM files f JOIN nodes n ON n.id = f.node_id WHERE f.path = ?`,
  ).get(path) as { lines: number } | undefined;
  return row?.lines ?? null;
}

/** A definition a qualified name may mean, with its file's package. */
export type QualifiedRow = SymbolRow & { package: string | null };

/**
 * Definitions named `name` (the last part of the dotted `text`) whose qualified name is `text`,
 * ends with `.text` (`Inner.method` for `Outer.Inner.method`), or is a dotted suffix of `text`
 * (`Type.Method` for `pkg.Type.Method`; the caller checks the leading parts). Imports and file nodes
 * are never definitions. Sorted by path and line, at most `limit`.
 */
export function qualifiedCandidates(db: Db, name: string, text: string, limit: number): QualifiedRow[] {
  return prepared(
    db,
    `${SELECT.replace(" FROM nodes", ", f.package AS package FROM nodes")}
       WHERE n.name = @name AND n.kind NOT IN ('import', 'file')
         AND (n.qualified_name = @text
           OR substr(n.qualified_name, -length(@dotted)) = @dotted
           OR substr(@text, -(length(n.qualified_name) + 1)) = '.' || n.qualified_name)
       ORDER BY f.path, n.start_line LIMIT ${sqlLimit(limit)}`,
  ).all({ name, text, dotted: `.${text}` }) as QualifiedRow[];
}

/**
 * Nodes of the given kinds whose name's words contain every one of `stems` as a word prefix within
 * a few words of each other (FTS5 NEAR on the `words` column), at most `limit` FTS hits examined.
 * The caller checks order and spacing on the name itself.
 */
export function nodesWithWordsNear(
  db: Db,
  stems: readonly string[],
  kinds: readonly string[],
  limit: number,
): SymbolRow[] {
  const terms = stems.map((s) => s.replace(/[^\p{L}\p{N}]/gu, "")).filter(Boolean);
  if (terms.length < 2) return [];
  const match = `words : NEAR(${terms.map((t) => `"${t}"*`).join(" ")}, ${terms.length + 1})`;
  return prepared(
    db,
    `${SELECT.replace("FROM nodes n", `FROM (SELECT rowid AS rid FROM search WHERE search MATCH @match LIMIT ${sqlLimit(limit)}) m JOIN nodes n ON n.id = m.rid`)}
       WHERE n.kind IN (SELECT value FROM json_each(@kinds))`,
  ).all({ match, kinds: JSON.stringify(kinds) }) as SymbolRow[];
}

/** The innermost declaration of any kind (a function, a class, a module constant) whose lines include `line`. */
export function innermostSymbolAt(db: Db, path: string, line: number): SymbolRow | undefined {
  return prepared(
    db,
    `${SELECT} WHERE f.path = ? AND n.kind NOT IN ('file', 'import', 'module') AND n.start_line <= ? AND n.end_line >= ?
       ORDER BY n.start_line DESC, n.end_line ASC, n.id LIMIT 1`,
  ).get(path, line, line) as SymbolRow | undefined;
}

/**
 * Declarations whose body mentions any of `names`: as the name of what they call or instantiate, or
 * as the receiver of a call (`pre_save.send(...)` mentions `pre_save`). One row per (declaration, name).
 */
export function declarationsMentioning(
  db: Db,
  names: readonly string[],
  kinds: readonly string[],
): (SymbolRow & { mentioned: string })[] {
  return prepared(
    db,
    `WITH wanted(name) AS (SELECT value FROM json_each(?)),
          hits(from_id, mentioned) AS (
            SELECT r.from_id, r.name FROM refs r JOIN wanted w ON r.name = w.name
              WHERE r.kind IN (SELECT value FROM json_each(?))
            UNION SELECT r.from_id, r.receiver FROM refs r JOIN wanted w ON r.receiver = w.name)
     SELECT DISTINCT n.id, n.uid, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file,
       n.start_line AS startLine, n.end_line AS endLine, n.signature, n.docstring, n.exported, h.mentioned
       FROM hits h CROSS JOIN nodes n ON n.id = h.from_id CROSS JOIN files f ON f.id = n.file_id
       WHERE n.kind NOT IN ('file', 'module') LIMIT 400`,
  ).all(JSON.stringify([...new Set(names)]), JSON.stringify(kinds)) as (SymbolRow & { mentioned: string })[];
}

/**
 * The declarations directly inside a type (its methods, fields, nested types), and its members written
 * outside its body (Go's methods, Rust's `impl` blocks, C++'s out-of-line definitions; see
 * outside-members.ts) that are not inside it too.
 */
export function membersOf(db: Db, id: number): SymbolRow[] {
  const inside = prepared(
    db,
    `${SELECT} WHERE n.parent_id = ? AND n.kind NOT IN ('import', 'file') ORDER BY n.start_line`,
  ).all(id) as SymbolRow[];
  const outside = membersOutside(db, id);
  if (!outside.length) return inside;
  const type = prepared(db, "SELECT qualified_name FROM nodes WHERE id = ?").pluck().get(id) as string;
  const have = new Set(inside.map((m) => m.qualifiedName));
  const rows = prepared(
    db,
    `${SELECT} WHERE n.id IN (SELECT value FROM json_each(?)) ORDER BY f.path, n.start_line`,
  ).all(JSON.stringify(outside)) as SymbolRow[];
  // Direct members only (`Type.m`, not what `Type.m` nests), and one of each name a header declares.
  return [...inside, ...rows.filter((r) => r.qualifiedName === `${type}.${r.name}` && !have.has(r.qualifiedName))];
}
