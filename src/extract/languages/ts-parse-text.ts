/**
 * TypeScript the grammar misreads, rewritten for the parse only (same length, same line breaks; the
 * extractor reads the file's own text). All are common in libraries written in a functional style
 * (Effect: 193 of its 363 files had syntax errors, 2 with these rewrites; no file of the other
 * TypeScript corpora parses differently, but for comments).
 *
 * 1. Modifiers the grammar does not know, blanked: of type parameters, variance (`interface Queue<in
 *    out A>`, TypeScript 4.7) and `const` (`<const K extends string>`, 5.0); of class fields,
 *    `accessor` (`accessor count = 0`, 4.9).
 * 2. An escaped backtick (`` \` ``) in a template literal type (`` type M = `use \`Self\`` ``): the
 *    grammar ends the type there. Blanked wherever it is (in a string or a comment, it parses the same).
 * 3. A generic call signature on a line of its own after another member of an object type or an
 *    interface, with no `;` between them (Effect's `dual` overloads):
 *        (that: B): (self: A) => C
 *        <A, B>(self: A, that: B): C
 *    The grammar reads on into it as type arguments of the previous member's type (`C<A, B>`), where
 *    TypeScript ends the member at the line break. A `;` takes the place of the last space before the
 *    `<` (also a `<` alone on its line, opening type parameters written over several lines), when what
 *    comes before, past comments, ends a type.
 */
export function typeScriptParseText(source: string): string {
  return separateCallSignatures(tsxParseText(source));
}

/** The rewrites of `.tsx` files: all but the call signatures' `;` (a `<` starting a line there is JSX). */
export function tsxParseText(source: string): string {
  MODIFIERS.lastIndex = 0;
  let text = MODIFIERS.test(source)
    ? source.replace(MODIFIERS, (_all, lead: string, mods: string) => lead + " ".repeat(mods.length))
    : source;
  if (text.includes("\\`")) text = text.replace(ESCAPED_BACKTICK, "$1  ");
  if (text.includes("accessor")) text = text.replace(ACCESSOR, "$1        ");
  return text;
}

/** `in`, `out`, `const` after the `<` or `,` of a type parameter list, before the parameter's name. */
const MODIFIERS =
  /([<,]\s*)((?:const\s+)?(?:in\s+(?:out\s+)?|out\s+)|const\s+)(?=[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))/g;

/** The `accessor` modifier of a class field (`accessor count = 0`, TypeScript 4.9): first of a member, but for other modifiers. */
const ACCESSOR =
  /((?:^|[{;])[ \t]*(?:(?:public|private|protected|static|readonly|override|declare)[ \t]+)*)accessor(?=[ \t]+#?[A-Za-z_$])/gm;

/** A backtick escaped by a backslash (not one after an escaped backslash, which ends a template). */
const ESCAPED_BACKTICK = /(?<!\\)((?:\\\\)*)\\`/g;

/**
 * Type parameters and a parameter list, from a `<`: `<A, B extends C<A>>(`, or type parameters that go
 * on over the next lines (a `<` alone on its line: prettier's layout of long ones).
 */
const SIGNATURE_START = /<(?:[A-Za-z_$][^\n;]*?>[ \t]*\(|[ \t]*\r?\n)/y;

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
 * The code before `at` (a line break), past blank lines, block comments and `//` comments: its last
 * two characters, or "" when that is unclear (a `//` after a quote may be inside a string), and
 * nothing is inserted.
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
    const comment = line.indexOf("//");
    if (comment < 0) return line.slice(-2);
    // A trailing comment, unless the `//` may be inside a string.
    const code = line.slice(0, comment);
    return /['"`]/.test(code) ? "" : code.trimEnd().slice(-2);
  }
  return "";
}
