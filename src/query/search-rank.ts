import { textWords } from "./search-query.js";

/**
 * Search scores. A hit's score is its name tier (how its name matches the query) plus adjustments
 * (ADJUST, kindBonus) that mostly reorder hits within a tier: the upper tiers are 2–10 apart, the
 * kind bonus at most 6, so a constant that is the query still beats a function that merely contains it,
 * while tests, generated files and `deprioritize`d paths drop a tier or two. Exact names score 100
 * and up; a hit under about 50 matched in no name (only in words, signatures, docstrings or
 * qualified names), matched a name in part, or is a typo correction.
 */
export const TIER = {
  exact: 100,
  exactNoCase: 92,
  /** The query's words are exactly the name's (`place order` → `place_order`, `placeOrder`). */
  sameWords: 90,
  /** `QuerySet.filter` → `django.db.models.QuerySet.filter`. */
  qualifiedSuffix: 88,
  /** `QuerySet filter`: the words end the qualified name. */
  qualifiedWords: 86,
  /** The query's words are whole consecutive segments of the name (`place order` → `PlaceOrderHandler`). */
  segmentRun: 75,
  /** The name starts with the query (`QuerySe` → `QuerySet`). */
  prefix: 65,
  /** Each query word starts a later segment of the name, in order (`pl ord` → `place_new_order`). */
  segmentPrefixes: 55,
  /**
   * All of three or more query words but the first or the last are the name's words, or a run of its
   * segments (`read full buffer` → `ReadFull`, `mustReadFull`): above what full-text search alone
   * gives (40 at most, before adjustments), so a docstring that holds every word does not bury it;
   * under a typo of the whole query.
   */
  partialWords: 46,
  /** A typo correction at edit distance 1, 2. */
  typo1: 48,
  typo2: 40,
  /** Full-text only: ftsBase + ftsSpan × (bm25 relative to the best of its pass, weighted by the pass). */
  ftsBase: 15,
  ftsSpan: 25,
} as const;

/** The highest tier a match that sets path words aside can reach (a little over a segment run). */
const PATH_TIER_CAP = 80;

/** Penalties and bonuses added to the tier. */
export const ADJUST = {
  /** Per query word found in the file's path but not in the name (at most two count). */
  pathWord: 4,
  /**
   * A tier reached only by setting the path words aside ranks this much under the full match, and
   * no higher than PATH_TIER_CAP: `hash map` means HashMap before HashMap.hash (whose path holds `map`).
   */
  pathOnlyTier: -5,
  test: -12,
  generated: -20,
  deprioritized: -15,
  exported: 1,
  /** Tie-break inside a name tier by bm25 relative to the best hit of its pass. */
  ftsInTier: 2,
} as const;

const KIND_BONUS: Record<string, number> = {
  function: 6,
  method: 6,
  // A constructor shares its class's name: the class comes first.
  constructor: 4,
  class: 6,
  interface: 6,
  struct: 6,
  trait: 6,
  enum: 6,
  type_alias: 6,
  module: 3,
  namespace: 3,
  enum_member: 1,
};

/** Callables and types +6 (constructors +4), modules and namespaces +3, enum members +1, variables, properties, constants 0. */
export const kindBonus = (kind: string): number => KIND_BONUS[kind] ?? 0;

/** The query facts tiers are computed from. */
export interface TierQuery {
  /** The free text as typed. */
  text: string;
  words: readonly string[];
  key: string;
}

const indexOfRun = (hay: readonly string[], run: readonly string[]): number => {
  outer: for (let i = 0; i + run.length <= hay.length; i++) {
    for (let j = 0; j < run.length; j++) if (hay[i + j] !== run[j]) continue outer;
    return i;
  }
  return -1;
};

/** Gaps skipped when each word is a prefix of a later segment than the previous one, or -1. */
function prefixesInOrder(segments: readonly string[], words: readonly string[]): number {
  let at = 0;
  let gaps = 0;
  for (const w of words) {
    let j = at;
    while (j < segments.length && !segments[j]!.startsWith(w)) j++;
    if (j === segments.length) return -1;
    gaps += j - at;
    at = j + 1;
  }
  return gaps;
}

/** `QuerySet::filter()`, `QuerySet#filter` → `queryset.filter`: a dotted path to compare qualified names by. */
const dotted = (text: string) =>
  text
    .toLowerCase()
    .replace(/\(\)$/, "")
    .replace(/::|#|->|\//g, ".");

const segmentCache = new Map<string, string[]>();

/** textWords of a name, memoised: the same few thousand names are scored on every search. */
function segmentsOf(name: string): string[] {
  let words = segmentCache.get(name);
  if (!words) {
    if (segmentCache.size > 100_000) segmentCache.clear();
    segmentCache.set(name, (words = textWords(name)));
  }
  return words;
}

/** The best tier a name reaches for a query (0: the name does not match it). */
export function nameTier(name: string, qualifiedName: string, q: TierQuery): number {
  const { text, words, key } = q;
  if (!words.length) return 0;
  if (text === name || text === qualifiedName) return TIER.exact;
  const lowerText = text.toLowerCase();
  if (lowerText === name.toLowerCase()) return TIER.exactNoCase;
  const segments = segmentsOf(name);
  const nameKey = segments.join(""); // the typoKey of the name, without another regex pass
  if (key === nameKey) return TIER.sameWords;
  if (/[.:#>/]/.test(text) && !/\s/.test(text)) {
    const d = dotted(text);
    const qn = qualifiedName.toLowerCase();
    if (qn === d || qn.endsWith(`.${d}`)) return TIER.qualifiedSuffix;
  }
  if (words.length > segments.length) {
    const qualified = segmentsOf(qualifiedName);
    const at = indexOfRun(qualified, words);
    if (at >= 0 && at + words.length === qualified.length) return TIER.qualifiedWords;
  }
  const run = indexOfRun(segments, words);
  if (run >= 0) return TIER.segmentRun + (run === 0 ? 3 : 0) - Math.min(4, segments.length - words.length);
  if (key && nameKey.startsWith(key)) return TIER.prefix - Math.min(4, (nameKey.length - key.length) / 3);
  const gaps = prefixesInOrder(segments, words);
  if (gaps >= 0) return TIER.segmentPrefixes - Math.min(4, gaps);
  return words.length > 2 ? partialTier(segments, nameKey, words) : 0;
}

/** The query's words but the first, and but the last: what a partial match (TIER.partialWords) holds. */
export const partialRuns = (words: readonly string[]): string[][] => [words.slice(1), words.slice(0, -1)];

/** TIER.partialWords for a name holding all but the first or the last query word (see there), else 0. */
function partialTier(segments: readonly string[], nameKey: string, words: readonly string[]): number {
  let best = 0;
  for (const part of partialRuns(words)) {
    if (part.join("") === nameKey) return TIER.partialWords;
    const run = indexOfRun(segments, part);
    if (run >= 0) best = Math.max(best, TIER.partialWords - 1 - Math.min(2, segments.length - part.length));
  }
  return best;
}

const pathWordCache = new Map<string, ReadonlySet<string>>();

/** The words of a file path (`django/db/models/query.py` → django, db, models, query, py), memoised. */
export function pathWords(path: string): ReadonlySet<string> {
  let words = pathWordCache.get(path);
  if (!words) {
    if (pathWordCache.size > 50_000) pathWordCache.clear();
    pathWordCache.set(path, (words = new Set(textWords(path.replace(/\//g, " ")))));
  }
  return words;
}

/**
 * A name's tier for a query, and how many of the query's words only its file path holds. With `db
 * filter`, `QuerySet.filter` in django/db/ is matched on `filter` alone (the tier of that, less
 * ADJUST.pathOnlyTier) and its path holds one word.
 */
export function matchTier(
  name: string,
  qualifiedName: string,
  file: string,
  q: TierQuery,
): { tier: number; pathHits: number } {
  let tier = nameTier(name, qualifiedName, q);
  if (q.words.length < 2) return { tier, pathHits: 0 };
  const inPath = pathWords(file);
  const segments = segmentsOf(name);
  const pathOnly = q.words.filter((w) => !segments.includes(w) && inPath.has(w));
  if (pathOnly.length && pathOnly.length < q.words.length) {
    const rest = q.words.filter((w) => !pathOnly.includes(w));
    const restText = rest.join(" ");
    const t = nameTier(name, qualifiedName, { text: restText, words: rest, key: rest.join("") });
    if (t > 0) tier = Math.max(tier, Math.min(t + ADJUST.pathOnlyTier, PATH_TIER_CAP));
  }
  return { tier, pathHits: Math.min(2, pathOnly.length) };
}
