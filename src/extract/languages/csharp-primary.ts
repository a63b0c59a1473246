/**
 * C# 12 primary constructors (`class OrderService(IOrderRepository repo, ILogger log) : Base(log)`)
 * and C# 11 `file` types, which the grammar does not know: the parse is given the declarations
 * without them (same length, same line breaks), and the extractor reads a primary constructor's
 * parameters from the file's own text. ASP.NET services are written this way, and their calls go
 * through those parameters (`repo.Save()`).
 */

import { CSHARP_KEYWORD_TYPES } from "../../core/csharp-keyword-types.js";

/** Type arguments or parameters, one level of nesting: `<T>`, `<K, List<V>>`. */
const GENERIC = String.raw`(?:<[^<>{};()]*(?:<[^<>{};()]*>[^<>{};()]*)*>)?`;

/**
 * `class Name<T>(` or `struct Name(`: the start of a primary constructor's parameter list (not a
 * positional record's, `record struct Pair(A, B)`, which the grammar knows).
 */
const PRIMARY = new RegExp(String.raw`(?<!\brecord\s+)\b(?:class|struct)\s+[A-Za-z_]\w*\s*${GENERIC}\s*\(`, "g");

/** After a primary constructor, `: Base<T>(`: a base given constructor arguments. */
const BASE_CALL = new RegExp(String.raw`\s*:\s*[A-Za-z_][\w.]*\s*${GENERIC}\s*\(`, "y");

/** After a type's name, its type parameters and the `(` of a primary constructor. */
const PARAMETERS_START = new RegExp(String.raw`\s*${GENERIC}\s*\(`, "y");

/** `file` before a type's keyword, past other modifiers. */
const FILE_MODIFIER =
  /\bfile(?=\s+(?:(?:sealed|static|abstract|partial|readonly|unsafe|ref)\s+)*(?:class|struct|interface|record|enum)\b)/g;

/** The index of the `)` closing the `(` at `open`, past nested brackets and quoted text; -1 if none. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === "(" || c === "[" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === ">") {
      depth--;
      if (depth === 0) return c === ")" ? i : -1;
    } else if (c === "{" || c === ";") return -1;
  }
  return -1;
}

/** `text` with `from`..`to` replaced by `by`, of the same length. */
const splice = (text: string, from: number, to: number, by: string) => text.slice(0, from) + by + text.slice(to);

const blank = (s: string) => s.replace(/[^\n]/g, " ");

/**
 * The text to parse: `file` modifiers and each primary constructor's parameter list blanked (its `(`
 * `)` become `{` `}` where no body follows, so `struct Point(int X, int Y);` still declares a type),
 * and the arguments the declaration passes to its base (`: Base(log)`) blanked.
 */
export function cSharpParseText(source: string): string {
  let text = source.includes("file") ? source.replace(FILE_MODIFIER, "    ") : source;
  if (!source.includes("class") && !source.includes("struct")) return text;
  for (const m of source.matchAll(PRIMARY)) {
    const open = m.index + m[0].length - 1;
    const close = closing(source, open);
    if (close < 0) continue;
    let after = close + 1;
    while (/\s/.test(source[after] ?? "")) after++;
    if (source[after] === ";") {
      text = splice(
        text,
        open,
        after + 1,
        `{${blank(source.slice(open + 1, close))}}${source.slice(close + 1, after)} `,
      );
      continue;
    }
    text = splice(text, open, close + 1, blank(source.slice(open, close + 1)));
    BASE_CALL.lastIndex = close + 1;
    const base = BASE_CALL.exec(source);
    if (!base) continue;
    const argsOpen = base.index + base[0].length - 1;
    const argsClose = closing(source, argsOpen);
    if (argsClose > 0) text = splice(text, argsOpen, argsClose + 1, blank(source.slice(argsOpen, argsClose + 1)));
  }
  return text;
}

/** A parameter of a primary constructor: its name and the written type's name. */
export interface PrimaryParameter {
  name: string;
  /** The type without generic arguments, nullability or array brackets (`ILogger<T>?` → `ILogger`); null for a predefined type. */
  typeName: string | null;
  /** The type of its value: `typeName`, or a keyword type's System name (`string` → `String`). */
  valueType: string | null;
}

const PREDEFINED = new Set(
  "bool byte sbyte char decimal double float int uint nint nuint long ulong short ushort object string dynamic var".split(
    " ",
  ),
);

/**
 * The parameters of the primary constructor following a type's name (and type parameters), read from
 * the file's text at `from`; empty when there is none.
 */
export function primaryParameters(source: string, from: number): PrimaryParameter[] {
  PARAMETERS_START.lastIndex = from;
  const head = PARAMETERS_START.exec(source);
  if (!head) return [];
  const open = from + head[0].length - 1;
  const close = closing(source, open);
  if (close < 0) return [];
  const out: PrimaryParameter[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i <= close; i++) {
    const c = source[i];
    if (c === "(" || c === "[" || c === "<") depth++;
    else if ((c === ")" || c === "]" || c === ">") && i < close) depth--;
    if ((c === "," && depth === 0) || i === close) {
      const param = parameter(source, start, i);
      if (param) out.push(param);
      start = i + 1;
    }
  }
  return out;
}

/** `[Attr] in Type<A> name = value` between `start` and `end`. */
function parameter(source: string, start: number, end: number): PrimaryParameter | null {
  let text = source.slice(start, end);
  const eq = text.indexOf("=");
  if (eq >= 0) text = text.slice(0, eq);
  const m = /([A-Za-z_]\w*)\s*$/.exec(text);
  if (!m) return null;
  const type = text
    .slice(0, m.index)
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:ref|in|out|params|this|scoped)\s+/g, " ")
    .replace(/<.*>/, "")
    .replace(/[?\s]/g, "");
  const typeName = /^[A-Za-z_][\w.]*$/.test(type) && !PREDEFINED.has(type) ? type : null;
  return { name: m[1]!, typeName, valueType: typeName ?? CSHARP_KEYWORD_TYPES.get(type) ?? null };
}
