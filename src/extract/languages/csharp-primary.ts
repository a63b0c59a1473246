/**
 * C# 12 primary constructors (`class OrderService(IOrderRepository repo, ILogger log) : Base(log)`),
 * which the grammar does not know (nor C# 11's `file` types, blanked to plain ones here too): the parse is given the declaration without them (same length,
 * same line breaks), and the extractor reads their parameters from the file's own text. ASP.NET
 * services are written this way, and their calls go through those parameters (`repo.Save()`).
 */

/**
 * `class Name<T>(` or `struct Name(`: the start of a primary constructor's parameter list (not a
 * positional record's, `record struct Pair(A, B)`, which the grammar knows).
 */
const PRIMARY =
  /(?<!\brecord\s+)\b(?:class|struct)\s+[A-Za-z_]\w*\s*(?:<[^<>{};()]*(?:<[^<>{};()]*>[^<>{};()]*)*>)?\s*\(/g;

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

const blank = (s: string) => s.replace(/[^\n]/g, " ");

/** `file` before a type's keyword, past other modifiers. */
const FILE_MODIFIER =
  /\bfile(?=\s+(?:(?:sealed|static|abstract|partial|readonly|unsafe|ref)\s+)*(?:class|struct|interface|record|enum)\b)/g;

/**
 * The text to parse: each primary constructor's parameter list blanked (`(` `)` become `{` `}` where no
 * body follows, so `struct Point(int X, int Y);` still declares a type), and the arguments the
 * declaration passes to its base (`: Base(log)`) blanked.
 */
export function cSharpParseText(source: string): string {
  // C# 11's `file` modifier (a type visible in its file only), which the grammar lacks either.
  let text = source.includes("file") ? source.replace(FILE_MODIFIER, "    ") : source;
  if (!source.includes("class") && !source.includes("struct")) return text;
  for (const m of source.matchAll(PRIMARY)) {
    const open = m.index + m[0].length - 1;
    const close = closing(source, open);
    if (close < 0) continue;
    let after = close + 1;
    while (/\s/.test(source[after] ?? "")) after++;
    const inner = blank(source.slice(open + 1, close));
    text =
      source[after] === ";"
        ? `${text.slice(0, open)}{${inner}}${text.slice(close + 1, after)} ${text.slice(after + 1)}`
        : `${text.slice(0, open)} ${inner} ${text.slice(close + 1)}`;
    if (source[after] !== ":") continue;
    // `: Base(args), IFoo`: the base's constructor arguments.
    const base = /^:\s*[A-Za-z_][\w.]*\s*(?:<[^<>{};()]*(?:<[^<>{};()]*>[^<>{};()]*)*>)?\s*\(/.exec(
      source.slice(after),
    );
    if (!base) continue;
    const argsOpen = after + base[0].length - 1;
    const argsClose = closing(source, argsOpen);
    if (argsClose > 0)
      text = text.slice(0, argsOpen) + blank(source.slice(argsOpen, argsClose + 1)) + text.slice(argsClose + 1);
  }
  return text;
}

/** A parameter of a primary constructor: its name and the written type's name. */
export interface PrimaryParameter {
  name: string;
  /** Where the name is in the file. */
  at: number;
  /** The type without generic arguments, nullability or array brackets (`ILogger<T>?` → `ILogger`); null for a predefined type. */
  typeName: string | null;
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
  const head = /^\s*(?:<[^<>{};()]*(?:<[^<>{};()]*>[^<>{};()]*)*>)?\s*\(/.exec(source.slice(from, from + 2000));
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
  return { name: m[1]!, at: start + m.index, typeName };
}
