import type { Db } from "../store/database.js";
import { qualifiedNamesContaining } from "../store/symbol-reader.js";
import { editDistance, typoMatches } from "./search-typo.js";
import { findSymbols } from "./symbols.js";

const MAX_SUGGESTIONS = 5;

/** Names a typo or two from `name`, nearest as written first (`get_queryset` before `_get_queryset`). */
function near(db: Db, name: string): string[] {
  const lower = name.toLowerCase();
  return typoMatches(db, name, 20)
    .map((m) => ({ name: m.name, typo: m.distance, written: editDistance(lower, m.name.toLowerCase(), 8) }))
    .sort((a, b) => a.typo - b.typo || a.written - b.written)
    .map((m) => m.name);
}

/**
 * What a symbol that names nothing may have meant, so a typo costs no second call: names a typo or
 * two away (`get_querset` → get_queryset), in a qualified name either part (`QuerySet.filtr`,
 * `Querset.filter` → QuerySet.filter, when it exists); for a bare name, then, qualified names that
 * contain it (three characters or more).
 */
export function symbolSuggestions(db: Db, text: string): string[] {
  const dot = text.lastIndexOf(".");
  const name = text.slice(dot + 1);
  const out = new Set<string>();
  const offer = (candidate: string) => {
    if (out.size < MAX_SUGGESTIONS && findSymbols(db, candidate).length) out.add(candidate);
  };
  if (dot <= 0) {
    for (const n of near(db, name)) offer(n);
    if (name.length >= 3)
      for (const q of qualifiedNamesContaining(db, name, MAX_SUGGESTIONS)) if (out.size < MAX_SUGGESTIONS) out.add(q);
    return [...out];
  }
  const qualifier = text.slice(0, dot);
  const outer = qualifier.lastIndexOf(".");
  const owner = qualifier.slice(outer + 1);
  const owners = [owner, ...near(db, owner).slice(0, 10)];
  const names = [name, ...near(db, name).slice(0, 10)];
  for (const o of owners)
    for (const n of names) if (o !== owner || n !== name) offer(`${qualifier.slice(0, outer + 1)}${o}.${n}`);
  return [...out];
}
