import type { Db } from "./database.js";
import { prepared, sqlLimit, unplanned } from "./statements.js";
import type { SymbolRow } from "./symbol-row.js";

const COLUMNS = `n.id, n.uid, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file,
  n.start_line AS startLine, n.end_line AS endLine, n.signature, n.docstring, n.exported`;
const SELECT = `SELECT ${COLUMNS} FROM nodes n JOIN files f ON f.id = n.file_id`;
/** Imports and file nodes are never a definition. */
const DECLARATION = "n.kind NOT IN ('import', 'file')";

export function symbolRowById(db: Db, id: number): SymbolRow | undefined {
  return prepared(db, `${SELECT} WHERE n.id = ?`).get(id) as SymbolRow | undefined;
}

/** The nodes with these ids, by id (one read for all: a callers list shows up to a thousand). */
export function symbolRowsById(db: Db, ids: readonly number[]): Map<number, SymbolRow> {
  const rows = prepared(db, `${SELECT} WHERE n.id IN (SELECT value FROM json_each(?))`).all(
    JSON.stringify(ids),
  ) as SymbolRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Which of these nodes are static members (a class's own methods, where the language has them). */
export function staticIds(db: Db, ids: readonly number[]): Set<number> {
  const rows = prepared(db, "SELECT id FROM nodes WHERE is_static = 1 AND id IN (SELECT value FROM json_each(?))").all(
    JSON.stringify(ids),
  ) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

/** The node with this stable id (any kind), as a list: empty or one. */
export function symbolRowsByUid(db: Db, uid: string): SymbolRow[] {
  return prepared(db, `${SELECT} WHERE n.uid = ?`).all(uid) as SymbolRow[];
}

/**
 * Declarations with exactly this qualified name, by path and line. A qualified name is its node's name,
 * or ends with `.` and the name (the extraction builder makes them so), so the name is one of the
 * text's dotted suffixes (`filter` for `QuerySet.filter`, `[Symbol.iterator]` too for
 * `Color.[Symbol.iterator]`): looking those up by the name index spares a scan of every node, which
 * cost 0.33 ms a call on Django (half of a `node` tool call) and grows with the project.
 */
export function declarationsByQualifiedName(db: Db, qualifiedName: string): SymbolRow[] {
  const names: string[] = [];
  for (let dot = qualifiedName.indexOf("."); dot >= 0; dot = qualifiedName.indexOf(".", dot + 1))
    names.push(qualifiedName.slice(dot + 1));
  names.push(qualifiedName);
  return prepared(
    db,
    `${SELECT} WHERE n.name IN (SELECT value FROM json_each(?)) AND n.qualified_name = ? AND ${DECLARATION}
     ORDER BY f.path, n.start_line`,
  ).all(JSON.stringify(names), qualifiedName) as SymbolRow[];
}

/** The node of the indexed file at this project-relative path (kind `file`), if there is one. */
export function fileNode(db: Db, path: string): SymbolRow | undefined {
  return prepared(db, `${SELECT} WHERE f.path = ? AND n.kind = 'file'`).get(path) as SymbolRow | undefined;
}

/** Declarations with exactly this name, by path and line. */
export function declarationsByName(db: Db, name: string): SymbolRow[] {
  return prepared(db, `${SELECT} WHERE n.name = ? AND ${DECLARATION} ORDER BY f.path, n.start_line`).all(
    name,
  ) as SymbolRow[];
}

/**
 * JavaScript's top-level functions named `name` in files with a top-level variable `holder`: what
 * `res.send` means for Express's `res.send = function send ..`, a function of the module's object.
 * Also one the file exports as `name` under another (`res.set = res.header = function header ..`).
 */
export function declarationsHeldBy(db: Db, holder: string, name: string): SymbolRow[] {
  // Two reads, each through an index (the name's; the holder's, then its file's imports): one read
  // with an OR of both scanned every node.
  const named = prepared(
    db,
    `${SELECT} WHERE n.name = @name AND n.parent_id = f.node_id AND n.kind = 'function'
       AND f.language IN ('javascript', 'typescript', 'tsx')
       AND EXISTS (SELECT 1 FROM nodes h WHERE h.name = @holder AND h.file_id = n.file_id AND h.parent_id = f.node_id
                   AND h.kind IN ('variable', 'constant'))`,
  ).all({ name, holder }) as SymbolRow[];
  const aliased = prepared(
    db,
    `SELECT ${COLUMNS} FROM nodes h CROSS JOIN files f CROSS JOIN imports i CROSS JOIN nodes n
     WHERE h.name = @holder AND h.kind IN ('variable', 'constant') AND f.id = h.file_id AND h.parent_id = f.node_id
       AND f.language IN ('javascript', 'typescript', 'tsx')
       AND i.file_id = f.id AND i.local = @name AND i.reexport = 1 AND i.specifier = '' AND i.imported <> @name
       AND n.parent_id = f.node_id AND n.name = i.imported AND n.kind = 'function'`,
  ).all({ name, holder }) as SymbolRow[];
  const byId = new Map([...named, ...aliased].map((r) => [r.id, r]));
  return [...byId.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.startLine - b.startLine));
}

/**
 * What the types with these ids extend or implement (Ruby: include and extend), in the order their
 * declarations name them (a target named twice comes twice), then the interfaces a Go type
 * implements without naming them (no reference): a member is looked for in what it embeds first.
 */
export function basesOf(db: Db, typeIds: readonly number[]): SymbolRow[] {
  return prepared(
    db,
    `SELECT ${COLUMNS} FROM edges e JOIN nodes n ON n.id = e.target_id JOIN files f ON f.id = n.file_id
     WHERE e.source_id IN (SELECT value FROM json_each(?)) AND e.kind IN ('extends', 'implements')
     ORDER BY e.ref_id IS NULL, e.ref_id, e.id`,
  ).all(JSON.stringify(typeIds)) as SymbolRow[];
}

/** Where a declaration is: enough to name it in a hint. */
export type DeclarationPlace = Pick<SymbolRow, "qualifiedName" | "kind" | "file" | "startLine">;

/**
 * Declarations named `name` under another qualified name (`Server.Serve` beside a function `Serve`):
 * how many (counting no further than `max`), and the first `shown` by path and line.
 */
export function otherDeclarationsNamed(
  db: Db,
  name: string,
  max: number,
  shown: number,
): { count: number; first: DeclarationPlace[] } {
  const where = `WHERE n.name = @name AND n.qualified_name <> @name AND ${DECLARATION}`;
  const count = prepared(db, `SELECT count(*) FROM (SELECT 1 FROM nodes n ${where} LIMIT ${sqlLimit(max)})`)
    .pluck()
    .get({ name }) as number;
  const first = count
    ? (prepared(
        db,
        `SELECT n.qualified_name AS qualifiedName, n.kind, f.path AS file, n.start_line AS startLine
         FROM nodes n JOIN files f ON f.id = n.file_id ${where} ORDER BY f.path, n.start_line LIMIT ${sqlLimit(shown)}`,
      ).all({ name }) as DeclarationPlace[])
    : [];
  return { count, first };
}

/** Declarations of a file starting within lines `start`..`end`, in line order. */
export function declarationsStartingIn(db: Db, path: string, start: number, end: number): SymbolRow[] {
  return prepared(
    db,
    `${SELECT} WHERE f.path = ? AND ${DECLARATION} AND n.start_line BETWEEN ? AND ? ORDER BY n.start_line`,
  ).all(path, start, end) as SymbolRow[];
}

/** Up to `limit` distinct qualified names of declarations whose name contains `fragment`. */
export function qualifiedNamesContaining(db: Db, fragment: string, limit: number): string[] {
  const like = `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return (
    prepared(
      db,
      `SELECT DISTINCT qualified_name AS q FROM nodes n WHERE name LIKE ${unplanned("?")} ESCAPE '\\' AND ${DECLARATION} LIMIT ${sqlLimit(limit)}`,
    ).all(like) as { q: string }[]
  ).map((r) => r.q);
}
