import type { Db } from "../store/database.js";
import { pathsInFolder } from "../store/file-lookup.js";
import { pathsEndingWith } from "../store/path-suffixes.js";
import { declarationsByName, qualifiedNamesContaining } from "../store/symbol-reader.js";
import { editDistance, typoMatches } from "./search-typo.js";
import { dottedSpelling } from "./symbol-spelling.js";
import { findSymbols, MAX_SYMBOL_CHARS } from "./symbols.js";

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
 * contain it (three characters or more); for a module path that names no file of the symbol
 * (`foo.QuerySet.filter`), the symbol's qualified name.
 */
export function symbolSuggestions(db: Db, written: string): string[] {
  if (written.length > MAX_SYMBOL_CHARS) return [];
  const text = dottedSpelling(written) || written;
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
  // `foo.QuerySet.filter`: a module path that names no file of QuerySet.filter (a member, when
  // one fits, not a function that only shares the last name).
  const ending = declarationsByName(db, name)
    .map((r) => r.qualifiedName)
    .filter((q) => text.endsWith(`.${q}`))
    .sort((a, b) => b.length - a.length);
  for (const q of ending) if (out.size < MAX_SUGGESTIONS && (q.includes(".") || !ending[0]!.includes("."))) out.add(q);
  if (out.size) return [...out];
  const qualifier = text.slice(0, dot);
  const outer = qualifier.lastIndexOf(".");
  const owner = qualifier.slice(outer + 1);
  const owners = [owner, ...near(db, owner).slice(0, 10)];
  const names = [name, ...near(db, name).slice(0, 10)];
  for (const o of owners)
    for (const n of names) if (o !== owner || n !== name) offer(`${qualifier.slice(0, outer + 1)}${o}.${n}`);
  return [...out];
}

/**
 * What a file path that names no indexed file may have meant: files of that name elsewhere
 * (`query.py` → `django/db/models/query.py`), else files of its folder whose names are a typo or two
 * away (`util/HashMop.java` → `util/HashMap.java`).
 */
export function fileSuggestions(db: Db, path: string): string[] {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const base = path.slice(slash + 1);
  if (!base) return [];
  const named = pathsEndingWith(db, base, MAX_SUGGESTIONS);
  if (named.length || slash < 0) return named;
  const lower = base.toLowerCase();
  return pathsInFolder(db, path.slice(0, slash).replace(/\\/g, "/"))
    .map((p) => ({ p, d: editDistance(lower, p.slice(slash + 1).toLowerCase(), 2) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.p);
}
