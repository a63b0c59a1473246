/**
 * The pure half of explore's target resolution: what a query's text names, found without an index.
 * Paths (quoted, `./`, Windows, absolute, bare tokens with a separator or a source extension, kebab
 * basenames), the line selectors and prose ranges around them, qualified names, code-shaped names and
 * prose word windows. explore-targets.ts looks these up in the index.
 */

/** Line numbers above this are not believed (a pasted id, a byte offset, a timestamp). */
export const MAX_ANCHOR_LINE = 1_000_000;

/** Extensions that make a bare token a path on their own (`compiler.py`, `app.tsx`). */
const SOURCE_EXT =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|java|kt|kts|scala|rb|rs|c|h|cc|cpp|cxx|hpp|hh|cs|php|swift|vue|svelte|dart|ex|exs|lua)$/i;

/** A line or an inclusive range; `end` is null for a single line. */
export interface LineRange {
  start: number;
  end: number | null;
}

export type PathSpanKind =
  /** Clearly a path: a source extension, quotes, `./`, an absolute or Windows spelling. Missing → unresolved. */
  | "explicit"
  /** A bare `a/b` without extension: a path only when it resolves, prose otherwise (`and/or`, `client/server`). */
  | "soft"
  /** An extensionless kebab basename (`query-builder`): a path only when it names at most three files. */
  | "basename";

/** One path mentioned in the query. */
export interface PathSpan {
  /** Offsets in the query of the whole mention: quotes, the path, its selector and a directly following range. */
  start: number;
  end: number;
  /** The path as written (without quotes and selector). */
  raw: string;
  /** Forward slashes; no scheme, drive, `~/`, leading `/`, `./` or `../`; no trailing slash. */
  path: string;
  kind: PathSpanKind;
  /** Written as an absolute or foreign path (`/home/u/...`, `C:\...`, `~/...`, a URL): leading segments may be dropped. */
  absolute: boolean;
  /** The last segment ends with a known source extension. */
  hasExtension: boolean;
  /** Line selectors attached to this mention (`:776`, `#L88-L120`, `, line 941`, ` lines 900-1003`). */
  lines: LineRange[];
}

/** A line range in prose not attached to a path ("lines 900 to 1003", "L900-L1003"): bound to the nearest path. */
export interface FreeRange {
  start: number;
  end: number;
  range: LineRange;
}

/** A valid range from selector numbers, or null (zero, reversed, above MAX_ANCHOR_LINE, not a number). */
export function lineRange(startText: string | undefined, endText?: string | undefined): LineRange | null {
  const start = Number(startText);
  if (!Number.isSafeInteger(start) || start < 1 || start > MAX_ANCHOR_LINE) return null;
  if (endText === undefined || endText === "") return { start, end: null };
  const end = Number(endText);
  if (!Number.isSafeInteger(end) || end < start || end > MAX_ANCHOR_LINE) return null;
  return end === start ? { start, end: null } : { start, end };
}

/**
 * One path segment's characters: word characters and `.-~@+$%`, a bracketed route segment
 * (`[id]`, `[...slug]`), `{id}`, a parenthesised route group followed by a separator (`(auth)/`), and
 * a `:param` right after a separator (`/users/:id`).
 */
const SEG = String.raw`(?:[\w.\-~@+$%]|\[[^\]\s/\\]*\]|\{[\w.]*\}|\([\w.\-]+\)(?=[\\/])|(?<=[\\/]):[A-Za-z_]\w*)`;
const BARE = new RegExp(String.raw`(?:(?:https?|file):\/\/)?(?:[A-Za-z]:(?=[\\/]))?(?:${SEG}|[\\/])+`, "g");
const QUOTED = /(["'`])([^\s"'`]+?)\1/g;
/** `:42`, `:42:7` (line:column, a JS stack frame), `:12-40`, `#L88`, `#L88-L120`, `#L88-120`, `#L8C2-L9C4`. */
const SELECTOR = /^(?::(\d+)(?::\d+|-(\d+))?|#L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?)(?![\w-])/;
/** A range right after a path: `, line 941` (a Python traceback), ` lines 900-1003`, ` at line 5`, ` L900-L1003`. */
const KEYWORD_AFTER =
  /^["'`]?,?[ \t]*(?:(?:at|on|in)\s+)?(?:[Ll]ines?\s+L?|L)(\d+)(?:\s*(?:-|–|—|to|through)\s*L?(\d+))?(?![\w.])/;
/** A bare number directly after a path: `compiler.py 776`, `foo.ts 12-40`. */
const BARE_AFTER = /^["'`]?[ \t]+(\d+)(?:\s*[-–]\s*(\d+))?(?![\w.%])/;
/** A range in prose: `line 776`, `lines 900 to 1003`, `L900-L1003`. */
const FREE_RANGE =
  /(?<![\w#:])(?:[Ll]ines?\s+L?(\d+)(?:\s*(?:-|–|—|to|through)\s*L?(\d+))?|L(\d+)(?:\s*[-–]\s*L?(\d+))?)(?![\w.])/g;

const KEBAB = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

interface Normalised {
  path: string;
  absolute: boolean;
  /** `./`, `../` or a backslash: written as a path on purpose. */
  deliberate: boolean;
}

/** Normalise a written path: separators, scheme, drive, home, leading `/`, `./` and `../`. */
export function normalisePath(raw: string): Normalised {
  let p = raw;
  let absolute = false;
  let deliberate = /\\/.test(p);
  if (/^(?:https?|file):\/\//i.test(p)) {
    absolute = true;
    p = p.replace(/^(?:https?|file):\/\//i, "");
    if (!/^file/i.test(raw)) p = p.replace(/^[^/\\]*/, ""); // the host
  }
  p = p.replace(/\\+/g, "/").replace(/\/{2,}/g, "/");
  if (/^[A-Za-z]:\//.test(p)) {
    absolute = true;
    p = p.slice(3);
  }
  if (p.startsWith("~/")) {
    absolute = true;
    p = p.slice(2);
  }
  if (p.startsWith("/")) {
    absolute = true;
    p = p.replace(/^\/+/, "");
  }
  if (/^\.\.?\//.test(p)) deliberate = true;
  while (/^\.\.?\//.test(p)) p = p.replace(/^\.\.?\//, "");
  p = p.replace(/\/+$/, "");
  return { path: p, absolute, deliberate };
}

/** The last path segment. */
export const basenameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function classify(raw: string, quoted: boolean): Omit<PathSpan, "start" | "end" | "lines"> | null {
  const { path, absolute, deliberate } = normalisePath(raw);
  if (!path || !/[A-Za-z]/.test(path)) return null;
  const base = basenameOf(path);
  const hasExtension = SOURCE_EXT.test(base) && base.lastIndexOf(".") > 0;
  const slash = path.includes("/") || raw.includes("/") || raw.includes("\\");
  let kind: PathSpanKind | null = null;
  // `Node.js`, `Vue.js`: product names, not files, unless they resolve.
  const productName = !quoted && !slash && /^[A-Z][a-z]+\.js$/.test(base);
  // A web page, not a file: only a URL to a source file (a GitHub blob) is a path.
  if (/^https?:\/\//i.test(raw) && !hasExtension) return null;
  if (hasExtension && !productName) kind = "explicit";
  else if (slash && (quoted || absolute || deliberate)) kind = "explicit";
  else if (slash) kind = "soft";
  else if (productName) kind = "soft";
  else if (KEBAB.test(path) && /[A-Za-z]{2}/.test(path) && !/^L\d+-L?\d+$/.test(path)) kind = "basename";
  if (!kind) return null;
  return { raw, path, kind, absolute, hasExtension };
}

/** The selector right after `end`, and where it stops. */
function selectorAt(query: string, end: number): { range: LineRange | null; end: number } | null {
  const m = SELECTOR.exec(query.slice(end));
  if (!m) return null;
  return { range: lineRange(m[1] ?? m[3], m[2] ?? m[4]), end: end + m[0].length };
}

/** A range written right after a mention that ends at `end` (`, line 941`, ` lines 900-1003`, ` 776`). */
function rangeAfter(query: string, end: number): { range: LineRange | null; end: number } | null {
  const rest = query.slice(end);
  const m = KEYWORD_AFTER.exec(rest) ?? BARE_AFTER.exec(rest);
  if (!m) return null;
  return { range: lineRange(m[1], m[2]), end: end + m[0].length };
}

/**
 * Every path mentioned in the query, in order: quoted and backticked paths first claim their text,
 * then bare tokens. Each keeps the selectors attached to it: `path:776`, `path:12-40`, `path:42:7`,
 * `path#L88-L120`, and a range written right after it (`path, line 941`, `path lines 900-1003`,
 * `path 776`). Invalid selectors (zero, reversed, above 1,000,000) are consumed but give no range.
 */
export function parsePathSpans(query: string): PathSpan[] {
  const spans: PathSpan[] = [];
  const claimed: [number, number][] = [];
  const overlaps = (s: number, e: number) => claimed.some(([a, b]) => s < b && a < e);
  const finish = (
    start: number,
    pathEnd: number,
    closeLen: number,
    info: NonNullable<ReturnType<typeof classify>>,
    inner: LineRange | null,
  ) => {
    const lines: LineRange[] = inner ? [inner] : [];
    let end = pathEnd + closeLen;
    const sel = inner ? null : selectorAt(query, end);
    if (sel) {
      if (sel.range) lines.push(sel.range);
      end = sel.end;
    }
    if (!inner && !sel) {
      const after = rangeAfter(query, end);
      if (after?.range) {
        lines.push(after.range);
        end = after.end;
      }
    }
    spans.push({ start, end, ...info, lines });
    claimed.push([start, end]);
  };

  for (const m of query.matchAll(QUOTED)) {
    const content = m[2]!;
    const sel = /^(.*?)(:\d+(?::\d+|-\d+)?|#L\d+(?:C\d+)?(?:-L?\d+(?:C\d+)?)?)$/.exec(content);
    const pathText = sel ? sel[1]! : content;
    const info = classify(pathText, true);
    if (!info) continue;
    const inner = sel ? (selectorAt(sel[2]!, 0)?.range ?? null) : null;
    finish(m.index, m.index + m[0].length - 1, 1, info, inner);
  }
  for (const m of query.matchAll(BARE)) {
    let text = m[0];
    const start = m.index;
    text = text.replace(/[.\-~@+$%]+$/, ""); // sentence punctuation
    if (!text || overlaps(start, start + text.length)) continue;
    if (query[start + m[0].length] === "(" && text === m[0]) continue; // a call: `res.json(...)`
    const info = classify(text, false);
    if (!info) continue;
    finish(start, start + text.length, 0, info, null);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Line ranges in prose outside every span ("lines 900 to 1003", "line 776", "L900-L1003"). */
export function parseFreeRanges(query: string, spans: readonly { start: number; end: number }[]): FreeRange[] {
  const out: FreeRange[] = [];
  for (const m of query.matchAll(FREE_RANGE)) {
    const start = m.index;
    const end = start + m[0].length;
    if (spans.some((s) => start < s.end && s.start < end)) continue;
    const range = lineRange(m[1] ?? m[3], m[2] ?? m[4]);
    if (range) out.push({ start, end, range });
  }
  return out;
}

/** The query with the given [start, end) ranges blanked out (offsets stay valid). */
export function blank(query: string, ranges: readonly { start: number; end: number }[]): string {
  let out = query;
  for (const r of ranges) out = out.slice(0, r.start) + " ".repeat(r.end - r.start) + out.slice(r.end);
  return out;
}

/** The query with the given ranges removed and the leftover spacing and punctuation tidied. */
export function removeRanges(query: string, ranges: readonly { start: number; end: number }[]): string {
  const sorted = [...ranges].sort((a, b) => b.start - a.start);
  let out = query;
  for (const r of sorted) out = `${out.slice(0, r.start)} ${out.slice(r.end)}`;
  return out
    .replace(/\(\s*\)|\[\s*\]|(["'`])\s*\1/g, " ")
    .replace(/(^|\s)[,;:]+(?=\s|$)/g, "$1")
    .replace(/\s+([,.;:!?)]+)(?=\s|$)/g, "$1")
    .replace(/([(])\s+/g, "$1")
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:]+|[\s,;:]+$/g, "");
}

const QUALIFIED = /(?<![\w$.#:/\\-])[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)+/g;
const RECEIVERS = new Set(["this", "self", "cls", "super"]);

/**
 * Qualified names in the text, normalised to dots: `SQLCompiler.as_sql`, `Engine::ServeHTTP` →
 * `Engine.ServeHTTP`, `Foo#bar` → `Foo.bar`, `pkg.Type.Method`. A leading `this.`/`self.` is dropped
 * (what remains is a plain name); `e.g` and `i.e` are prose. Blank paths out first.
 */
export function qualifiedNames(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(QUALIFIED)) {
    const parts = m[0].split(/\.|::|#/);
    while (parts.length && RECEIVERS.has(parts[0]!)) parts.shift();
    if (parts.length < 2) continue;
    const name = parts.join(".");
    if (/^(?:e\.g|i\.e)$/i.test(name) || seen.has(name)) continue;
    seen.add(name);
    out.push({ text: name, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** camelCase, multi-hump PascalCase, ACRONYMWord, snake_case or `$`: a name written as code. */
export function isCodeShaped(token: string): boolean {
  return (
    /[a-z0-9][A-Z]/.test(token) ||
    /^[A-Z]{2,}[a-z]/.test(token) ||
    /[A-Za-z0-9]_[A-Za-z0-9]|^_+[A-Za-z]/.test(token) ||
    token.includes("$")
  );
}

/**
 * The symbol names the text writes in a code shape, for narrowing an ambiguous path to the files
 * that define one: code-shaped identifiers, the last part of each qualified name, and capitalised
 * words that do not start a sentence (`Engine`). Blank paths out first.
 */
export function codeShapedNames(text: string): string[] {
  const names = new Set<string>();
  for (const q of qualifiedNames(text)) names.add(q.text.slice(q.text.lastIndexOf(".") + 1));
  const masked = blank(text, qualifiedNames(text));
  for (const m of masked.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const token = m[0];
    if (isCodeShaped(token)) names.add(token);
    else if (/^[A-Z][a-z0-9]{2,}$/.test(token)) {
      const before = masked.slice(0, m.index).trimEnd();
      if (before && !/[.!?:]$/.test(before)) names.add(token);
    }
  }
  return [...names];
}

/** Grammar, not subject: never the start of a name window. */
const PROSE_STOPWORDS = new Set(
  (
    "a an and are as at be been by can could do does did doing for from how i if in into is it its me my of on or " +
    "our should so than that the their them then there these this those to was we were what when where which who " +
    "whom why will with would you your not no yes any all some code function functions method methods class classes " +
    "file files symbol symbols line lines explain show find look see tell please about happen happens here"
  ).split(" "),
);

/** The lower-case words of an identifier (`feedAtBottom` → feed at bottom, `HTTP_SERVER` → http server). */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$\-.#]+/g, " ")
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * The lower-case content words of a text, in order: words of prose and of code tokens (`feedBottom`
 * gives feed, bottom), without grammar words, numbers and single letters.
 */
export function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
    for (const w of identifierWords(m[0])) {
      if (w.length < 2 || /^\d+$/.test(w) || PROSE_STOPWORDS.has(w)) continue;
      words.push(w);
    }
  }
  return words;
}

/** At most this many word windows are looked up. */
export const MAX_WINDOWS = 24;

/**
 * Adjacent content words of the text, two and three at a time, for matching names built from them
 * ("feed bottom" → [feed, bottom] → `feedAtBottom`). Words come from prose and from inside code
 * tokens (`feedBottom` gives feed, bottom); grammar words, numbers and single letters are skipped.
 * Also returns the identifier tokens written literally, which the caller finds by name already.
 */
export function proseWindows(text: string): { windows: string[][]; literals: Set<string> } {
  const words = contentWords(text);
  const literals = new Set<string>(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const windows: string[][] = [];
  const seen = new Set<string>();
  for (const size of [3, 2]) {
    for (let i = 0; i + size <= words.length; i++) {
      const win = words.slice(i, i + size);
      const key = win.join(" ");
      if (new Set(win).size < size || seen.has(key)) continue;
      seen.add(key);
      windows.push(win);
    }
  }
  // Pairs are the common case ("feed bottom"); keep them all before the long tail of triples.
  windows.sort((a, b) => a.length - b.length);
  return { windows: windows.slice(0, MAX_WINDOWS), literals };
}

/** A word and a name segment are the same modulo a plural `s`. */
const stem = (w: string) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
export const sameWord = (a: string, b: string) => a === b || stem(a) === stem(b);

/** The FTS prefix a word's matches share (`feeds` → `feed`). */
export const wordStem = stem;

/** How a name's segments contain a word window; null when they do not. */
export interface WindowMatch {
  /** Short segments between the window's words (`at` in feed-at-bottom). */
  connectors: number;
  /** Segments before and after the window. */
  extra: number;
}

/**
 * Whether a name's segments contain the words in order, each next word directly after the last or
 * after one short connector segment (three letters or fewer: `at`, `by`, `to`, `db`). The best
 * placement wins: fewest connectors, then fewest extra segments.
 */
export function matchWindow(name: string, window: readonly string[]): WindowMatch | null {
  const segs = identifierWords(name);
  let best: WindowMatch | null = null;
  for (let i = 0; i < segs.length; i++) {
    if (!sameWord(segs[i]!, window[0]!)) continue;
    let at = i;
    let connectors = 0;
    let ok = true;
    for (const w of window.slice(1)) {
      if (at + 1 < segs.length && sameWord(segs[at + 1]!, w)) at += 1;
      else if (at + 2 < segs.length && segs[at + 1]!.length <= 3 && sameWord(segs[at + 2]!, w)) {
        at += 2;
        connectors++;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const extra = segs.length - (at - i + 1);
    if (!best || connectors < best.connectors || (connectors === best.connectors && extra < best.extra)) {
      best = { connectors, extra };
    }
  }
  return best;
}
