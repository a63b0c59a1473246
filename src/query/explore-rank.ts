import { CALLABLE_KINDS, TYPE_KINDS as CORE_TYPE_KINDS } from "../core/kinds.js";
import type { Db } from "../store/database.js";
import { membersOf } from "../store/explore-lookup.js";
import { countFullText, searchFullText } from "../store/search-reader.js";
import { searchSymbols } from "./search.js";
import { identifierParts, stem } from "./stem.js";
import { findSymbols, symbolsById, toHit, type SymbolHit } from "./symbols.js";

const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does did for from how i if in into is it its me my of on or " +
    "our should so that the their them then there these this those to use used uses using was we what " +
    "when where which who why will with work works working you your code function method class file " +
    "find show explain about get gets handle handles happen happens implemented implementation"
  ).split(" "),
);

/**
 * Terms of a question that explore looks up, each as a name and beside its neighbour: a long paste (a
 * deep stack trace) is bounded by its first ones.
 */
const MAX_TERMS = 64;

/** Identifier-like pieces of a query (`QuerySet.filter`, `get_user`, `parseConfig`, `filter`), deduplicated. */
export function queryTerms(query: string): { term: string; code: boolean }[] {
  const out: { term: string; code: boolean }[] = [];
  const seen = new Set<string>();
  for (const raw of query.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*/g) ?? []) {
    const term = raw.replace(/::|#/g, ".");
    const code = /[._$]/.test(term) || /[a-z0-9][A-Z]/.test(term) || /^[A-Z]{2,}[a-z]/.test(term);
    // A word in capitals is a name or a keyword of its own (`WHERE`, `IF`, `URL`), not the English word.
    const shouted = /^[A-Z]{2,}$/.test(term);
    if (!code && !shouted && (term.length < 3 || STOPWORDS.has(term.toLowerCase()))) continue;
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ term, code });
    if (out.length === MAX_TERMS) break;
  }
  return out;
}

export interface Candidate {
  symbol: SymbolHit;
  score: number;
}

export const CALLABLES: ReadonlySet<string> = CALLABLE_KINDS;
export const TYPE_KINDS: ReadonlySet<string> = CORE_TYPE_KINDS;
const CALLABLE_OR_TYPE: ReadonlySet<string> = new Set([...CALLABLE_KINDS, ...CORE_TYPE_KINDS]);

/**
 * Rank symbols for a query. Exact matches come first: a code-shaped term (camelCase, snake_case,
 * dotted) naming a qualified name or a name, two adjacent terms naming `A.b`, then a plain word naming
 * a symbol exactly; FTS over names, signatures and docs follows. A name defined in many places says
 * less, so its score is damped; other query terms found in a symbol's qualified name or path add a
 * little. Variables and properties rank below callables and types.
 */
export function rank(db: Db, terms: { term: string; code: boolean }[]): Candidate[] {
  const best = new Map<number, Candidate>();
  const add = (symbol: SymbolHit, score: number) => {
    if (symbol.kind === "file" || symbol.kind === "import") return; // a file node is not a symbol to quote
    const old = best.get(symbol.id);
    if (!old || old.score < score) best.set(symbol.id, { symbol, score });
  };
  const exact = (text: string, qualifiedScore: number, nameScore: number) => {
    const defs = findSymbols(db, text);
    const damp = defs.length <= 3 ? 1 : 1 / (1 + Math.log2(defs.length / 3));
    const dotted = text.includes(".");
    for (const d of defs.slice(0, 50)) add(d, dotted ? qualifiedScore : nameScore * damp);
  };
  for (const { term, code } of terms) exact(term, 100, code ? 90 : 60);
  for (let i = 0; i + 1 < terms.length; i++) {
    const a = terms[i]!.term;
    const b = terms[i + 1]!.term;
    if (!a.includes(".") && !b.includes(".")) exact(`${a}.${b}`, 100, 0);
  }
  const stems = terms
    .filter((t) => !t.code)
    .flatMap((t) => searchedStems(t.term))
    .filter((w) => w.length >= 4);
  const words = [...new Set([...terms.map((t) => t.term), ...stems])].join(" ");
  if (words) {
    const fts = searchSymbols(db, words, { limit: 30 }).hits;
    fts.forEach((h, i) => add(h, h.score >= 90 ? h.score : 50 * (1 - i / 40)));
    // Each prose word by its stems (a prefix of the word), or as written when they are too short; a
    // name written in the question as one word (`gcTime`), as documentation quotes it.
    const prose = terms.flatMap((t) => {
      if (t.code) return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(t.term) ? [t.term.toLowerCase()] : [];
      const s = searchedStems(t.term).filter((w) => w.length >= 4);
      return s.length ? s : [t.term.toLowerCase()];
    });
    proseMatches(db, [...new Set(prose)]).forEach((h, i) => add(h, 50 * (1 - i / 40)));
  }
  const lowered = terms.map((t) => t.term.toLowerCase());
  const ranked = [...best.values()].map((c) => {
    const where = `${c.symbol.qualifiedName} ${c.symbol.file}`.toLowerCase();
    const own = c.symbol.name.toLowerCase();
    const bonus = Math.min(30, 10 * lowered.filter((t) => t !== own && where.includes(t)).length);
    const kind = CALLABLE_OR_TYPE.has(c.symbol.kind) ? 1 : 0.6;
    return { symbol: c.symbol, score: (c.score + bonus) * kind };
  });
  return ranked
    .filter((c) => c.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score || a.symbol.file.localeCompare(b.symbol.file) || a.symbol.startLine - b.symbol.startLine,
    );
}

/** A word matched in more rows than this says little of what a question is about, and costs the most to rank. */
const COMMON_WORD_ROWS = 2000;
/** Words of a long paste (a message, a stack trace) past these cost a count each and say little more. */
const MAX_PROSE_WORDS = 16;
/** Functions and types a question's words find in documentation as well as in names. */
const PROSE_MATCHES = 20;
const CALLABLE_OR_TYPE_KINDS = [...CALLABLE_OR_TYPE];

/**
 * Functions and types holding any of a question's words, in their documentation too, best bm25 first.
 * The search above matches names alone when no symbol holds every word, and there the words of a
 * common subject (`query`, `fetch`) outnumber the rarer one the question is about: tanstack-query's
 * `createRetryer` ("retries it on failure") was not among them for "how does a query retry after a
 * failed fetch". Words found in very many rows are left out; bm25 would weigh them near nothing.
 */
function proseMatches(db: Db, words: readonly string[]): SymbolHit[] {
  const kept = words
    .filter((w) => w.length >= 3)
    .slice(0, MAX_PROSE_WORDS)
    .map((w) => `"${w.replace(/"/g, '""')}"*`)
    .filter((t) => countFullText(db, t, COMMON_WORD_ROWS + 1) <= COMMON_WORD_ROWS);
  if (!kept.length) return [];
  const filters = { kinds: CALLABLE_OR_TYPE_KINDS, languages: null, pathLike: null, pathGlob: null };
  const rows = searchFullText(db, kept.join(" OR "), filters, PROSE_MATCHES);
  const hits = symbolsById(
    db,
    rows.map((r) => r.id),
  );
  return rows.flatMap((r) => hits.get(r.id) ?? []);
}

/**
 * A word's stem as full-text search looks it up (as a prefix): `applied` → `appli`, and, as a name
 * spells it, `apply` (full-text tokens are words as written, so `appli` never reaches `apply_migration`).
 */
function searchedStems(word: string): string[] {
  const s = stem(word);
  return s.endsWith("i") ? [s, `${s.slice(0, -1)}y`] : [s];
}

/** At most this much of a member's score comes from its documentation (a name word counts 5). */
const MAX_DOC_BONUS = 4;

/** How many of `stems` a docstring's words have. */
function docWords(docstring: string | null, stems: ReadonlySet<string>): number {
  if (!docstring) return 0;
  const seen = new Set<string>();
  for (const w of docstring.toLowerCase().match(/[a-z]{4,}/g) ?? []) {
    const s = stem(w);
    if (stems.has(s)) seen.add(s);
  }
  return seen.size;
}

/** Types ranked this high or better have their members matched against the question's verbs. */
const MEMBER_PARENT_FLOOR = 50;

/**
 * "How does the URL resolver match a path" names a type and, in prose, what it does: the type's
 * members whose names share a stem with the question's other words (`resolve`) are what to show.
 */
export function addMembersNamedByVerbs(db: Db, best: Map<number, Candidate>, terms: { term: string; code: boolean }[]) {
  const types = [...best.values()]
    .filter((c) => TYPE_KINDS.has(c.symbol.kind) && c.score >= MEMBER_PARENT_FLOOR)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  for (const t of types) {
    // The words of the question other than the type's own name (`resolver` in "URL resolver" counts).
    const own = t.symbol.name.toLowerCase();
    const stems = new Set(
      terms
        .filter((x) => x.term.toLowerCase() !== own)
        .flatMap((x) => identifierParts(x.term))
        .map(stem)
        .filter((w) => w.length >= 4),
    );
    if (!stems.size) continue;
    for (const m of membersOf(db, t.symbol.id)) {
      if (!CALLABLES.has(m.kind)) continue;
      const hits = identifierParts(m.name).filter((p) => stems.has(stem(p))).length;
      if (!hits) continue;
      const symbol = toHit(m);
      // Among members sharing as many name words with the question (ThreadPoolExecutor's `runWorker`,
      // `getTask` and `workerCountOf` for "how does a worker thread take tasks from the queue"), the
      // ones whose documentation speaks of more of its other words come first.
      const score = t.score * 0.9 + 5 * hits + Math.min(MAX_DOC_BONUS, docWords(m.docstring, stems));
      const old = best.get(symbol.id);
      if (!old || old.score < score) best.set(symbol.id, { symbol, score });
    }
  }
}

/** "What calls X", "who uses X", "callers of X", "where is X called". */
export function asksForCallers(query: string): boolean {
  return /\b(what|who|which)\b.{0,20}\b(calls?|uses?|invokes?|references?)\b|\bcallers?\s+of\b|\bcalled\s+(by|from)\b|\bwhere\b.{0,60}\b(called|used|invoked)\b/i.test(
    query,
  );
}
