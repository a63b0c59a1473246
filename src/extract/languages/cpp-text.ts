/**
 * C++ text the grammar misreads, blanked in the text given to it (the `parseText` hook: same length
 * and line breaks, so positions hold, and names and signatures are read from the file itself).
 */

import { C_COMMENTS, withoutComments } from "../source-text.js";

/** Spaces for every character but line breaks. */
const blank = (text: string) => text.replace(/[^\n]/g, " ");

/**
 * SFINAE's `decltype(expr, std::true_type{})` (react-native-windows' StructInfo.h): the grammar takes
 * no comma in `decltype`, closes it at the comma, and reads the rest as a second declarator, so the
 * function spanned its declarator only and its signature lost `auto` and the return type. The type is
 * the last operand's: the parse sees that one alone, when it is a value made of a type (`T{}`, `T()`).
 */
const DECLTYPE_COMMA = /\bdecltype\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*,)(\s*[\w:]+\s*(?:\{\s*\}|\(\s*\))\s*\))/g;

export function blankDecltypeCommas(source: string): string {
  if (!source.includes("decltype(")) return source;
  return source.replace(DECLTYPE_COMMA, (_all, left: string, last: string) => `decltype(${blank(left)}${last}`);
}

/** A macro's name as such marks are written: upper case with a `_` (a class's constructor has none). */
const MACRO_NAME = "[A-Z][A-Z0-9]*_[A-Z0-9_]*";

/**
 * An upper-case macro invoked alone on a line, with no `;` (`REACT_METHOD(createView)`,
 * `REACT_INIT(Initialize)`, `REACT_METHOD(Close, L"close")`), before the declaration it marks. The
 * grammar read the macro and its argument as a member: a `property` named after the method, or a
 * method named `REACT_METHOD` (react-native-windows: 104 such phantoms), and a string argument broke
 * the class (WebSocketTurboModule.h lost its struct and namespace). Only where declarations are
 * written (a class or namespace body, the file's top), not in a function, where a macro may be a
 * statement; the next line must start a declaration, not go on with the macro's (`{`, `:`, `,`, `=`,
 * `;`, `.`, `-`, `)`, `noexcept`, `const`, ...).
 */
const MEMBER_MACRO = new RegExp(
  String.raw`^([ \t]*)(${MACRO_NAME}[ \t]*\((?:[^()\n;]|\([^()\n;]*\))*\))` +
    String.raw`(?=[ \t]*(?:\/\/[^\n]*)?\r?\n\s*(?!(?:noexcept|const|override|final|throw|try|requires)\b)[^\s{}:,=;.)\-#/])`,
  "gm",
);

const WHOLE_MACRO_NAME = new RegExp(`^${MACRO_NAME}$`);

/** Whether a name is written as a macro's (see `MACRO_NAME`). */
export const isMacroName = (name: string): boolean => WHOLE_MACRO_NAME.test(name);

export function blankMemberMacros(source: string): string {
  MEMBER_MACRO.lastIndex = 0;
  if (!MEMBER_MACRO.test(source)) return source;
  const declares = declarationScopes(source);
  return source.replace(MEMBER_MACRO, (all: string, lead: string, call: string, at: number) =>
    declares(at) ? lead + blank(call) : all,
  );
}

/**
 * Whether an offset is directly where declarations are written: at the file's top, in a namespace or
 * `extern "C"` block, or in a class, struct or union body, by the braces of the text (outside comments,
 * strings and preprocessor lines). What opens a block is the text since the last `;`, `{` or `}`: a class
 * body when it names `class`, `struct` or `union` with no parenthesis after it (not `enum class`, not
 * `template <class T> void f() {`).
 */
function declarationScopes(source: string): (at: number) => boolean {
  const opens: { at: number; declares: boolean }[] = [];
  const closes: number[] = [];
  const stack: number[] = [];
  let head = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") i = lineEnd(source, i);
    else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 1;
    } else if (c === '"' || c === "'") i = quoteEnd(source, i, c);
    else if (c === "#" && /(?:^|\n)[ \t]*$/.test(source.slice(Math.max(0, i - 80), i))) i = directiveEnd(source, i);
    else if (c === ";" || c === "}" || c === "{") {
      if (c === "{") {
        const text = withoutComments(source.slice(head, i), C_COMMENTS);
        stack.push(opens.length);
        opens.push({ at: i, declares: opensDeclarations(text) });
        closes.push(source.length);
      } else if (c === "}") {
        const open = stack.pop();
        if (open !== undefined) closes[open] = i;
      }
      head = i + 1;
    }
  }
  return (at) => {
    // The innermost block holding `at`: the last opened before it that is not closed before it.
    for (let k = opens.length - 1; k >= 0; k--) if (opens[k]!.at < at && closes[k]! > at) return opens[k]!.declares;
    return true;
  };
}

/** Whether the text before a `{` opens a namespace, an `extern "C"` block or a class body. */
function opensDeclarations(head: string): boolean {
  if (/\bnamespace\b[^(){};=]*$/.test(head) || /\bextern[ \t]*"C(?:\+\+)?"\s*$/.test(head)) return true;
  return /\b(?:class|struct|union)\b[^(){};]*$/.test(head) && !/\benum\s+(?:class|struct)\b/.test(head);
}

function lineEnd(source: string, from: number): number {
  const end = source.indexOf("\n", from);
  return end < 0 ? source.length : end;
}

/** The closing quote of a string or character literal, or the line's end when it has none. */
function quoteEnd(source: string, from: number, quote: string): number {
  for (let i = from + 1; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === quote || c === "\n") return i;
  }
  return source.length;
}

/** The end of a preprocessor line, with its continuations. */
function directiveEnd(source: string, from: number): number {
  let end = lineEnd(source, from);
  while (end < source.length && source[end - 1] === "\\") end = lineEnd(source, end + 1);
  return end;
}
