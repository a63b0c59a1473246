import { impactOf } from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { findSymbols, symbolById, type SymbolHit } from "./symbols.js";

export interface ImpactResult {
  query: string;
  roots: SymbolHit[];
  depth: number;
  hits: { symbol: SymbolHit; depth: number; kind: string; via: string }[];
  truncated: boolean;
}

/** The transitive set of what depends on a symbol: change it, and these may need to change too. */
export function impact(
  db: Db,
  text: string,
  options: { depth?: number; file?: string; limit?: number } = {},
): ImpactResult {
  const depth = Math.max(1, Math.min(options.depth ?? 3, 10));
  const roots = findSymbols(db, text, options.file);
  const { hits, truncated } = impactOf(
    db,
    roots.map((r) => r.id),
    depth,
    Math.max(1, Math.min(options.limit ?? 200, 5000)),
  );
  const out: ImpactResult["hits"] = [];
  for (const h of hits) {
    const symbol = symbolById(db, h.nodeId);
    const via = symbolById(db, h.via);
    if (symbol) out.push({ symbol, depth: h.depth, kind: h.kind, via: via?.qualifiedName ?? "" });
  }
  return { query: text, roots, depth, hits: out, truncated };
}
