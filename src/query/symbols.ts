import type { Db } from "../store/database.js";
import type { SymbolRow } from "../store/symbol-row.js";
import { prepared } from "../store/statements.js";

/** A node with where it lives: the shape every query returns for a symbol (the stored row, `exported` as a boolean). */
export type SymbolHit = Omit<SymbolRow, "exported"> & { exported: boolean };

export const SYMBOL_SELECT = `SELECT n.id, n.uid, n.name, n.qualified_name AS qualifiedName, n.kind, f.path AS file,
  n.start_line AS startLine, n.end_line AS endLine, n.signature, n.docstring, n.exported
  FROM nodes n JOIN files f ON f.id = n.file_id`;

type Row = SymbolRow;
export const toHit = (r: Row): SymbolHit => ({ ...r, exported: r.exported === 1 });

export function symbolById(db: Db, id: number): SymbolHit | undefined {
  const row = prepared(db, `${SYMBOL_SELECT} WHERE n.id = ?`).get(id) as Row | undefined;
  return row ? toHit(row) : undefined;
}

/**
 * The declarations a user means by `text`: a stable id, an exact qualified name (`Class.method`), or a
 * name; optionally narrowed to files whose path ends with `file`. Imports are never a definition.
 */
export function findSymbols(db: Db, text: string, file?: string): SymbolHit[] {
  const byUid = prepared(db, `${SYMBOL_SELECT} WHERE n.uid = ?`).all(text) as Row[];
  let rows = byUid;
  if (!rows.length) {
    rows = prepared(
      db,
      `${SYMBOL_SELECT} WHERE n.qualified_name = ? AND n.kind NOT IN ('import', 'file') ORDER BY f.path, n.start_line`,
    ).all(text) as Row[];
  }
  if (!rows.length) {
    const dot = text.lastIndexOf(".");
    const name = dot >= 0 ? text.slice(dot + 1) : text;
    rows = (
      prepared(
        db,
        `${SYMBOL_SELECT} WHERE n.name = ? AND n.kind NOT IN ('import', 'file') ORDER BY f.path, n.start_line`,
      ).all(name) as Row[]
    ).filter((r) => dot < 0 || r.qualifiedName.endsWith(text));
  }
  if (file) {
    const f = file.replace(/^\.\//, "");
    rows = rows.filter((r) => r.file === f || r.file.endsWith(`/${f}`));
  }
  return rows.map(toHit);
}

/** Definitions for a query, and whether a `file` filter matched none of them (then all are returned). */
export interface Definitions {
  defs: SymbolHit[];
  /** The filter that matched nothing, so the answer can say it fell back to every definition. */
  unmatchedFile: string | null;
}

/**
 * Like findSymbols, but a `file` filter that matches no definition falls back to all of them and
 * says so: an empty answer there would wrongly read as "nobody calls it".
 */
export function findDefinitions(db: Db, text: string, file?: string): Definitions {
  if (!file) return { defs: findSymbols(db, text), unmatchedFile: null };
  const narrowed = findSymbols(db, text, file);
  if (narrowed.length) return { defs: narrowed, unmatchedFile: null };
  const all = findSymbols(db, text);
  return { defs: all, unmatchedFile: all.length ? file : null };
}

/**
 * Definitions grouped by (file, qualified name): overloads of one definition stay together, while
 * two files that each define `handle` stay apart.
 */
export function groupDefinitions(defs: readonly SymbolHit[]): SymbolHit[][] {
  const groups = new Map<string, SymbolHit[]>();
  for (const d of defs) {
    const key = `${d.file}\0${d.qualifiedName}`;
    const g = groups.get(key);
    if (g) g.push(d);
    else groups.set(key, [d]);
  }
  return [...groups.values()];
}
