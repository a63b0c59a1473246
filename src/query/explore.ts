import { CALLABLE_KINDS, TYPE_KINDS as CORE_TYPE_KINDS } from "../core/kinds.js";
import { isTestPath } from "../core/test-paths.js";
import { outgoing, impactOf, CALL_KINDS } from "../graph/traverse.js";
import { testReach, type TestReach } from "../graph/test-reach.js";
import type { Db } from "../store/database.js";
import { countFiles } from "../store/graph-dump.js";
import { relations } from "./callers.js";
import { budgetFor, fileAllowance, LOW_SCORE_SHARE, type ExploreBudget } from "./explore-budget.js";
import { exploreTargets, type LineAnchor } from "./explore-targets.js";
import { looksLikeMessage, symbolsQuoting } from "./explore-literal.js";
import { exceptionNames, meetingPoints, raisersOf } from "./explore-mentions.js";
import { FreshnessProbe, type FileState } from "./freshness.js";
import { FILE_MODE_MAX_LINES, splitLines } from "./node.js";
import { searchSymbols } from "./search.js";
import { stem, identifierParts } from "./stem.js";
import { findSymbols, toHit, type SymbolHit } from "./symbols.js";
import { membersOf } from "../store/explore-lookup.js";

export interface ExploreOptions {
  /** At most this many files of source (default: the project's size tier decides). */
  maxFiles?: number;
}

/** The limits of one explore answer that do not depend on the project's size (see explore-budget.ts). */
export const EXPLORE_LIMITS = {
  /** A symbol's body is shown up to this many lines. */
  symbolLines: 120,
  /** A class (or other type) longer than symbolLines shows only its head: its members are ranked on their own. */
  typeHeadLines: 15,
  /** An exact target too big for its file's budget shows this many head lines, then windows. */
  targetHeadLines: 12,
  /** Lines either side of an anchored line, and of a call to another named symbol, in a clipped target. */
  anchorContext: 6,
  callContext: 2,
  /** A bare line anchor no callable encloses renders this many lines either side. */
  spanContext: 15,
  /** Candidates scoring under this share of the best one are dropped: FTS's long tail is noise next to an exact name. */
  relativeFloor: 0.4,
  /** Symbols whose callers and callees are listed, and how many of each. */
  related: 5,
  relatedRows: 5,
  /** Roots of the blast-radius block. */
  blastRoots: 3,
} as const;

/** Scores of what the query names explicitly, above anything ranking can give. */
const EXACT_SCORE = 200;
const ANCHOR_SCORE = 190;
/** Declarations holding the literal text of a pasted error message. */
const MESSAGE_SCORE = 170;
/** A declaration that mentions two or more of the names the query writes (plus 10 per name). */
const MEETING_SCORE = 120;
/** The callers of what a "what calls X" question names. */
const CALLER_SCORE = 150;
/** Prose segments resolved to a name ("feed bottom" → feedAtBottom): a seed, but a dampened one. */
const SEED_SCORE = 55;

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
  /** Why the file is here: the query names it, it holds an exact target or anchor, or ranking chose it. */
  reason: "pinned" | "target" | "ranked";
  /** The ranked symbols in this file, best first. */
  symbols: SymbolHit[];
  blocks: ExploreBlock[];
  /** The file changed since the last sync, and its whole current text is the one block. */
  wholeFile: boolean;
  /** Listed by its symbols' names only: a low score, or no budget left. */
  namesOnly: boolean;
  /** Symbols the query named that did not fit beside the target: listed in the file's header. */
  alsoHere: string[];
  /** Why source is missing, when it is. */
  notice: string | null;
}

/** One root of the blast radius: what depends on it, and whether tests reach it. */
export interface BlastRoot {
  symbol: SymbolHit;
  callers: number;
  dependents: number;
  reach: TestReach;
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
  budget: ExploreBudget;
  /** Files the query named by path, in the order they were pinned. */
  pinned: string[];
  /** Files an ambiguous path matched that define none of the named symbols. */
  setAside: string[];
  /** Explicit paths that match no indexed file. */
  unresolved: string[];
  /** Exact targets and anchored symbols first, else the top ranked callables. */
  blast: BlastRoot[];
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

const CALLABLES: ReadonlySet<string> = CALLABLE_KINDS;
const TYPE_KINDS: ReadonlySet<string> = CORE_TYPE_KINDS;
const CALLABLE_OR_TYPE: ReadonlySet<string> = new Set([...CALLABLE_KINDS, ...CORE_TYPE_KINDS]);

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
  const stems = terms
    .filter((t) => !t.code)
    .map((t) => stem(t.term))
    .filter((w) => w.length >= 4);
  const words = [...new Set([...terms.map((t) => t.term), ...stems])].join(" ");
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

interface Window {
  /** How much the window matters: the best score of what it shows. Windows are kept best first. */
  score: number;
  start: number;
  end: number;
  /** Where the symbols it shows really end: a window shorter than this was cut. */
  fullEnd: number;
  names: string[];
}

/** Merge overlapping or nearly touching windows (sorted by start) into one. */
function merge(ws: Window[]): Window[] {
  const out: Window[] = [];
  for (const w of [...ws].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = out[out.length - 1];
    if (last && w.start <= last.end + 2) {
      last.end = Math.max(last.end, w.end);
      last.fullEnd = Math.max(last.fullEnd, w.fullEnd);
      last.score = Math.max(last.score, w.score);
      for (const n of w.names) if (!last.names.includes(n)) last.names.push(n);
    } else out.push({ ...w, names: [...w.names] });
  }
  return out;
}

/**
 * The windows that show one exact target when its whole body does not fit: its head, then a few
 * lines around each anchored line and around each of its calls to another symbol the query names.
 */
function targetWindows(db: Db, s: SymbolHit, score: number, anchoredLines: number[], namedIds: Set<number>): Window[] {
  const L = EXPLORE_LIMITS;
  const ws: Window[] = [
    {
      score,
      start: s.startLine,
      end: Math.min(s.endLine, s.startLine + L.targetHeadLines - 1),
      fullEnd: s.endLine,
      names: [s.qualifiedName],
    },
  ];
  for (const line of anchoredLines) {
    ws.push({
      score,
      start: Math.max(s.startLine, line - L.anchorContext),
      end: Math.min(s.endLine, line + L.anchorContext),
      fullEnd: s.endLine,
      names: [],
    });
  }
  for (const e of outgoing(db, s.id, CALL_KINDS)) {
    if (e.line === null || !namedIds.has(e.nodeId)) continue;
    ws.push({
      score,
      start: Math.max(s.startLine, e.line - L.callContext),
      end: Math.min(s.endLine, e.line + L.callContext),
      fullEnd: s.endLine,
      names: [],
    });
  }
  return merge(ws);
}

/** The window for an ordinary ranked symbol: its body up to a cap (a long type shows only its head). */
function symbolWindow(s: SymbolHit, score: number, full: boolean): Window {
  const long = s.endLine - s.startLine + 1 > EXPLORE_LIMITS.symbolLines;
  // A long type is never shown whole, even with room to spare: its members are ranked on their own.
  const cap =
    long && TYPE_KINDS.has(s.kind) ? EXPLORE_LIMITS.typeHeadLines : full ? Infinity : EXPLORE_LIMITS.symbolLines;
  return {
    score,
    start: s.startLine,
    end: Math.min(s.endLine, s.startLine + cap - 1),
    fullEnd: s.endLine,
    names: [s.qualifiedName],
  };
}

/**
 * Choose windows for an allowance of characters, best first: a window that does not fit is skipped
 * whole is cut to what is left when that still shows its first lines, else skipped (a smaller, lesser
 * one may fit). Shown in the order of the file.
 */
const MIN_CUT_LINES = 6;

function fill(ws: Window[], lines: string[], allowance: number): { blocks: ExploreBlock[]; used: number } {
  const chosen: { w: Window; end: number }[] = [];
  let used = 0;
  for (const w of [...ws].sort((a, b) => b.score - a.score || a.start - b.start)) {
    const last = Math.min(w.end, lines.length);
    let end = w.start - 1;
    let c = 0;
    while (end < last && used + c + cost(lines[end]!) <= allowance) c += cost(lines[end++]!);
    // A window cut short still earns its place if it shows its head: the declaration and a few lines.
    if (end === last || (end - w.start + 1 >= MIN_CUT_LINES && end >= w.start) || (!chosen.length && end >= w.start)) {
      chosen.push({ w, end });
      used += c;
    }
  }
  const blocks = chosen
    .sort((a, b) => a.w.start - b.w.start)
    .map(({ w, end }) => ({
      startLine: w.start,
      endLine: end,
      lines: lines.slice(w.start - 1, end),
      symbols: w.names,
      truncated: end < w.fullEnd,
    }));
  return { blocks, used };
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

/** Types ranked this high or better have their members matched against the question's verbs. */
const MEMBER_PARENT_FLOOR = 50;

/**
 * "How does the URL resolver match a path" names a type and, in prose, what it does: the type's
 * members whose names share a stem with the question's other words (`resolve`) are what to show.
 */
function addMembersNamedByVerbs(db: Db, best: Map<number, Candidate>, terms: { term: string; code: boolean }[]) {
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
      const score = t.score * 0.9 + 5 * hits;
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

/** What the answer needs to know about one file while it is being laid out. */
interface Plan {
  path: string;
  reason: ExploreFile["reason"];
  cands: Candidate[];
  anchors: LineAnchor[];
  score: number;
}

/**
 * The code most relevant to a question, a set of names, paths or pasted locations: what the query
 * names explicitly (paths, line anchors, qualified names) leads, then ranked symbols; their verbatim
 * source grouped by file within a budget sized to the project; who calls the top ones and what they
 * call; and the blast radius of the roots with their measured test coverage. Every quoted file is
 * checked against the index first: one that changed since the last sync is shown whole when it fits
 * (its stored line numbers are unsafe) and listed in `drifted`, or omitted.
 */
export function exploreQuery(db: Db, root: string, query: string, options: ExploreOptions = {}): ExploreResult {
  const budget = budgetFor(countFiles(db), options.maxFiles);
  const targets = exploreTargets(db, query, { maxFiles: budget.files });
  const terms = queryTerms(targets.residual);

  // Candidates: the ranking of the remaining words, with what the query names explicitly above it.
  const best = new Map<number, Candidate>();
  const put = (symbol: SymbolHit, score: number) => {
    const old = best.get(symbol.id);
    if (!old || old.score < score) best.set(symbol.id, { symbol, score });
  };
  for (const c of rank(db, terms)) put(c.symbol, isTestPath(c.symbol.file) ? c.score * 0.5 : c.score);
  for (const s of targets.seeds) put(s, SEED_SCORE);
  const anchorSymbols = targets.anchors.flatMap((a) => (a.symbol ? [a.symbol] : []));
  for (const s of anchorSymbols) put(s, ANCHOR_SCORE);
  for (const s of targets.exact) put(s, EXACT_SCORE);
  // A pasted error message: the code that raises it holds its text as a literal.
  const quoting = looksLikeMessage(query)
    ? symbolsQuoting(
        db,
        root,
        query,
        [...new Set([...best.values()].sort((a, b) => b.score - a.score).map((c) => c.symbol.file))].slice(0, 20),
      )
    : [];
  for (const s of quoting) put(s, MESSAGE_SCORE);
  const raisers = looksLikeMessage(query) ? raisersOf(db, exceptionNames(query)) : [];
  for (const s of raisers) put(s, MESSAGE_SCORE - 5);
  for (const m of meetingPoints(db, targets.named)) put(m.symbol, MEETING_SCORE + 10 * m.count);
  addMembersNamedByVerbs(db, best, terms);
  // "What calls X": the callers are the answer, so their source is shown, not only their names.
  if (asksForCallers(query)) {
    const subjects = targets.exact.length
      ? targets.exact
      : [...best.values()]
          .filter((c) => c.score >= 90)
          .map((c) => c.symbol)
          .slice(0, 3);
    for (const subject of subjects) {
      for (const g of relations(db, subject.uid, "callers", { file: subject.file, limit: 12 }).groups) {
        for (const row of g.rows) {
          put(row.symbol, CALLER_SCORE);
        }
      }
    }
  }
  const all = [...best.values()].sort((a, b) => b.score - a.score);
  const floor = (all[0]?.score ?? 0) * EXPLORE_LIMITS.relativeFloor;
  const ranked = all.filter((c) => c.score >= floor).slice(0, 60);

  const targetIds = new Set([...targets.exact, ...anchorSymbols, ...quoting, ...raisers].map((s) => s.id));
  // Named: what the query spells out, which a clipped target's windows and the second pass favour.
  const namedIds = new Set([...targetIds, ...ranked.filter((c) => c.score >= 90).map((c) => c.symbol.id)]);

  // Files: pinned by path first, then files holding targets or anchors, then by ranked score.
  const plans = new Map<string, Plan>();
  const plan = (path: string, reason: Plan["reason"]) => {
    let p = plans.get(path);
    if (!p) plans.set(path, (p = { path, reason, cands: [], anchors: [], score: 0 }));
    return p;
  };
  for (const f of targets.pinned) plan(f.path, "pinned");
  for (const a of targets.anchors) plan(a.path, "target").anchors.push(a);
  for (const c of ranked) plan(c.symbol.file, targetIds.has(c.symbol.id) ? "target" : "ranked").cands.push(c);
  for (const p of plans.values()) {
    if (p.reason === "ranked" && p.cands.some((c) => targetIds.has(c.symbol.id))) p.reason = "target";
    const scores = p.cands.map((c) => c.score);
    p.score = (scores[0] ?? 0) + 0.25 * scores.slice(1, 4).reduce((a, b) => a + b, 0);
  }
  const order = { pinned: 0, target: 1, ranked: 2 } as const;
  const ordered = [...plans.values()].sort((a, b) => order[a.reason] - order[b.reason] || b.score - a.score);
  const topRanked = Math.max(0, ...ordered.filter((p) => p.reason === "ranked").map((p) => p.score));

  const probe = new FreshnessProbe(db, root);
  let remaining = budget.total;
  const files: ExploreFile[] = [];
  const shown = new Set<number>();
  const clipped: { entry: ExploreFile; p: Plan; lines: string[] }[] = [];

  const windowsFor = (p: Plan, lines: string[], allowance: number, full: boolean): Window[] => {
    const ws: Window[] = [];
    for (const a of p.anchors) {
      if (!a.span) continue;
      const single = a.startLine === a.endLine;
      const c = single ? EXPLORE_LIMITS.spanContext : 0;
      ws.push({
        score: ANCHOR_SCORE,
        start: Math.max(1, a.startLine - c),
        end: Math.min(lines.length, a.endLine + c),
        fullEnd: 0,
        names: [],
      });
    }
    const anchoredLines = p.anchors.filter((a) => !a.span).map((a) => a.startLine);
    for (const c of p.cands) {
      const s = c.symbol;
      if (!targetIds.has(s.id)) {
        ws.push(symbolWindow(s, c.score, full));
        continue;
      }
      const body = lines.slice(s.startLine - 1, s.endLine).reduce((n, l) => n + cost(l), 0);
      if (body <= allowance || full) ws.push(symbolWindow(s, c.score, true));
      else ws.push(...targetWindows(db, s, c.score, anchoredLines, namedIds));
    }
    // A pinned file the ranking found nothing in: its beginning, as a Read would show it.
    if (!ws.length) ws.push({ score: 0, start: 1, end: lines.length, fullEnd: lines.length, names: [] });
    // Windows in the order of the file, but nested symbols (a method inside a shown class) not twice.
    return merge(ws);
  };

  for (const p of ordered) {
    const symbols = p.cands.map((c) => c.symbol);
    const entry: ExploreFile = {
      path: p.path,
      fileState: "fresh",
      reason: p.reason,
      symbols,
      blocks: [],
      wholeFile: false,
      namesOnly: false,
      alsoHere: [],
      notice: null,
    };
    const lowScore = p.reason === "ranked" && p.score < topRanked * LOW_SCORE_SHARE;
    if (files.filter((f) => !f.namesOnly).length >= budget.files || remaining <= 0 || lowScore) {
      if (symbols.length && files.length < budget.files * 2) {
        entry.namesOnly = true;
        files.push(entry);
      }
      continue;
    }
    const check = probe.check(p.path);
    entry.fileState = check.state;
    if (check.text === null) {
      entry.notice =
        check.state === "missing"
          ? "no longer on disk; run `codegraph sync`"
          : check.state === "too-large"
            ? "changed and now larger than indexing.max_file_size; not read"
            : check.state === "outside"
              ? "outside the project; not read"
              : "could not be read";
      files.push(entry);
      continue;
    }
    const lines = splitLines(check.text);
    if (!check.fresh) {
      // Stored line numbers may point at the wrong bytes: the whole current file, or nothing.
      const chars = lines.reduce((n, l) => n + cost(l), 0);
      if (lines.length <= FILE_MODE_MAX_LINES && chars <= remaining) {
        entry.blocks.push({
          startLine: 1,
          endLine: lines.length,
          lines,
          symbols: symbols.map((s) => s.qualifiedName),
          truncated: false,
        });
        entry.wholeFile = true;
        remaining -= chars;
        probe.served(p.path);
        for (const s of symbols) shown.add(s.id);
      } else {
        entry.notice =
          "changed since the last index sync and too large to show whole here; Read it directly or run `codegraph sync`";
      }
      files.push(entry);
      continue;
    }
    const named = p.reason !== "ranked";
    const allowance = fileAllowance(budget, remaining, named);
    const { blocks, used } = fill(windowsFor(p, lines, allowance, false), lines, allowance);
    if (!blocks.length) continue;
    entry.blocks = blocks;
    remaining -= used;
    probe.served(p.path);
    files.push(entry);
    if (named && blocks.some((b) => b.truncated)) clipped.push({ entry, p, lines });
  }

  // Second pass: a file the query names that its ceiling clipped gets what the others left unspent.
  for (const { entry, p, lines } of clipped) {
    if (remaining <= 0) break;
    const before = entry.blocks.reduce((n, b) => n + b.lines.reduce((m, l) => m + cost(l), 0), 0);
    const { blocks, used } = fill(windowsFor(p, lines, Infinity, true), lines, before + remaining);
    if (used > before) {
      entry.blocks = blocks;
      remaining -= used - before;
    }
  }

  for (const f of files) {
    for (const s of f.symbols) {
      const inBlock = f.wholeFile || f.blocks.some((b) => b.startLine <= s.startLine && s.startLine <= b.endLine);
      if (inBlock) shown.add(s.id);
      else if (!f.namesOnly && namedIds.has(s.id)) f.alsoHere.push(`${s.qualifiedName}:${s.startLine}`);
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
  const roots = targetIds.size
    ? ranked.filter((c) => targetIds.has(c.symbol.id)).map((c) => c.symbol)
    : shownRanked.filter((s) => CALLABLES.has(s.kind));
  const blast = roots.slice(0, EXPLORE_LIMITS.blastRoots).map((symbol): BlastRoot => {
    const direct = relations(db, symbol.uid, "callers", { file: symbol.file, limit: 1 }).groups[0]?.total ?? 0;
    const { hits } = impactOf(db, [symbol.id], 3, 500);
    return { symbol, callers: direct, dependents: hits.length, reach: testReach(db, [symbol.id], isTestPath) };
  });
  return {
    query,
    budget,
    pinned: targets.pinned.map((f) => f.path),
    setAside: targets.setAside,
    unresolved: targets.unresolved,
    blast,
    terms: terms.map((t) => t.term),
    files,
    relationships,
    notShown: ranked
      .filter((c) => !shown.has(c.symbol.id) && !files.some((f) => f.namesOnly && f.path === c.symbol.file))
      .slice(0, 10)
      .map((c) => c.symbol),
    drifted: probe.drifted(),
  };
}
