import { impactOf, withDescendants } from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { findDefinitions, groupDefinitions, symbolById, type SymbolHit } from "./symbols.js";

export interface ImpactHit {
  symbol: SymbolHit;
  depth: number;
  kind: string;
  via: string;
}

/** The blast radius of one definition (its overloads together). */
export interface ImpactSection {
  roots: SymbolHit[];
  hits: ImpactHit[];
  truncated: boolean;
}

export interface ImpactResult {
  query: string;
  depth: number;
  /** One per (file, qualified name): two unrelated `handle` functions get two blast radii. */
  sections: ImpactSection[];
  /** A `file` filter that matched no definition (all are shown instead). */
  unmatchedFile: string | null;
}

/** The transitive set of what depends on a symbol: change it, and these may need to change too. */
export function impact(
  db: Db,
  text: string,
  options: { depth?: number; file?: string; limit?: number } = {},
): ImpactResult {
  const depth = Math.max(1, Math.min(options.depth ?? 3, 10));
  const limit = Math.max(1, Math.min(options.limit ?? 200, 5000));
  const { defs, unmatchedFile } = findDefinitions(db, text, options.file);
  const sections = groupDefinitions(defs).map((roots): ImpactSection => {
    // A class's blast radius includes what depends on its members.
    const start = [...new Set(roots.flatMap((r) => withDescendants(db, r.id)))];
    const { hits, truncated } = impactOf(db, start, depth, limit);
    const out: ImpactHit[] = [];
    for (const h of hits) {
      const symbol = symbolById(db, h.nodeId);
      const via = symbolById(db, h.via);
      if (symbol) out.push({ symbol, depth: h.depth, kind: h.kind, via: via?.qualifiedName ?? "" });
    }
    return { roots, hits: out, truncated };
  });
  return { query: text, depth, sections, unmatchedFile };
}
