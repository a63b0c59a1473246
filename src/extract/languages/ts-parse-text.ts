/**
 * TypeScript the grammar misreads, rewritten for the parse only (same length, same line breaks; the
 * extractor reads the file's own text). Both are common in libraries written in a functional style
 * (Effect: 193 of its 363 files had syntax errors, 109 with these rewrites; no file of the other
 * TypeScript corpora parses differently, but for comments).
 *
 * 1. Variance annotations on type parameters (`interface Queue<in out A>`, TypeScript 4.7), which the
 *    grammar does not know: blanked.
 * 2. A generic call signature on a line of its own after another member of an object type or an
 *    interface, with no `;` between them (Effect's `dual` overloads):
 *        (that: B): (self: A) => C
 *        <A, B>(self: A, that: B): C
 *    The grammar reads on into it as type arguments of the previous member's type (`C<A, B>`), where
 *    TypeScript ends the member at the line break. A `;` takes the place of the last space before the
 *    `<`, when what comes before (past comments) ends a type.
 */
export function typeScriptParseText(source: string): string {
  VARIANCE.lastIndex = 0;
  const text = VARIANCE.test(source)
    ? source.replace(VARIANCE, (_all, lead: string, mods: string) => lead + " ".repeat(mods.length))
    : source;
  return separateCallSignatures(text);
}

/** `in`, `out` or both after the `<` or `,` of a type parameter list, before the parameter's name. */
const VARIANCE = /([<,]\s*)(in\s+(?:out\s+)?|out\s+)(?=[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))/g;

/** Type parameters and a parameter list, from a `<`: `<A, B extends C<A>>(`. */
const SIGNATURE_START = /<[A-Za-z_$][^\n;{}]*?>[ \t]*\(/y;

/** The last character of a type: a name, a closing bracket, a string literal type's quote; `>` but not `=>`. */
const TYPE_END = /[\w$)\]}"'`]$|[^=]>$/;

/** Lines starting, after at least one space, with a generic call signature (a line scan: twice as fast as a regex). */
function separateCallSignatures(text: string): string {
  let out: string[] | null = null;
  let from = 0;
  for (let nl = text.indexOf("\n"); nl >= 0;) {
    let at = nl + 1;
    let c = text.charCodeAt(at);
    while (c === 0x20 || c === 0x09) c = text.charCodeAt(++at);
    if (c === 0x3c /* < */ && at > nl + 1) {
      SIGNATURE_START.lastIndex = at;
      if (SIGNATURE_START.test(text) && TYPE_END.test(significantBefore(text, nl))) {
        (out ??= []).push(text.slice(from, at - 1), ";");
        from = at;
      }
    }
    nl = text.indexOf("\n", at);
  }
  return out ? out.join("") + text.slice(from) : text;
}

/**
 * The code before `at` (a line break), past blank lines, block comments and whole-line `//` comments:
 * its last few characters, or "" when a line ends in a `//` comment (whether it ends a type is then
 * left unknown, and nothing is inserted).
 */
function significantBefore(text: string, at: number): string {
  let end = at;
  for (let guard = 0; guard < 200 && end > 0; guard++) {
    const lineStart = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(lineStart, end).trimEnd();
    const trimmed = line.trimStart();
    if (!trimmed || trimmed.startsWith("//")) {
      end = lineStart - 1;
      continue;
    }
    if (line.endsWith("*/")) {
      const open = text.lastIndexOf("/*", lineStart + line.length - 2);
      if (open < 0) return "";
      end = open;
      const before = text.slice(text.lastIndexOf("\n", end - 1) + 1, end);
      if (!before.trim()) end = text.lastIndexOf("\n", end - 1);
      continue;
    }
    if (line.includes("//")) return "";
    return line.slice(-2);
  }
  return "";
}
