import { partlyParsedMentions, type PartlyParsed } from "./partly-parsed.js";
import { echo } from "../core/echo.js";
import { CodegraphError } from "../core/errors.js";
import type { Db } from "../store/database.js";
import { FreshnessProbe, type FileState } from "./freshness.js";
import { resolveIndexedFile, type LineSelector } from "./locate-file.js";
import { DECORATOR_LOOKBACK, decoratorLines } from "./decorators.js";
import {
  capDefinitions,
  DEFINITIONS_LISTED,
  DEFINITIONS_SHOWN,
  findSymbols,
  inFilterFile,
  symbolById,
  toHit,
  type SymbolHit,
} from "./symbols.js";
import { CALLER_KINDS, incoming } from "../graph/traverse.js";
import { declarationsStartingIn } from "../store/symbol-reader.js";
import { fileSuggestions, symbolSuggestions } from "./suggest.js";

/**
 * The most lines one answer shows of a file: file mode's window, a symbol's body, and the largest
 * drifted file served whole (spec: FILE_MODE_MAX_LINES).
 */
export const FILE_MODE_MAX_LINES = 2000;

/** At most this many same-named definitions are shown with their source (as many as callers shows). */
const MAX_DEFINITIONS = DEFINITIONS_SHOWN;

/** What `codegraph_node` (and `codegraph node`) is asked. */
export interface NodeOptions {
  /** A name, qualified name (`Class.method`), node id or uid from search, or a file path (then file mode). */
  symbol?: string;
  /** File mode: a project path, its unique end, or a pasted location (`src/app.ts:42-80`, `#L42-L80`). With `symbol`: the definition in this file. */
  file?: string;
  /** With `symbol` and `file`: the definition enclosing this line. Alone with `file`: the first line to show. */
  line?: number;
  /** File mode: the first line to show (1-based); overrides a pasted selector's start. */
  offset?: number;
  /** File mode: how many lines to show (at most FILE_MODE_MAX_LINES); overrides a pasted range's length. */
  limit?: number;
}

export interface SourceLines {
  file: string;
  startLine: number;
  endLine: number;
  lines: string[];
  totalLines: number;
}

/**
 * Where a symbol's source came from: its stored span of a file proven fresh; the whole current file
 * when the file drifted (stored lines are unsafe then), or nothing.
 */
export type SymbolSourceKind = "span" | "whole-file" | "shown-above" | "omitted-large" | "unavailable";

export interface SymbolView {
  symbol: SymbolHit;
  source: SourceLines | null;
  sourceKind: SymbolSourceKind;
  fileState: FileState;
  /** The body is longer than FILE_MODE_MAX_LINES and was cut there. */
  truncated: boolean;
}

/** Every variant carries `drifted`: files whose current bytes it quotes although they changed since the last sync. */
export type NodeResult =
  | {
      type: "symbols";
      query: string;
      symbols: SymbolView[];
      /** Definitions found; more than `symbols.length` when capped. */
      total: number;
      /** The definitions past those shown, up to DEFINITIONS_LISTED, to pick one from by file and line. */
      others: SymbolHit[];
      /** Says when a `file` or `line` filter matched nothing and every definition is shown instead. */
      note: string | null;
      drifted: string[];
    }
  | {
      type: "file";
      query: string;
      file: string;
      fileState: FileState;
      /** Null when the file could not be read (missing, unreadable, over max_file_size). */
      source: SourceLines | null;
      /** The FILE_MODE_MAX_LINES cap stopped the window before what was asked (or the end of the file). */
      truncated: boolean;
      /** Declarations starting in the window; empty when the file changed since the last sync. */
      symbols: SymbolHit[];
      drifted: string[];
    }
  | { type: "ambiguous"; query: string; candidates: string[]; more: boolean; drifted: string[] }
  | { type: "outside"; query: string; drifted: string[] }
  | { type: "not-found"; query: string; suggestions: string[]; partlyParsed: PartlyParsed[]; drifted: string[] };

/** A file's lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  // Split at "\n" and trim the "\r"s after, rather than split at /\r?\n/: a third of the time on
  // Django's query.py (47 µs against 163), and explore splits every file it quotes.
  const all = text.split("\n");
  if (text.includes("\r")) {
    for (let i = 0; i < all.length - 1; i++) if (all[i]!.endsWith("\r")) all[i] = all[i]!.slice(0, -1);
  }
  if (all.length > 0 && all[all.length - 1] === "") all.pop();
  return all;
}

/** How many lines `splitLines` gives for `text`, counted without making them. */
export function lineCount(text: string): number {
  let n = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return text === "" || text.endsWith("\n") ? n - 1 : n;
}

/**
 * Lines `start`..`end` of `text` (1-based, clamped to its `total` lines), as `splitLines` would give
 * them. Only those lines are made into strings: a symbol's body is a few lines of a file that may
 * have thousands, and splitting all of them was a fifth of a `codegraph_node` call on Django.
 */
export function lineWindow(file: string, text: string, total: number, start: number, end: number): SourceLines {
  const s = Math.max(1, start);
  const e = Math.min(total, end);
  if (e < s) return { file, startLine: s, endLine: s - 1, lines: [], totalLines: total };
  let from = 0;
  for (let line = 1; line < s; line++) from = text.indexOf("\n", from) + 1;
  let to = from;
  for (let line = s; line <= e; line++) {
    const nl = text.indexOf("\n", to);
    to = nl === -1 ? text.length : nl + 1;
  }
  const lines = text.slice(from, to).split(/\r?\n/);
  if (to > from && text[to - 1] === "\n") lines.pop();
  return { file, startLine: s, endLine: e, lines, totalLines: total };
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) {
    throw new CodegraphError("BAD_INPUT", `${name} must be a whole number of 1 or more, not ${value}.`);
  }
  return value;
}

/**
 * A symbol's location, signature and source, or a file's line-numbered text. A string is taken as
 * `{ symbol }`. Not found, ambiguous and outside-the-project are answers, not errors. Every file whose
 * bytes are quoted is first checked against the index; see {@link FreshnessProbe}.
 */
export function nodeView(db: Db, root: string, request: NodeOptions | string): NodeResult {
  const o = typeof request === "string" ? { symbol: request } : request;
  const symbol = o.symbol?.trim() || undefined;
  const file = o.file?.trim() || undefined;
  const opts = {
    line: positive(o.line, "line"),
    offset: positive(o.offset, "offset"),
    limit: positive(o.limit, "limit"),
  };
  if (!symbol && !file) {
    throw new CodegraphError("BAD_INPUT", "Pass a symbol (a name, Class.method or id) or a file path.");
  }
  const probe = new FreshnessProbe(db, root);
  const query = symbol ?? file!;

  if (!symbol) {
    const r = resolveIndexedFile(db, root, file!);
    if (r.type === "file") return fileView(db, probe, query, r.path, r.selector, opts);
    return unresolvedFile(db, query, r);
  }

  let fileFilter: string | undefined;
  let pinLine = opts.line;
  if (file) {
    const r = resolveIndexedFile(db, root, file);
    if (r.type === "outside") return { type: "outside", query: file, drifted: [] };
    if (r.type === "file") {
      fileFilter = r.path;
      pinLine ??= r.selector?.start;
    } else fileFilter = file.replace(/^\.\//, "");
  }

  // The symbol text may itself be a path (the spec lets codegraph_node take a file path).
  const asFile = file ? null : resolveIndexedFile(db, root, symbol);
  if (asFile?.type === "file") return fileView(db, probe, query, asFile.path, asFile.selector, opts);

  // Narrowed by the index when a file is named: there a bare name may mean a member (see findSymbols).
  const inFile = fileFilter ? findSymbols(db, symbol, fileFilter) : [];
  const all = inFile.length ? inFile : definitions(db, symbol);
  if (!all.length) {
    // Checked after the symbols: PHP's `\App\Orders::place` reads as a Windows path.
    if (asFile?.type === "outside") return { type: "outside", query, drifted: [] };
    if (asFile?.type === "ambiguous") return unresolvedFile(db, query, asFile);
    return unresolvedFile(db, query, { type: "none" });
  }
  const { defs, note } = pin(all, symbol, fileFilter, pinLine);
  return symbolsView(probe, query, byUse(db, defs), note);
}

/** A numeric node id or a uid (both as `search --json` shows them), else a name or qualified name. */
function definitions(db: Db, text: string): SymbolHit[] {
  if (/^\d+$/.test(text)) {
    const byId = symbolById(db, Number(text));
    if (byId) return [byId];
  }
  return findSymbols(db, text);
}

/**
 * More definitions than are shown, most used first (callers, references, imports), as callers ranks
 * them: `node as_sql` in Django showed the ten of its 76 that come first by path, all in contrib/gis.
 * Ten or fewer keep their order.
 */
function byUse(db: Db, defs: SymbolHit[]): SymbolHit[] {
  if (defs.length <= MAX_DEFINITIONS) return defs;
  const uses = new Map(
    incoming(
      db,
      defs.map((d) => d.id),
      CALLER_KINDS,
    ).map((rows, i) => [defs[i]!, rows.length]),
  );
  const { shown, listed } = capDefinitions(defs, (d) => uses.get(d)!);
  const rest = new Set([...shown, ...listed]);
  return [...shown, ...listed, ...defs.filter((d) => !rest.has(d))];
}

/** Narrow same-named definitions to one file and the one enclosing a line; a filter that matches nothing is disclosed. */
function pin(
  all: SymbolHit[],
  symbol: string,
  file: string | undefined,
  line: number | undefined,
): { defs: SymbolHit[]; note: string | null } {
  let defs = all;
  if (file) {
    const inFile = defs.filter((d) => inFilterFile(d.file, file));
    if (!inFile.length) {
      return { defs, note: `No definition of ${echo(symbol)} in ${echo(file)}; showing every definition instead.` };
    }
    defs = inFile;
  }
  if (line !== undefined) {
    const enclosing = defs
      .filter((d) => d.startLine <= line && line <= d.endLine)
      .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine));
    if (!enclosing.length) {
      return {
        defs,
        note: `No definition of ${echo(symbol)}${file ? ` in ${echo(file)}` : ""} encloses line ${line}; showing ${defs.length === 1 ? "the one found" : "every one found"}.`,
      };
    }
    defs = [enclosing[0]!];
  }
  return { defs, note: null };
}

/** Lines of decorators or attributes just above a symbol that its stored span leaves out (see decoratorLines). */
function decoratorsAbove(symbol: SymbolHit, text: string, total: number): number {
  if (symbol.startLine <= 1) return 0;
  const from = Math.max(1, symbol.startLine - DECORATOR_LOOKBACK);
  return decoratorLines(symbol.file, lineWindow(symbol.file, text, total, from, symbol.startLine - 1).lines);
}

function symbolsView(probe: FreshnessProbe, query: string, defs: SymbolHit[], note: string | null): NodeResult {
  const wholeShown = new Set<string>();
  const symbols = defs.slice(0, MAX_DEFINITIONS).map((symbol): SymbolView => {
    const check = probe.check(symbol.file);
    const base = { symbol, fileState: check.state, truncated: false };
    if (check.text === null) return { ...base, source: null, sourceKind: "unavailable" };
    const total = lineCount(check.text);
    if (check.fresh) {
      probe.served(symbol.file);
      const first = symbol.startLine - decoratorsAbove(symbol, check.text, total);
      const end = Math.min(symbol.endLine, first + FILE_MODE_MAX_LINES - 1);
      return {
        ...base,
        source: lineWindow(symbol.file, check.text, total, first, end),
        sourceKind: "span",
        truncated: end < symbol.endLine,
      };
    }
    // Drifted: the stored span may point at the wrong bytes, so the whole current file or nothing.
    if (total > FILE_MODE_MAX_LINES) return { ...base, source: null, sourceKind: "omitted-large" };
    if (wholeShown.has(symbol.file)) return { ...base, source: null, sourceKind: "shown-above" };
    wholeShown.add(symbol.file);
    probe.served(symbol.file);
    return { ...base, source: lineWindow(symbol.file, check.text, total, 1, total), sourceKind: "whole-file" };
  });
  const others = defs.slice(MAX_DEFINITIONS, MAX_DEFINITIONS + DEFINITIONS_LISTED);
  return { type: "symbols", query, symbols, total: defs.length, others, note, drifted: probe.drifted() };
}

/**
 * File mode. The window starts at `offset`, else the pasted selector's start, else `line`, else 1; it
 * is `limit` lines long, else the pasted range's length. A single line with no limit (`app.ts:42`)
 * reads from that line on, up to the cap, as a Read with an offset would: the code after a pasted
 * line is what the reader wants next, and the header says which lines came back. The window is never
 * longer than FILE_MODE_MAX_LINES, and says so when that cap cut it.
 *
 * A drifted file is still served at the asked lines: they come from the reader, who sees the file as
 * it is now, not from stored line numbers. Its bytes raise the stale banner, and its stored symbols
 * are left out.
 */
function fileView(
  db: Db,
  probe: FreshnessProbe,
  query: string,
  path: string,
  selector: LineSelector | null,
  o: { line?: number; offset?: number; limit?: number },
): NodeResult {
  const check = probe.check(path);
  if (check.state === "outside") return { type: "outside", query, drifted: [] };
  const base = { type: "file" as const, query, file: path, fileState: check.state };
  if (check.text === null) return { ...base, source: null, truncated: false, symbols: [], drifted: probe.drifted() };
  const total = lineCount(check.text);
  const offset = o.offset ?? selector?.start ?? o.line ?? 1;
  const asked = o.limit ?? (selector?.end !== undefined ? selector.end - selector.start + 1 : undefined);
  const wantedEnd = asked === undefined ? total : Math.min(total, offset + asked - 1);
  const end = Math.min(wantedEnd, offset + FILE_MODE_MAX_LINES - 1);
  const source = lineWindow(path, check.text, total, offset, end);
  if (source.lines.length) probe.served(path);
  return {
    ...base,
    source,
    truncated: end < wantedEnd,
    symbols: check.fresh ? symbolsStartingIn(db, path, source.startLine, source.endLine) : [],
    drifted: probe.drifted(),
  };
}

function unresolvedFile(
  db: Db,
  query: string,
  r: { type: "ambiguous"; candidates: string[]; more: boolean } | { type: "outside" } | { type: "none" },
): NodeResult {
  if (r.type === "ambiguous") return { type: "ambiguous", query, candidates: r.candidates, more: r.more, drifted: [] };
  if (r.type === "outside") return { type: "outside", query, drifted: [] };
  return {
    type: "not-found",
    query,
    suggestions: suggestions(db, query),
    partlyParsed: partlyParsedMentions(db, query),
    drifted: [],
  };
}

/**
 * For a path: indexed files of that name, or of its folder a typo away. For a bare file name
 * (`query.py`): files of that name. For a name: names a typo away, and names containing it.
 */
function suggestions(db: Db, query: string): string[] {
  const path = query.replace(/(:\d[\d-]*|#L\d.*)$/, "");
  if (/[/\\]/.test(path)) return fileSuggestions(db, path);
  const files = fileSuggestions(db, path);
  return files.length ? files : symbolSuggestions(db, path);
}

function symbolsStartingIn(db: Db, path: string, start: number, end: number): SymbolHit[] {
  return declarationsStartingIn(db, path, start, end).map(toHit);
}
