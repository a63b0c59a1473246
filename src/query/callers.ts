import { CALL_KINDS, USE_KINDS, incoming, outgoing, withDescendants } from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { findSymbols, symbolById, type SymbolHit } from "./symbols.js";

export interface RelationRow {
  symbol: SymbolHit;
  kind: string;
  line: number | null;
  resolution: string;
}

/** One definition the user may have meant, with its relations. Same-named symbols in two files are two groups. */
export interface RelationGroup {
  definition: SymbolHit;
  rows: RelationRow[];
  total: number;
}

export interface RelationResult {
  query: string;
  direction: "callers" | "callees";
  groups: RelationGroup[];
  /** Rows shown and rows found, over all groups: "Showing N of M" when they differ. */
  shown: number;
  total: number;
}

export interface RelationOptions {
  file?: string;
  limit?: number;
  /** Only calls and instantiations (default), or every use. */
  allUses?: boolean;
}

/**
 * Who calls a symbol (direction "callers") or what it calls ("callees"). For a class, its members'
 * callers count as the class's. Rows are grouped per definition by (file, qualified name).
 */
export function relations(
  db: Db,
  text: string,
  direction: "callers" | "callees",
  options: RelationOptions = {},
): RelationResult {
  const limit = Math.max(1, Math.min(options.limit ?? 50, 1000));
  const kinds = options.allUses ? USE_KINDS : CALL_KINDS;
  const defs = findSymbols(db, text, options.file);
  const groups: RelationGroup[] = [];
  let shown = 0;
  let total = 0;
  for (const def of defs) {
    const ids = direction === "callers" ? withDescendants(db, def.id) : [def.id];
    const seen = new Set<string>();
    const rows: RelationRow[] = [];
    for (const id of ids) {
      const edges = direction === "callers" ? incoming(db, id, kinds) : outgoing(db, id, kinds);
      for (const e of edges) {
        if (ids.includes(e.nodeId) && direction === "callers") continue; // a class calling itself
        const key = `${e.nodeId}:${e.line}:${e.kind}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const symbol = symbolById(db, e.nodeId);
        if (symbol) rows.push({ symbol, kind: e.kind, line: e.line, resolution: e.resolution });
      }
    }
    total += rows.length;
    const room = Math.max(0, limit - shown);
    const visible = rows.slice(0, room);
    shown += visible.length;
    groups.push({ definition: def, rows: visible, total: rows.length });
  }
  return { query: text, direction, groups, shown, total };
}
