/**
 * C++ text the grammar misreads, blanked in the text given to it (the `parseText` hook: same length
 * and line breaks, so positions hold, and names and signatures are read from the file itself).
 */

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
