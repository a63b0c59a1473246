import { isTestPath } from "../core/test-paths.js";
import { impactOf } from "../graph/traverse.js";
import { testReach, type TestReach } from "../graph/test-reach.js";
import type { Db } from "../store/database.js";
import { countFiles } from "../store/graph-dump.js";
import { relations } from "./callers.js";
import { dispatchOf, type ExploreDispatch } from "./explore-dispatch.js";
import { budgetFor, EXPLORE_LIMITS, fileAllowance, LOW_SCORE_SHARE, type ExploreBudget } from "./explore-budget.js";
import { looksLikeMessage, symbolsQuoting } from "./explore-literal.js";
import { exceptionNames, meetingPoints, raisersOf } from "./explore-mentions.js";
import { addMembersNamedByVerbs, asksForCallers, CALLABLES, queryTerms, rank, type Candidate } from "./explore-rank.js";
import { exploreTargets, type LineAnchor } from "./explore-targets.js";
import {
  cost,
  fill,
  merge,
  symbolWindow,
  targetWindows,
  wordedMemberWindows,
  type ExploreBlock,
  type Window,
} from "./explore-windows.js";
import { FreshnessProbe, type FileState } from "./freshness.js";
import { FILE_MODE_MAX_LINES, splitLines } from "./node.js";
import type { SymbolHit } from "./symbols.js";

// The pieces of explore live beside it; these are part of its public face.
export { EXPLORE_LIMITS } from "./explore-budget.js";
export { asksForCallers, queryTerms } from "./explore-rank.js";
export type { ExploreBlock } from "./explore-windows.js";

export interface ExploreOptions {
  /** At most this many files of source (default: the project's size tier decides). */
  maxFiles?: number;
  /** At most this many characters of source (default: the project's size tier decides). */
  maxChars?: number;
}

/** Scores of what the query names explicitly, above anything ranking can give. */
const EXACT_SCORE = 200;
const ANCHOR_SCORE = 190;
/** What a short named function hands its work to (`thenApply` → `uniApplyStage`). */
const DELEGATE_SCORE = 180;
/** What a wrapper the query names in prose hands its work to: just under an exact name (100). */
const NAMED_DELEGATE_SCORE = 95;
/** Declarations holding the literal text of a pasted error message. */
const MESSAGE_SCORE = 170;
/** A declaration that mentions two or more of the names the query writes (plus 10 per name). */
const MEETING_SCORE = 120;
/** The callers of what a "what calls X" question names. */
const CALLER_SCORE = 150;
/** Prose segments resolved to a name ("feed bottom" → feedAtBottom): a seed, but a dampened one. */
const SEED_SCORE = 55;

/** A function of at most this many lines, calling at most MAX_DELEGATES others, is a thin wrapper. */
const THIN_LINES = 8;
const MAX_DELEGATES = 2;

/**
 * The functions a named function of a few lines calls: a wrapper's answer is in what it wraps
 * ("how does thenApply run the function" is answered by `uniApplyStage`, which `thenApply` returns),
 * and showing the one line of the wrapper alone made the agent ask again.
 */
function delegatesOf(db: Db, named: readonly SymbolHit[]): SymbolHit[] {
  const out: SymbolHit[] = [];
  for (const s of named) {
    if (!CALLABLES.has(s.kind) || s.endLine - s.startLine + 1 > THIN_LINES) continue;
    const rows = relations(db, s.uid, "callees", { file: s.file, limit: MAX_DELEGATES + 1 }).groups.flatMap(
      (g) => g.rows,
    );
    if (rows.length <= MAX_DELEGATES) out.push(...rows.map((r) => r.symbol));
  }
  return out;
}

/** The name of a function that makes an error for its callers to throw. */
const ERROR_FACTORY = /(?:Error|Exception|_error|_exception)$/;

/** Whether a file's blocks cut one of its candidates short or left one out. */
function leftOut(p: Plan, blocks: readonly ExploreBlock[]): boolean {
  if (blocks.some((b) => b.truncated)) return true;
  return p.cands.some((c) => !blocks.some((b) => b.startLine <= c.symbol.startLine && c.symbol.startLine <= b.endLine));
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
  dispatch: ExploreDispatch;
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
  const budget = budgetFor(countFiles(db), options.maxFiles, options.maxChars);
  const targets = exploreTargets(db, query, { maxFiles: budget.files });
  const terms = queryTerms(targets.residual);
  const words = terms.filter((t) => !t.code).map((t) => t.term);

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
  const delegates = delegatesOf(db, targets.exact);
  for (const s of delegates) put(s, DELEGATE_SCORE);
  // A name written in prose (`useQuery`) that is a wrapper: what it wraps (`useBaseQuery`) comes next.
  const namedNames = new Set(targets.named);
  const namedHits = [...best.values()]
    .filter((c) => c.score >= 90 && namedNames.has(c.symbol.name))
    .map((c) => c.symbol);
  for (const s of delegatesOf(db, namedHits)) put(s, NAMED_DELEGATE_SCORE);
  // A pasted error message: the code that raises it holds its text as a literal.
  const pasted = looksLikeMessage(query);
  const quoting = pasted
    ? symbolsQuoting(
        db,
        root,
        query,
        [...new Set([...best.values()].sort((a, b) => b.score - a.score).map((c) => c.symbol.file))].slice(0, 20),
      )
    : [];
  for (const s of quoting) put(s, MESSAGE_SCORE);
  // The exception's name, and a function the message is built in that is named for the error it makes
  // (`duplicateKeyException(k, u, v)`, `createInvalidObservableTypeError`): who calls those throws it.
  const factories = quoting.filter((s) => CALLABLES.has(s.kind) && ERROR_FACTORY.test(s.name)).map((s) => s.name);
  const raisers = pasted ? [...raisersOf(db, exceptionNames(query)), ...raisersOf(db, factories)] : [];
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

  const targetIds = new Set(
    [...targets.exact, ...delegates, ...anchorSymbols, ...quoting, ...raisers].map((s) => s.id),
  );
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
  /** Files that could show more, in the order of `ordered`; `full`: one the query names, shown whole. */
  const clipped: { entry: ExploreFile; p: Plan; lines: string[]; full: boolean }[] = [];
  /** Members of long types shown for the question's words (`wordedMemberWindows`), by qualified name. */
  const wordedMembers = new Map<string, SymbolHit>();

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
      if (namedIds.has(s.id))
        for (const { window, member } of wordedMemberWindows(db, s, c.score, lines, words)) {
          ws.push(window);
          wordedMembers.set(member.qualifiedName, member);
        }
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
    if (named ? blocks.some((b) => b.truncated) : leftOut(p, blocks)) clipped.push({ entry, p, lines, full: named });
  }

  // Second pass: what the others left unspent goes to the files the query names that their ceiling
  // clipped, then to the ranked files that had to leave candidates out, best first (a member of the
  // type the question is about should not go unshown while the answer is half its budget).
  for (const { entry, p, lines, full } of clipped) {
    if (remaining <= 0) break;
    const before = entry.blocks.reduce((n, b) => n + b.lines.reduce((m, l) => m + cost(l), 0), 0);
    const { blocks, used } = fill(windowsFor(p, lines, Infinity, full), lines, before + remaining);
    if (used > before) {
      entry.blocks = blocks;
      remaining -= used - before;
    }
  }

  for (const f of files) {
    // A long type's members shown for the question's words are among the file's symbols, to be named.
    for (const b of f.blocks)
      for (const n of b.symbols) {
        const member = wordedMembers.get(n);
        if (member?.file === f.path && !f.symbols.some((s) => s.id === member.id)) f.symbols.push(member);
      }
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
      dispatch: dispatchOf(db, symbol.id),
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
