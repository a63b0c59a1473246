import type { Db } from "../store/database.js";

/** A node with where it lives: the shape every query returns for a symbol. */
export interface SymbolHit {
  id: number;
  uid: string;
  name: string;
  qualifiedName: string;
  kind: string;
  file: string;
  startLine: number;
  endLine: number;
  signature: string | null;
  docstring: string | null;
  exported: boolean;
}

export const SYMBOL_SELECT = `SELECT n.id, n.uid, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file,
  n.start_line AS startLine, n.end_line AS endLine, n.signature, n.docstring, n.exported
  FROM nodes n JOIN files f ON f.id = n.file_id`;

type Row = Omit<SymbolHit, "exported"> & { exported: number };
export const toHit = (r: Row): SymbolHit => ({ ...r, exported: r.exported === 1 });

export function symbolById(db: Db, id: number): SymbolHit | undefined {
  const row = db.prepare(`${SYMBOL_SELECT} WHERE n.id = ?`).get(id) as Row | undefined;
  return row ? toHit(row) : undefined;
}

/**
 * The declarations a user means by `text`: a stable id, an exact qualified name (`Class.method`), or a
 * name; optionally narrowed to files whose path ends with `file`. Imports are never a definition.
 */
export function findSymbols(db: Db, text: string, file?: string): SymbolHit[] {
  const byUid = db.prepare(`${SYMBOL_SELECT} WHERE n.uid = ?`).all(text) as Row[];
  let rows = byUid;
  if (!rows.length) {
    rows = db
      .prepare(
        `${SYMBOL_SELECT} WHERE n.qualified_name = ? AND n.kind NOT IN ('import', 'file') ORDER BY f.path, n.start_line`,
      )
      .all(text) as Row[];
  }
  if (!rows.length) {
    const dot = text.lastIndexOf(".");
    const name = dot >= 0 ? text.slice(dot + 1) : text;
    rows = (
      db
        .prepare(`${SYMBOL_SELECT} WHERE n.name = ? AND n.kind NOT IN ('import', 'file') ORDER BY f.path, n.start_line`)
        .all(name) as Row[]
    ).filter((r) => dot < 0 || r.qualifiedName.endsWith(text));
  }
  if (file) {
    const f = file.replace(/^\.\//, "");
    rows = rows.filter((r) => r.file === f || r.file.endsWith(`/${f}`));
  }
  return rows.map(toHit);
}
