import { partlyParsedMentions, type PartlyParsed } from "./partly-parsed.js";
import { impactOf, withMembers } from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { fileNode } from "../store/symbol-reader.js";
import { resolveIndexedFile } from "./locate-file.js";
import { symbolSuggestions } from "./suggest.js";
import {
  capDefinitions,
  findDefinitions,
  groupDefinitions,
  symbolsById,
  toHit,
  type AlsoNamed,
  type SymbolHit,
} from "./symbols.js";

export interface ImpactHit {
  symbol: SymbolHit;
  depth: number;
  kind: string;
  via: string;
  /**
   * The method `via` overrides or implements, when the hit uses that one and so may run `via` through
   * dynamic dispatch (see impactOf).
   */
  through?: string;
}

/** The blast radius of one definition (its overloads together). */
export interface ImpactSection {
  roots: SymbolHit[];
  hits: ImpactHit[];
  truncated: boolean;
  /** Dependents within the depth, shown or not; at least this many when `totalAtLeast`. */
  total: number;
  totalAtLeast: boolean;
  /** The most hits this section could show: the limit, or its share of it beside other definitions. */
  limit: number;
}

export interface ImpactResult {
  query: string;
  depth: number;
  /** The limit asked for (or the default), which the sections shown share. */
  limit: number;
  /**
   * One per (file, qualified name): two unrelated `handle` functions get two blast radii. When more
   * than DEFINITIONS_SHOWN share the name, those with the most direct dependents.
   */
  sections: ImpactSection[];
  /** The next definitions by direct dependents, when more share the name than are shown. */
  others: { roots: SymbolHit[]; direct: number }[];
  /** Definitions neither shown nor listed. */
  omitted: number;
  /** When no symbol has the name: names it may have meant (a typo away, or containing it). */
  suggestions: string[];
  /** With no definition: files that parsed only in part and mention the name (see partlyParsedMentions). */
  partlyParsed: PartlyParsed[];
  /** Members of the name left out because top-level declarations matched it exactly. */
  alsoNamed: AlsoNamed | null;
  /** A `file` filter that matched no definition (all are shown instead). */
  unmatchedFile: string | null;
}

/** The largest limit impact takes. */
export const MAX_IMPACT_LIMIT = 5000;

/**
 * The transitive set of what depends on a symbol: change it, and these may need to change too. One
 * blast radius per definition of the name (capDefinitions), `limit` hits in all. With the project's
 * `root`, a text naming no symbol but an indexed file (`django/shortcuts.py`, as `node` takes it) is
 * that file: what imports it, and what depends on anything it declares.
 */
export function impact(
  db: Db,
  text: string,
  options: { depth?: number; file?: string; limit?: number; root?: string } = {},
): ImpactResult {
  const depth = Math.max(1, Math.min(options.depth ?? 3, 10));
  const limit = Math.max(1, Math.min(options.limit ?? 200, MAX_IMPACT_LIMIT));
  const named = findDefinitions(db, text, options.file);
  const { unmatchedFile, alsoNamed } = named;
  const defs = named.defs.length || !options.root ? named.defs : fileAsDefinition(db, options.root, text);
  const found = groupDefinitions(db, defs).map((roots) => ({
    roots,
    // A class's blast radius includes what depends on its members.
    start: [...new Set(roots.flatMap((r) => withMembers(db, r.id)))],
    direct: -1,
  }));
  // Ranked by what depends on each directly: a blast radius per definition would cost thousands of walks.
  const direct = (f: (typeof found)[number]) =>
    f.direct >= 0 ? f.direct : (f.direct = impactOf(db, f.start, 1, Number.MAX_SAFE_INTEGER).hits.length);
  const { shown, listed, omitted } = capDefinitions(found, direct);
  // The limit bounds the answer: definitions shown side by side share it (at least 20 hits each).
  const each = Math.max(Math.min(limit, 20), Math.floor(limit / Math.max(1, shown.length)));
  const sections = shown.map(({ roots, start }): ImpactSection => {
    const { hits, truncated, total, atLeast } = impactOf(db, start, depth, each);
    const nodes = symbolsById(db, [...roots.map((r) => r.id), ...hits.flatMap((h) => [h.nodeId, h.via])]);
    const overridden = symbolsById(
      db,
      hits.flatMap((h) => (h.through === undefined ? [] : [h.through])),
    );
    // A name two of the section's nodes share (tokio's two Semaphore.acquire) is told apart by place.
    const ids = new Map<string, Set<number>>();
    for (const [id, n] of nodes) ids.set(n.qualifiedName, (ids.get(n.qualifiedName) ?? new Set()).add(id));
    const named = (n: SymbolHit | undefined) =>
      !n ? "" : ids.get(n.qualifiedName)!.size > 1 ? `${n.qualifiedName} (${n.file}:${n.startLine})` : n.qualifiedName;
    const out: ImpactHit[] = [];
    for (const h of hits) {
      const symbol = nodes.get(h.nodeId);
      const through = h.through === undefined ? undefined : overridden.get(h.through)?.qualifiedName;
      if (symbol) {
        out.push({
          symbol,
          depth: h.depth,
          kind: h.kind,
          via: named(nodes.get(h.via)),
          ...(through ? { through } : {}),
        });
      }
    }
    return { roots, hits: out, truncated, total, totalAtLeast: atLeast, limit: each };
  });
  const others = listed.map((f) => ({ roots: f.roots, direct: direct(f) }));
  const suggestions = defs.length ? [] : symbolSuggestions(db, text);
  const partlyParsed = defs.length ? [] : partlyParsedMentions(db, text);
  return { query: text, depth, limit, sections, others, omitted, suggestions, partlyParsed, alsoNamed, unmatchedFile };
}

/** The file node of the indexed file `text` names (a path, absolute or relative, or its unique end), as a definition. */
function fileAsDefinition(db: Db, root: string, text: string): SymbolHit[] {
  const file = resolveIndexedFile(db, root, text);
  if (file.type !== "file" || file.selector) return [];
  const node = fileNode(db, file.path);
  return node ? [toHit(node)] : [];
}
