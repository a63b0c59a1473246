import type { Db } from "../store/database.js";
import { relations } from "./callers.js";
import { FreshnessProbe, type FileState } from "./freshness.js";
import { FILE_MODE_MAX_LINES, splitLines } from "./node.js";
import { searchSymbols } from "./search.js";
import { findSymbols, type SymbolHit } from "./symbols.js";

export interface ExploreOptions {
  /** At most this many files of source (default 8). */
  maxFiles?: number;
}

/** The limits of one explore answer. */
export const EXPLORE_LIMITS = {
  maxFiles: 8,
  /** A symbol's body is shown up to this many lines. */
  symbolLines: 120,
  /** A class (or other type) longer than symbolLines shows only its head: its members are ranked on their own. */
  typeHeadLines: 40,
  /** Candidates scoring under this share of the best one are dropped: FTS's long tail is noise next to an exact name. */
  relativeFloor: 0.4,
  /** Characters of source in the whole answer, and in any one file. */
  chars: 24_000,
  fileChars: 12_000,
  /** Symbols whose callers and callees are listed, and how many of each. */
  related: 5,
  relatedRows: 5,
} as const;

/** A run of consecutive source lines shown for one or more symbols. */
export interface ExploreBlock {
  startLine: number;
  endLine: number;
  lines: string[];
  /** Qualified names of the ranked symbols this block shows. */
  symbols: string[];
  /** The block was cut short (body cap or budget); `codegraph_node` reads the rest. */
  truncated: boolean;
}

export interface ExploreFile {
  path: string;
  fileState: FileState;
  /** The ranked symbols in this file, best first. */
  symbols: SymbolHit[];
  blocks: ExploreBlock[];
  /** The file changed since the last sync, and its whole current text is the one block. */
  wholeFile: boolean;
  /** Why source is missing, when it is. */
  notice: string | null;
}

export interface ExploreRef {
  name: string;
  kind: string;
  file: string;
  line: number;
}

export interface ExploreRelation {
  symbol: SymbolHit;
  callers: ExploreRef[];
  callerTotal: number;
  callees: ExploreRef[];
  calleeTotal: number;
}

export interface ExploreResult {
  query: string;
  /** The identifiers and words the query was split into and looked up. */
  terms: string[];
  files: ExploreFile[];
  relationships: ExploreRelation[];
  /** Relevant symbols left out by maxFiles or the character budget, best first (at most 10). */
  notShown: SymbolHit[];
  /** Files whose current bytes are quoted although they changed since the last sync: the banner's list. */
  drifted: string[];
}

const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does did for from how i if in into is it its me my of on or " +
    "our should so that the their them then there these this those to use used uses using was we what " +
    "when where which who why will with work works working you your code function method class file " +
    "find show explain about get gets handle handles happen happens implemented implementation"
  ).split(" "),
);

/** Identifier-like pieces of a query (`QuerySet.filter`, `get_user`, `parseConfig`, `filter`), deduplicated. */
export function queryTerms(query: string): { term: string; code: boolean }[] {
  const out: { term: string; code: boolean }[] = [];
  const seen = new Set<string>();
  for (const raw of query.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*/g) ?? []) {
    const term = raw.replace(/::|#/g, ".");
    const code = /[._$]/.test(term) || /[a-z0-9][A-Z]/.test(term) || /^[A-Z]{2,}[a-z]/.test(term);
    if (!code && (term.length < 3 || STOPWORDS.has(term.toLowerCase()))) continue;
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ term, code });
  }
  return out;
}

interface Candidate {
  symbol: SymbolHit;
  score: number;
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "enum"]);
const CALLABLE_OR_TYPE = new Set([
  "function",
  "method",
  "constructor",
  "class",
  "struct",
  "interface",
  "trait",
  "enum",
  "type_alias",
]);

/**
 * Rank symbols for a query. Exact matches come first: a code-shaped term (camelCase, snake_case,
 * dotted) naming a qualified name or a name, two adjacent terms naming `A.b`, then a plain word naming
 * a symbol exactly; FTS over names, signatures and docs follows. A name defined in many places says
 * less, so its score is damped; other query terms found in a symbol's qualified name or path add a
 * little. Variables and properties rank below callables and types.
 */
function rank(db: Db, terms: { term: string; code: boolean }[]): Candidate[] {
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
  const words = terms.map((t) => t.term).join(" ");
  if (words) {
    const fts = searchSymbols(db, words, { limit: 30 }).hits;
    fts.forEach((h, i) => add(h, h.score >= 90 ? h.score : 50 * (1 - i / 40)));
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

/** Character cost of a source line as rendered (number, spaces, newline). */
const cost = (line: string) => line.length + 8;

/**
 * The source to show for a file's ranked symbols: each body up to EXPLORE_LIMITS.symbolLines, a symbol
 * inside one already shown is not repeated, and overlapping or touching windows merge.
 */
function windows(symbols: SymbolHit[]): { start: number; end: number; fullEnd: number; names: string[] }[] {
  const sorted = [...symbols].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const out: { start: number; end: number; fullEnd: number; names: string[] }[] = [];
  for (const s of sorted) {
    const long = s.endLine - s.startLine + 1 > EXPLORE_LIMITS.symbolLines;
    const cap = long && TYPE_KINDS.has(s.kind) ? EXPLORE_LIMITS.typeHeadLines : EXPLORE_LIMITS.symbolLines;
    const end = Math.min(s.endLine, s.startLine + cap - 1);
    const covering = out.find((w) => w.start <= s.startLine && s.endLine <= w.end);
    if (covering) {
      covering.names.push(s.qualifiedName);
      continue;
    }
    const last = out[out.length - 1];
    if (last && s.startLine <= last.end + 2) {
      last.end = Math.max(last.end, end);
      last.fullEnd = Math.max(last.fullEnd, s.endLine);
      last.names.push(s.qualifiedName);
    } else out.push({ start: s.startLine, end, fullEnd: s.endLine, names: [s.qualifiedName] });
  }
  return out;
}

function refsOf(db: Db, s: SymbolHit, direction: "callers" | "callees"): { rows: ExploreRef[]; total: number } {
  const group = relations(db, s.uid, direction, { file: s.file, limit: EXPLORE_LIMITS.relatedRows }).groups[0];
  if (!group) return { rows: [], total: 0 };
  const rows = group.rows.map((r) => ({
    name: r.symbol.qualifiedName,
    kind: r.kind,
    file: r.symbol.file,
    line: direction === "callers" ? (r.line ?? r.symbol.startLine) : r.symbol.startLine,
  }));
  return { rows, total: group.total };
}

/**
 * The code most relevant to a question or a set of names: ranked symbols, their verbatim source
 * grouped by file (files by relevance, at most `maxFiles`), and who calls the top ones and what they
 * call. Every quoted file is checked against the index first; one that changed since the last sync is
 * shown whole when it fits (its stored line numbers are unsafe) and listed in `drifted`, or omitted.
 */
export function exploreQuery(db: Db, root: string, query: string, options: ExploreOptions = {}): ExploreResult {
  const maxFiles = Math.max(1, Math.min(options.maxFiles ?? EXPLORE_LIMITS.maxFiles, 50));
  const terms = queryTerms(query);
  const all = rank(db, terms);
  const floor = (all[0]?.score ?? 0) * EXPLORE_LIMITS.relativeFloor;
  const ranked = all.filter((c) => c.score >= floor).slice(0, 60);
  const probe = new FreshnessProbe(db, root);

  const byFile = new Map<string, Candidate[]>();
  for (const c of ranked) byFile.set(c.symbol.file, [...(byFile.get(c.symbol.file) ?? []), c]);
  const fileScore = (cs: Candidate[]) =>
    cs[0]!.score +
    0.25 *
      cs
        .slice(1, 4)
        .map((c) => c.score)
        .reduce((a, b) => a + b, 0);
  const orderedFiles = [...byFile.entries()].sort((a, b) => fileScore(b[1]) - fileScore(a[1]));

  let budget: number = EXPLORE_LIMITS.chars;
  const files: ExploreFile[] = [];
  const shown = new Set<number>();
  for (const [path, cands] of orderedFiles) {
    if (files.length >= maxFiles || budget <= 0) break;
    const symbols = cands.map((c) => c.symbol);
    const check = probe.check(path);
    const entry: ExploreFile = { path, fileState: check.state, symbols, blocks: [], wholeFile: false, notice: null };
    if (check.text === null) {
      entry.notice =
        check.state === "missing"
          ? "no longer on disk; run `codegraph sync`"
          : check.state === "too-large"
            ? "changed and now larger than indexing.max_file_size; not read"
            : "could not be read";
      files.push(entry);
      continue;
    }
    const lines = splitLines(check.text);
    if (!check.fresh) {
      // Stored line numbers may point at the wrong bytes: the whole current file, or nothing.
      const chars = lines.reduce((n, l) => n + cost(l), 0);
      if (lines.length <= FILE_MODE_MAX_LINES && chars <= budget) {
        entry.blocks.push({
          startLine: 1,
          endLine: lines.length,
          lines,
          symbols: symbols.map((s) => s.qualifiedName),
          truncated: false,
        });
        entry.wholeFile = true;
        budget -= chars;
        probe.served(path);
        for (const s of symbols) shown.add(s.id);
      } else {
        entry.notice =
          "changed since the last index sync and too large to show whole here; Read it directly or run `codegraph sync`";
      }
      files.push(entry);
      continue;
    }
    let fileBudget = Math.min(budget, EXPLORE_LIMITS.fileChars);
    for (const w of windows(symbols)) {
      const take: string[] = [];
      for (let n = w.start; n <= Math.min(w.end, lines.length); n++) {
        const line = lines[n - 1]!;
        if (cost(line) > fileBudget) break;
        fileBudget -= cost(line);
        take.push(line);
      }
      if (!take.length) break;
      budget -= take.reduce((n, l) => n + cost(l), 0);
      entry.blocks.push({
        startLine: w.start,
        endLine: w.start + take.length - 1,
        lines: take,
        symbols: w.names,
        truncated: w.start + take.length - 1 < w.fullEnd,
      });
      for (const s of symbols) if (w.names.includes(s.qualifiedName)) shown.add(s.id);
    }
    if (entry.blocks.length) {
      probe.served(path);
      files.push(entry);
    }
  }

  const shownRanked = ranked.filter((c) => shown.has(c.symbol.id)).map((c) => c.symbol);
  const relationships = shownRanked.slice(0, EXPLORE_LIMITS.related).map((symbol) => {
    const callers = refsOf(db, symbol, "callers");
    const callees = refsOf(db, symbol, "callees");
    return {
      symbol,
      callers: callers.rows,
      callerTotal: callers.total,
      callees: callees.rows,
      calleeTotal: callees.total,
    };
  });
  return {
    query,
    terms: terms.map((t) => t.term),
    files,
    relationships,
    notShown: ranked
      .filter((c) => !shown.has(c.symbol.id))
      .slice(0, 10)
      .map((c) => c.symbol),
    drifted: probe.drifted(),
  };
}
