import { loadConfigCached } from "../config/config.js";
import { isTestPath } from "../core/test-paths.js";
import { rootOfIndex } from "../config/paths.js";
import type { Db } from "../store/database.js";
import { indexedLanguages } from "../store/file-lookup.js";
import {
  countFullText,
  countNamePrefix,
  searchByName,
  searchByNamePrefix,
  searchByNames,
  searchByQualifiedName,
  searchDetails,
  searchFiltered,
  searchFullText,
  type SearchFilters,
  type SearchRow,
} from "../store/search-reader.js";
import { parseQuery, type ParsedQuery } from "./search-query.js";
import { deprioritized, isGeneratedPath } from "./search-paths.js";
import { ADJUST, TIER, kindBonus, matchTier, partialRuns } from "./search-rank.js";
import { typoMatches } from "./search-typo.js";
import { dottedSpelling } from "./symbol-spelling.js";
import { findSymbols, type SymbolHit } from "./symbols.js";

export interface SearchOptions {
  /** Only this kind (a comma list and the aliases of `kind:` work too); joins any `kind:` in the query. */
  kind?: string;
  limit?: number;
  /** The project root, for `[ranking] deprioritize`; by default the folder holding the index's `.codegraph/`. */
  root?: string;
}

export interface SearchResult {
  query: string;
  hits: (SymbolHit & { score: number })[];
  /**
   * When nothing matched and a language filter names languages no indexed file has (`lang:rust` in a
   * Python project, `lang:pyhton`): those, and the languages there are. Absent otherwise.
   */
  languagesNotIndexed?: { asked: string[]; indexed: string[] };
  /** Why the project's config does not load, when it does not: ranking then used the last rules that did. */
  configError?: string;
  /**
   * When a kind filter left nothing: the kinds asked for, and the best hits of any kind (Rust's
   * `Runtime` is a struct, for `kind:class`). Absent otherwise.
   */
  otherKinds?: { asked: string[]; hits: SearchResult["hits"] };
}

/** Hits of other kinds offered when a kind filter leaves none. */
const OTHER_KINDS_SHOWN = 5;

const ifSet = (configError: string | null) => (configError ? { configError } : {});

/** A row found by some pass, with what that pass knew about it. */
interface Candidate {
  row: SearchRow;
  /** How its name matches the query (search-rank.ts), and how many query words only its path holds. */
  tier: number;
  pathHits: number;
  /** bm25 relative to the best row of its full-text pass, scaled by the pass's weight (0 when not from FTS5). */
  fts: number;
  /** Edit distance when found by the typo pass. */
  typo: number | null;
}

/** The project root of an index opened at `<root>/.codegraph/graph.db`, or null for any other file. */
const rootOf = (db: Db): string | null => rootOfIndex(db.name);

/**
 * The `deprioritize` test for this request (the config is re-read when its file changed since the last
 * one), and why the config on disk does not load, when it does not: the last rules that did stand.
 */
function deprioritizer(db: Db, root: string | undefined): { test: (path: string) => boolean; error: string | null } {
  const r = root ?? rootOf(db);
  if (!r) return { test: () => false, error: null };
  const { config, error } = loadConfigCached(r);
  return { test: deprioritized(config.ranking.deprioritize), error };
}

/**
 * Names starting with a word beyond which it is searched as a whole word, not a prefix. FTS5 merges
 * the postings of every token a prefix expands to before it can return a row, and names are single
 * tokens there: `get`* expands to tens of thousands of getters in the JDK (11 ms before any ranking).
 * Such a prefix still reaches names through the name index (searchByNamePrefix).
 */
const BROAD_PREFIX = 1000;

/** FTS5 terms for words: quoted, and a prefix when the word has three letters or more and is not broad. */
function termMaker(db: Db): (w: string) => string {
  const prefix = new Map<string, boolean>();
  return (w) => {
    let p = prefix.get(w);
    if (p === undefined) prefix.set(w, (p = w.length > 2 && countNamePrefix(db, w, BROAD_PREFIX + 1) <= BROAD_PREFIX));
    return p ? `"${w}"*` : `"${w}"`;
  };
}

const hasFilters = (f: SearchFilters) => Boolean(f.kinds || f.languages || f.pathLike || f.pathGlob);

/** Strip what surrounds a name in prose: quotes, brackets, call parentheses, trailing punctuation. */
const bare = (token: string) => token.replace(/^[^\p{L}\p{N}_$]+|[^\p{L}\p{N}_$]+$/gu, "");

/** At most this many declarations a qualified token names are taken as exact matches. */
const QUALIFIED_DEFINITIONS = 20;

/** Rows an FTS5 pass may rank; a broader expression is narrowed to name columns, then dropped. */
const MAX_RANKED = 2000;

/** Every candidate the query's passes find, by node id. */
function gather(db: Db, q: ParsedQuery, limit: number): Map<number, Candidate> {
  const found = new Map<number, Candidate>();
  // Declarations the query names exactly as a qualified name: they rank as an exact name does.
  const named = new Set<number>();
  const put = (rows: SearchRow[], weight: number) => {
    const best = rows.reduce((m, r) => Math.min(m, r.rank), 0);
    for (const row of rows) {
      const fts = best < 0 && row.rank < 0 ? (weight * row.rank) / best : 0;
      const old = found.get(row.id);
      if (old) {
        old.fts = Math.max(old.fts, fts);
        if (named.has(row.id) && old.tier < TIER.exact) old.tier = TIER.exact;
      } else {
        const matched = matchTier(row.name, row.qualifiedName, row.file, q);
        const tier = named.has(row.id) ? TIER.exact : matched.tier;
        found.set(row.id, { row, tier, pathHits: matched.pathHits, fts, typo: null });
        if (tier >= TIER.sameWords) strong++;
      }
    }
    return rows.length;
  };
  /**
   * Rank an expression's matches, or its matches in name columns when it matches too much; else skip
   * it and say so with Infinity (there was plenty, none of it worth a millisecond a thousand rows).
   * `fits` says whether the expression matches few enough rows to rank, when that is already known.
   * An expression found to match nothing is not ranked: bm25's set-up reads every phrase's matches
   * again, a few hundred microseconds for the prose of an explore question.
   */
  const ranked = (
    expr: string,
    cap: number,
    weight: number,
    narrowed = `{name words qualified_name} : (${expr})`,
    fits?: boolean,
  ) => {
    for (const match of [expr, narrowed]) {
      const count = match === expr && fits !== undefined ? null : countFullText(db, match, MAX_RANKED + 1);
      if (count === 0) return 0;
      if (count === null ? fits : count <= MAX_RANKED) return put(searchFullText(db, match, filters, cap), weight);
    }
    return Infinity;
  };
  let strong = 0;
  const { filters, words, tokens } = q;
  if (!words.length) {
    if (hasFilters(filters)) put(searchFiltered(db, filters, Math.max(limit * 5, 200)), 0);
    return found;
  }

  // Names first, through the name index: the query as a name (and its last part when qualified)...
  const names = tokens.map(bare).filter(Boolean).slice(0, 5);
  let exact = 0;
  for (const t of names) {
    exact += put(searchByName(db, t, filters, names.length > 1 ? 50 : 200), 0);
    const qualified = dottedSpelling(t);
    const last = qualified.split(".").pop();
    if (last && last !== qualified) {
      exact += put(searchByQualifiedName(db, last, qualified, filters, 50), 0);
      put(searchByName(db, last, filters, 50), 0);
    }
  }
  // ...a qualified name as callers and node read it (`tokio::spawn`, `packages.Load`,
  // `Doctrine\ORM\EntityManager::flush`: a module path before the declaration's own qualified name)...
  for (const t of tokens.slice(0, 5)) {
    const written = t.replace(/^[`'"]+|[`'",;:]+$/g, "");
    if (!dottedSpelling(written).includes(".")) continue;
    for (const def of findSymbols(db, written).slice(0, QUALIFIED_DEFINITIONS)) {
      named.add(def.id);
      const rows = searchByQualifiedName(db, def.name, def.qualifiedName, filters, 50).filter((r) => r.id === def.id);
      exact += put(rows, 0);
    }
  }
  // ...prose as a name (`place order` → place_order, placeOrder)...
  if (names.length > 1) {
    exact += put(searchByName(db, words.join("_"), filters, 200), 0);
    exact += put(searchByName(db, words.join(""), filters, 200), 0);
  }
  // ...and, of three words or more, all but the first or the last (`read full buffer` → ReadFull).
  if (names.length > 1 && words.length > 2) {
    for (const part of partialRuns(words)) {
      put(searchByName(db, part.join("_"), filters, 50), 0);
      put(searchByName(db, part.join(""), filters, 50), 0);
    }
  }
  // ...and the names it begins (`QuerySe` → QuerySet).
  if (names.length === 1 && q.key.length >= 2 && exact < limit) put(searchByNamePrefix(db, names[0]!, filters, 100), 0);
  // A page of names that are the query (exactly, or word for word): the full-text passes find
  // names that only contain it, which rank below, and cost the most on just such common names.
  if (strong >= limit) return found;

  const cap = Math.max(100, limit * 5);
  const term = termMaker(db);
  // Every word, as a prefix, anywhere (a query of only short words looks in names alone: `a`, `id`).
  const terms = words.map(term).join(" ");
  const every = words.some((w) => w.length > 2) ? terms : `{name words} : (${terms})`;
  const everyCount = countFullText(db, every, MAX_RANKED + 1);
  const everyFits = everyCount <= MAX_RANKED;
  // Prose: the words as consecutive segments of a name (`place order` → PlaceOrderHandler). These
  // are among every word's matches: when those are few enough to rank, so are these, and when there
  // are none, there are none of these either.
  if (words.length > 1 && everyCount > 0) {
    const phrase = `{words} : "${words.join(" ")}"`;
    const prefixed = term(words[words.length - 1]!).endsWith("*") ? `${phrase} *` : phrase;
    ranked(prefixed, cap, 1, phrase, everyFits || undefined);
  }
  const all = everyCount === 0 ? 0 : ranked(every, cap, 1, undefined, everyFits);
  // Any word will do when all of them found too little: for path words (`db filter`), and for a
  // name whose other words are misspelt. Short words (`to`, `or`) and prose columns are left out.
  if (words.length > 1 && all < limit && (tokens.length > 1 || !all)) {
    const long = words.filter((w) => w.length > 2);
    const any = (long.length ? long : words).map(term).join(" OR ");
    ranked(`{name words qualified_name} : (${any})`, 300, 0.6, `{name words} : (${any})`);
  }
  return found;
}

/**
 * Most words in a query that may be a misspelt name (`plcae order handler`). Longer text is prose, a
 * pasted message or explore's bag of terms and stems, which no name is within two edits of, and the
 * lookup reads every distinct name of the index when a connection first makes it: 0.3 s of the
 * prompt hook's 0.7 s on each prompt on the JDK (138,000 names).
 */
const MAX_TYPO_TOKENS = 4;

/** Paths' test and generated-output adjustments, kept across searches: candidates come from a project's files. */
const pathAdjustments = new Map<string, number>();
const MAX_REMEMBERED_PATHS = 50_000;

function pathAdjustment(file: string): number {
  let a = pathAdjustments.get(file);
  if (a === undefined) {
    if (pathAdjustments.size >= MAX_REMEMBERED_PATHS) pathAdjustments.clear();
    a = (isTestPath(file) ? ADJUST.test : 0) + (isGeneratedPath(file) ? ADJUST.generated : 0);
    pathAdjustments.set(file, a);
  }
  return a;
}

/**
 * Symbols matching free text, best first. The query may carry field filters (`kind:method lang:python
 * path:django/db filter`). Candidates come from exact (case-insensitive) name lookups, FTS5 with prefix
 * terms (bm25 weighting name ≫ name segments > qualified name > signature > docstring), a phrase
 * query over name segments for prose (`place order` → `place_order`, `PlaceOrderHandler`), and, when
 * nothing matched a name, names within an edit distance of 1–2 (`plcae_order`). Scores are
 * described in search-rank.ts: a name tier, then kind, path-word, export, test, generated and
 * `deprioritize` adjustments. Order: score, then path, then line.
 */
export function searchSymbols(db: Db, query: string, options: SearchOptions = {}): SearchResult {
  const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
  const q = parseQuery(query, options.kind);
  const found = gather(db, q, limit);
  const { test: isDeprioritized, error: configError } = deprioritizer(db, options.root);

  const score = (c: Candidate): { tier: number; score: number } => {
    const r = c.row;
    const pathHits = c.pathHits;
    let tier = c.tier;
    if (c.typo !== null) tier = Math.max(tier, c.typo <= 1 ? TIER.typo1 : TIER.typo2);
    let s = tier > 0 ? tier + ADJUST.ftsInTier * c.fts : q.words.length ? TIER.ftsBase + TIER.ftsSpan * c.fts : 0;
    s += kindBonus(r.kind) + ADJUST.pathWord * pathHits + (r.exported ? ADJUST.exported : 0);
    s += pathAdjustment(r.file);
    if (isDeprioritized(r.file)) s += ADJUST.deprioritized;
    return { tier, score: Math.round(s * 100) / 100 };
  };

  let scored = [...found.values()].map((c) => ({ c, ...score(c) }));
  if (q.words.length && q.tokens.length <= MAX_TYPO_TOKENS && !scored.some((s) => s.tier > TIER.partialWords)) {
    // Nothing matched a name (but in part): try names a typo or two away.
    const near = typoMatches(db, q.text);
    if (near.length) {
      const distance = new Map(near.map((m) => [m.name, m.distance]));
      const rows = searchByNames(db, [...distance.keys()], q.filters, 200);
      for (const row of rows) {
        const old = found.get(row.id);
        const c = old ?? { row, ...matchTier(row.name, row.qualifiedName, row.file, q), fts: 0, typo: null };
        c.typo = distance.get(row.name) ?? null;
        if (!old) found.set(row.id, c);
      }
      scored = [...found.values()].map((c) => ({ c, ...score(c) }));
    }
  }

  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (a.c.row.file < b.c.row.file ? -1 : a.c.row.file > b.c.row.file ? 1 : 0) ||
      a.c.row.startLine - b.c.row.startLine ||
      a.c.row.id - b.c.row.id,
  );
  const shown = scored.slice(0, limit);
  const details = searchDetails(
    db,
    shown.map((s) => s.c.row.id),
  );
  // A hit whose node a sync removed between the two reads is left out.
  const hits = shown.flatMap(({ c: { row }, score }) => {
    const more = details.get(row.id);
    if (!more) return [];
    return [
      {
        id: row.id,
        uid: more.uid,
        name: row.name,
        qualifiedName: row.qualifiedName,
        kind: row.kind,
        file: row.file,
        startLine: row.startLine,
        endLine: more.endLine,
        signature: more.signature,
        docstring: more.docstring,
        exported: row.exported === 1,
        score,
      },
    ];
  });
  if (!hits.length && q.filters.kinds && q.words.length) {
    // The name may be there as another kind: say so rather than let "no match" read as "no such thing".
    const anyKind = query.replace(/(^|\s)kind:\S*/gi, " ");
    const other = searchSymbols(db, anyKind, { ...options, kind: undefined, limit: OTHER_KINDS_SHOWN });
    // Only names that match it as a name does (exactly, by its words, or as a prefix): a docstring
    // mentioning the word, or a typo correction, is no answer to "is there one of another kind".
    const named = other.hits.filter((h) => h.score >= TIER.segmentPrefixes);
    if (named.length) {
      return { query, hits, otherKinds: { asked: [...q.filters.kinds], hits: named }, ...ifSet(configError) };
    }
  }
  if (!hits.length && q.filters.languages) {
    const indexed = indexedLanguages(db);
    const asked = q.filters.languages.filter((l) => !indexed.includes(l));
    if (asked.length) return { query, hits, languagesNotIndexed: { asked, indexed }, ...ifSet(configError) };
  }
  return { query, hits, ...ifSet(configError) };
}
