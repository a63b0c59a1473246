import { isTestPath } from "../core/test-paths.js";
import type { Db } from "../store/database.js";
import {
  indexedLineCount,
  innermostCallableAt,
  nodesWithWordsNear,
  pathsDefiningAny,
  pathsWithStem,
  qualifiedCandidates,
  type QualifiedRow,
} from "../store/explore-lookup.js";
import { fileRecord } from "../store/file-lookup.js";
import { pathsEndingWith } from "../store/path-suffixes.js";
import {
  blank,
  codeShapedNames,
  matchWindow,
  parseFreeRanges,
  parsePathSpans,
  proseWindows,
  qualifiedNames,
  removeRanges,
  wordStem,
  type LineRange,
  type PathSpan,
} from "./explore-parse.js";
import { toHit, type SymbolHit } from "./symbols.js";

/** A file the query names by path, pinned to the front of the answer. */
export interface PinnedFile {
  path: string;
  /** `exact`: the indexed path as written (after normalising); `suffix`: a segment-aligned tail; `basename`: a kebab name. */
  match: "exact" | "suffix" | "basename";
  /** The path as the query wrote it (no quotes or selector). */
  written: string;
}

/** A line or range of a pinned file the query points at. */
export interface LineAnchor {
  path: string;
  startLine: number;
  endLine: number;
  /** The anchored line of a single-line anchor; null for a range. */
  line: number | null;
  /** The innermost callable enclosing a single-line anchor. */
  symbol: SymbolHit | null;
  /** A range, or a line no callable encloses: render this span (±15 lines for a bare line). */
  span: boolean;
}

/** What an explore query explicitly names, resolved against the index. */
export interface ExploreTargets {
  /** ≤ 8 and ≤ maxFiles; exact matches before suffix matches before kebab basenames. */
  pinned: PinnedFile[];
  /** Files an ambiguous path/basename matched but that define none of the named symbols (≤ 10). */
  setAside: string[];
  /** Explicit paths that matched nothing, as written, ≤ 4. */
  unresolved: string[];
  anchors: LineAnchor[];
  /** Qualified names (SQLCompiler.as_sql, Engine::ServeHTTP, a.b.c) with ≤ 3 non-test definitions. */
  exact: SymbolHit[];
  /** Callables, variables and constants whose names are built from adjacent query words ("feed bottom" → feedAtBottom), best first, ≤ 10. */
  seeds: SymbolHit[];
  /** Names the query writes in a code shape (camelCase, PascalCase, snake_case, `$`, the last part of a qualified name). */
  named: string[];
  /** The query without resolved or clearly missing explicit paths, their line selectors and the ranges bound to them. */
  residual: string;
}

/** The bounds of target resolution. */
export const EXPLORE_TARGET_LIMITS = {
  /** Path mentions looked up (distinct paths; explicit and slashed ones before kebab basenames). */
  spans: 8,
  pins: 8,
  unresolved: 4,
  setAside: 10,
  /** Leading segments that may be dropped from a path that does not match whole. */
  dropSegments: 8,
  /** A path or basename matching more files than this is pinned only when named symbols narrow it. */
  ambiguous: 3,
  /** Files one path may match before narrowing (the rest are not examined). */
  candidates: 200,
  /** Distinct (file, qualified name) definitions a qualified name may have to be an exact target. */
  exactDefinitions: 3,
  qualified: 8,
  seeds: 10,
  /** Definitions of one name among the seeds. */
  seedsPerName: 3,
  /** FTS hits examined per word window. */
  windowHits: 400,
  /** Lines either side of a bare line no callable encloses. */
  lineContext: 15,
} as const;

const SEED_KINDS = ["function", "method", "constructor", "variable", "constant"] as const;
const CALLABLES = new Set(["function", "method", "constructor"]);
const MATCH_ORDER = { exact: 0, suffix: 1, basename: 2 } as const;

type Lookup = { paths: string[]; match: PinnedFile["match"] };

/**
 * The indexed files a path mention may mean: the exact path, else segment-aligned suffix matches
 * (and, for a path written without extension, files whose name without extension matches); when
 * the whole path matches nothing, up to eight leading segments are dropped one by one (an absolute
 * path from another machine, a URL, a path from above the project root). A remainder of one segment
 * then only matches a root-level file exactly, so `lib/x/app.ts` never falls back to every `app.ts`.
 */
function lookupPath(db: Db, span: PathSpan): Lookup {
  const cap = EXPLORE_TARGET_LIMITS.candidates + 1;
  if (span.kind === "basename") return { paths: pathsWithStem(db, span.path, cap), match: "basename" };
  const segs = span.path.split("/");
  const maxDrop = Math.min(EXPLORE_TARGET_LIMITS.dropSegments, segs.length - 1);
  for (let drop = 0; drop <= maxDrop; drop++) {
    const rest = segs.slice(drop).join("/");
    if (fileRecord(db, rest)) return { paths: [rest], match: "exact" };
    if (drop > 0 && segs.length - drop < 2) continue;
    let found = pathsEndingWith(db, rest, cap);
    if (!found.length && !span.hasExtension) found = pathsWithStem(db, rest, cap);
    if (found.length) return { paths: found, match: "suffix" };
  }
  return { paths: [], match: "suffix" };
}

type Status =
  | { type: "resolved"; lookup: Lookup; files: string[]; setAside: string[] }
  | { type: "ambiguous" }
  | { type: "missing" }
  | { type: "prose" };

/** What the query names in code shape, for narrowing an ambiguous path. */
interface Named {
  /** Files defining what a qualified name means (`Model.save` → django/db/models/base.py). */
  qualifiedFiles: ReadonlySet<string>;
  /** Code-shaped names and the last part of each qualified name. */
  names: readonly string[];
}

/**
 * How one path mention resolves. Several matches and code-shaped names in the query: only the
 * matches defining one of those names are pinned (a qualified name's own definitions first, then
 * any definition of a named name) and the rest set aside. Matches that no name narrows are all
 * pinned when there are at most three, and none when there are more.
 */
function resolveSpan(db: Db, span: PathSpan, named: Named): Status {
  const lookup = lookupPath(db, span);
  const { paths } = lookup;
  if (!paths.length) return { type: span.kind === "explicit" ? "missing" : "prose" };
  const limit = EXPLORE_TARGET_LIMITS.ambiguous;
  if (paths.length > 1) {
    const tiers = [
      () => new Set(paths.filter((p) => named.qualifiedFiles.has(p))),
      () => pathsDefiningAny(db, paths, named.names),
    ];
    for (const tier of tiers) {
      const defining = tier();
      if (defining.size > 0 && defining.size <= limit) {
        const files = paths.filter((p) => defining.has(p));
        return { type: "resolved", lookup, files, setAside: paths.filter((p) => !defining.has(p)) };
      }
    }
  }
  if (paths.length > limit) return { type: span.kind === "basename" ? "prose" : "ambiguous" };
  return { type: "resolved", lookup, files: paths, setAside: [] };
}

/** Nearest span to a range by character distance; ties go to the span written first. */
function nearest<T extends { start: number; end: number }>(spans: readonly T[], at: { start: number; end: number }) {
  let best: T | null = null;
  let bestDistance = Infinity;
  for (const s of spans) {
    const d = at.start >= s.end ? at.start - s.end : Math.max(0, s.start - at.end);
    if (d < bestDistance) {
      best = s;
      bestDistance = d;
    }
  }
  return best;
}

function anchorFor(db: Db, path: string, range: LineRange): LineAnchor {
  const lines = indexedLineCount(db, path);
  const clamp = (n: number) => (lines !== null && n > lines && range.start <= lines ? lines : n);
  if (range.end !== null) {
    return { path, startLine: range.start, endLine: clamp(range.end), line: null, symbol: null, span: true };
  }
  const line = range.start;
  const row = innermostCallableAt(db, path, line);
  if (row) return { path, startLine: line, endLine: line, line, symbol: toHit(row), span: false };
  const context = EXPLORE_TARGET_LIMITS.lineContext;
  return {
    path,
    startLine: Math.max(1, line - context),
    endLine: clamp(line + context),
    line,
    symbol: null,
    span: true,
  };
}

/** Does `leading` (dotted) name the row's package, module file or folder (`gin`, `django.db.models.query`)? */
function leadingMatches(row: QualifiedRow, leading: string): boolean {
  if (row.package && (row.package === leading || leading.endsWith(`.${row.package}`))) return true;
  const dotted = (p: string) => p.replace(/\.[^./]+$/, "").replace(/\//g, ".");
  const file = dotted(row.file);
  const dir = row.file.includes("/") ? row.file.slice(0, row.file.lastIndexOf("/")).replace(/\//g, ".") : "";
  const aligned = (whole: string) => whole === leading || whole.endsWith(`.${leading}`);
  return aligned(file) || (dir !== "" && aligned(dir));
}

/**
 * The definitions a qualified name means: qualified name equal to it or ending with it, or a
 * dotted tail of it whose leading parts name the package, module or folder (`gin.Engine.ServeHTTP`,
 * `django.db.models.query.QuerySet`). A tail of two or more parts is accepted unchecked when nothing
 * checks out.
 */
function qualifiedDefinitions(db: Db, text: string): QualifiedRow[] {
  const name = text.slice(text.lastIndexOf(".") + 1);
  const rows = qualifiedCandidates(db, name, text, 100);
  const direct: QualifiedRow[] = [];
  const checked: QualifiedRow[] = [];
  const loose: QualifiedRow[] = [];
  for (const r of rows) {
    if (r.qualifiedName === text || r.qualifiedName.endsWith(`.${text}`)) direct.push(r);
    else if (leadingMatches(r, text.slice(0, text.length - r.qualifiedName.length - 1))) checked.push(r);
    else if (r.qualifiedName.includes(".")) loose.push(r);
  }
  return direct.length || checked.length ? [...direct, ...checked] : loose;
}

/** Exact targets among a qualified name's definitions: at most three non-test ones (test ones only when there are no others). */
function exactOf(defs: readonly QualifiedRow[]): SymbolHit[] {
  const nonTest = defs.filter((d) => !isTestPath(d.file));
  const chosen = nonTest.length ? nonTest : defs;
  const definitions = new Set(chosen.map((d) => `${d.file}\0${d.qualifiedName}`));
  if (!chosen.length || definitions.size > EXPLORE_TARGET_LIMITS.exactDefinitions) return [];
  return chosen.map(({ package: _package, ...row }) => toHit(row));
}

/** Seeds from word windows: names containing the words in order, fewest connectors and extra parts first. */
function wordSeeds(db: Db, text: string, exclude: ReadonlySet<number>): SymbolHit[] {
  const { windows, literals } = proseWindows(text);
  const best = new Map<number, { hit: SymbolHit; score: number }>();
  for (const window of windows) {
    const rows = nodesWithWordsNear(
      db,
      window.map((w) => wordStem(w)),
      SEED_KINDS,
      EXPLORE_TARGET_LIMITS.windowHits,
    );
    for (const row of rows) {
      if (exclude.has(row.id) || literals.has(row.name)) continue;
      const m = matchWindow(row.name, window);
      if (!m || m.extra > 3) continue;
      const score =
        window.length * 10 -
        m.connectors -
        2 * m.extra -
        (isTestPath(row.file) ? 15 : 0) +
        (CALLABLES.has(row.kind) ? 1 : 0) +
        (row.exported ? 0.5 : 0);
      const old = best.get(row.id);
      if (!old || old.score < score) best.set(row.id, { hit: toHit(row), score });
    }
  }
  const perName = new Map<string, number>();
  return [...best.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.hit.name.localeCompare(b.hit.name) ||
        a.hit.file.localeCompare(b.hit.file) ||
        a.hit.startLine - b.hit.startLine,
    )
    .filter(({ hit }) => {
      const n = (perName.get(hit.name) ?? 0) + 1;
      perName.set(hit.name, n);
      return n <= EXPLORE_TARGET_LIMITS.seedsPerName;
    })
    .slice(0, EXPLORE_TARGET_LIMITS.seeds)
    .map(({ hit }) => hit);
}

/**
 * What an explore query explicitly names: files by path (pinned, with the ones an ambiguous path
 * set aside and the explicit paths that matched nothing), line anchors on files that resolved
 * uniquely, qualified names with few definitions (exact targets), and names built from adjacent
 * prose words (seeds, for the caller to dampen). `residual` is the query without the paths and
 * selectors that were resolved or are clearly missing, for the ordinary term search.
 */
export function exploreTargets(db: Db, query: string, options: { maxFiles: number }): ExploreTargets {
  const L = EXPLORE_TARGET_LIMITS;
  const spans = parsePathSpans(query);
  const freeRanges = parseFreeRanges(query, spans);
  const masked = blank(query, [...spans, ...freeRanges]);
  const qualified = qualifiedNames(masked).slice(0, L.qualified);
  const definitions = qualified.map((q) => qualifiedDefinitions(db, q.text));
  const named: Named = {
    qualifiedFiles: new Set(definitions.flat().map((d) => d.file)),
    names: codeShapedNames(masked),
  };

  // Distinct paths, explicit and slashed mentions before kebab basenames, at most L.spans of them.
  const order = [...spans.filter((s) => s.kind !== "basename"), ...spans.filter((s) => s.kind === "basename")];
  const statuses = new Map<string, Status>();
  for (const span of order) {
    if (statuses.has(span.path) || statuses.size >= L.spans) continue;
    statuses.set(span.path, resolveSpan(db, span, named));
  }

  const candidates: (PinnedFile & { at: number })[] = [];
  const setAside = new Set<string>();
  const unresolved: string[] = [];
  const removed: { start: number; end: number }[] = [];
  for (const span of spans) {
    const status = statuses.get(span.path);
    if (!status) continue;
    if (status.type === "missing") {
      if (unresolved.length < L.unresolved && !unresolved.includes(span.raw)) unresolved.push(span.raw);
      removed.push(span);
    } else if (status.type === "resolved") {
      removed.push(span);
      for (const path of status.files)
        candidates.push({ path, match: status.lookup.match, written: span.raw, at: span.start });
      for (const path of status.setAside) setAside.add(path);
    }
  }
  const maxPins = Math.max(0, Math.min(L.pins, Math.floor(options.maxFiles)));
  const pinned: PinnedFile[] = [];
  for (const c of candidates.sort((a, b) => MATCH_ORDER[a.match] - MATCH_ORDER[b.match] || a.at - b.at)) {
    if (pinned.length >= maxPins) break;
    if (!pinned.some((p) => p.path === c.path)) pinned.push({ path: c.path, match: c.match, written: c.written });
  }
  for (const p of pinned) setAside.delete(p.path);

  // Anchors: selectors on a mention that resolved to exactly one pinned file, and prose ranges bound to the nearest such mention.
  const single = spans.flatMap((span) => {
    const status = statuses.get(span.path);
    if (status?.type !== "resolved" || status.files.length !== 1) return [];
    const path = status.files[0]!;
    return pinned.some((p) => p.path === path) ? [{ start: span.start, end: span.end, span, path }] : [];
  });
  const wanted: { path: string; range: LineRange }[] = [];
  for (const s of single) for (const range of s.span.lines) wanted.push({ path: s.path, range });
  for (const free of freeRanges) {
    const to = nearest(single, free);
    if (!to) continue;
    wanted.push({ path: to.path, range: free.range });
    removed.push(free);
  }
  const anchors: LineAnchor[] = [];
  const anchored = new Set<string>();
  for (const w of wanted) {
    const key = `${w.path}\0${w.range.start}\0${w.range.end}`;
    if (anchored.has(key)) continue;
    anchored.add(key);
    anchors.push(anchorFor(db, w.path, w.range));
  }

  // Exact targets: qualified names outside every path mention, with few definitions.
  const exact: SymbolHit[] = [];
  const exactIds = new Set<number>();
  for (const defs of definitions) {
    for (const hit of exactOf(defs)) {
      if (exactIds.has(hit.id)) continue;
      exactIds.add(hit.id);
      exact.push(hit);
    }
  }

  const residual = removeRanges(query, removed);
  // Seeds come from the prose left over: kebab words and slashed words that named no file stay.
  const prose = blank(query, [...removed, ...spans.filter((s) => s.kind === "explicit"), ...qualified]);
  const seeds = wordSeeds(db, prose, exactIds);
  return {
    pinned,
    setAside: [...setAside].slice(0, L.setAside),
    unresolved,
    anchors,
    exact,
    seeds,
    named: [...named.names],
    residual,
  };
}
