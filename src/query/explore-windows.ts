import { CALL_KINDS, outgoing } from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { membersOf } from "../store/explore-lookup.js";
import { EXPLORE_LIMITS } from "./explore-budget.js";
import { CALLABLES, TYPE_KINDS } from "./explore-rank.js";
import { identifierParts, stem } from "./stem.js";
import { toHit, type SymbolHit } from "./symbols.js";

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

/** Character cost of a source line as rendered (number, spaces, newline). */
export const cost = (line: string) => line.length + 8;

export interface Window {
  /** How much the window matters: the best score of what it shows. Windows are kept best first. */
  score: number;
  start: number;
  end: number;
  /** Where the symbols it shows really end: a window shorter than this was cut. */
  fullEnd: number;
  names: string[];
}

/** Merge overlapping or nearly touching windows (sorted by start) into one. */
export function merge(ws: Window[]): Window[] {
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
export function targetWindows(
  db: Db,
  s: SymbolHit,
  score: number,
  anchoredLines: number[],
  namedIds: Set<number>,
): Window[] {
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

/** Members shown of a long type the query names, by the question's words in their bodies. */
const WORDED_MEMBERS = 2;

/**
 * The members of a long type the query names whose bodies hold the most of the question's other
 * words, at least two of them (then the most uses of them): "how does transaction.atomic create and roll back savepoints" names
 * `Atomic` (160 lines, shown by its head), and its `__enter__` and `__exit__`, whose names say
 * nothing, create and roll back the savepoints in their code.
 */
export function wordedMemberWindows(
  db: Db,
  type: SymbolHit,
  score: number,
  lines: readonly string[],
  words: readonly string[],
): { window: Window; member: SymbolHit }[] {
  if (!TYPE_KINDS.has(type.kind) || type.endLine - type.startLine + 1 <= EXPLORE_LIMITS.symbolLines) return [];
  const own = new Set(identifierParts(type.name).map(stem));
  const stems = [...new Set(words.flatMap(identifierParts).map(stem))].filter((w) => w.length >= 4 && !own.has(w));
  if (stems.length < 2) return [];
  const found = membersOf(db, type.id)
    .filter((m) => CALLABLES.has(m.kind) && m.file === type.file)
    .map((m) => {
      // Words as they start (`treeifyBin` and `TreeNode` hold "tree"; `return` does not hold "turn").
      const parts = identifierParts(lines.slice(m.startLine - 1, m.endLine).join("\n"));
      const uses = stems.map((w) => parts.filter((p) => p.startsWith(w)).length);
      return { m, count: uses.filter((n) => n > 0).length, uses: uses.reduce((a, b) => a + b, 0) };
    })
    .filter((x) => x.count >= 2)
    .sort((a, b) => b.count - a.count || b.uses - a.uses || a.m.startLine - b.m.startLine)
    .slice(0, WORDED_MEMBERS);
  return found.map(({ m }) => ({
    window: {
      score: score - 1,
      start: m.startLine,
      end: Math.min(m.endLine, m.startLine + EXPLORE_LIMITS.symbolLines - 1),
      fullEnd: m.endLine,
      names: [m.qualifiedName],
    },
    member: toHit(m),
  }));
}

/** The window for an ordinary ranked symbol: its body up to a cap (a long type shows only its head). */
export function symbolWindow(s: SymbolHit, score: number, full: boolean): Window {
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

export function fill(ws: Window[], lines: string[], allowance: number): { blocks: ExploreBlock[]; used: number } {
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
