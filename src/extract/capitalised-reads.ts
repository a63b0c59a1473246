/**
 * Where a source's constants may be read: each name in capitals (`MAX_ROWS`) and each member read
 * through a capitalised name (`Color.RED`, `Level.High`) or in capitals through another name
 * (`settings.DEBUG`), found by one pass over the text. What it finds is only a candidate: the
 * extractor asks the tree whether the name is code (not a string or comment) and whether the file
 * declares or imports it.
 */

/** A read found in the text: `name` at `at`, through `object` when written `Object.name`. */
export interface CapitalisedRead {
  at: number;
  name: string;
  object: string | null;
}

/**
 * A capital letter that starts a word, found by the regular expression engine, which skips the text
 * between about twice as fast as a loop over its characters; the names are then read by hand.
 */
const CAPITAL_START = /\b[A-Z]/g;
const DOT = 46;
const OPEN_PAREN = 40;
const EQUALS = 61;
const GREATER = 62;

/** ASCII letters, digits, `_` and `$`, and any non-ASCII character (which may be a letter). */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c >= 128;
}

function isCapitals(source: string, start: number, end: number): boolean {
  if (end - start < 2) return false;
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return true;
}

/** Whether a name is written as a constant is: in capitals, two characters or more (`MAX_ROWS`, `RED`). */
export function isConstantName(name: string): boolean {
  const first = name.charCodeAt(0);
  return first >= 65 && first <= 90 && isCapitals(name, 0, name.length);
}

/** Whether the name ending at `end` is called or assigned (`f(`, `x =`, not `==` nor `=>`). */
export function calledOrAssigned(source: string, end: number): boolean {
  let i = end;
  while (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9) i++;
  const c = source.charCodeAt(i);
  if (c === OPEN_PAREN) return true;
  if (c !== EQUALS) return false;
  const next = source.charCodeAt(i + 1);
  return next !== EQUALS && next !== GREATER;
}

/**
 * Each candidate read, in order: a name in capitals of two characters or more (`MAX_ROWS`), any
 * member after a capitalised name and the separator (`Level.High`, Rust's `Mode::Fast`), a member in
 * capitals after another name (`settings.DEBUG`); not within a longer name, not after a longer path
 * (`a.b.MAX`), not called and not assigned.
 */
export function capitalisedReads(
  source: string,
  visit: (read: CapitalisedRead) => void,
  separator: "." | "::" = ".",
): void {
  const n = source.length;
  const width = separator.length;
  CAPITAL_START.lastIndex = 0;
  while (CAPITAL_START.test(source)) {
    const i = CAPITAL_START.lastIndex - 1;
    let end = i + 1;
    while (end < n && isNameChar(source.charCodeAt(end))) end++;
    CAPITAL_START.lastIndex = end;
    const before = i > 0 ? source.charCodeAt(i - 1) : 0;
    if (i >= width && source.startsWith(separator, i - width)) {
      memberInCapitals(source, i - width, separator, visit);
      continue;
    }
    if (before === DOT) continue;
    // `\b` knows no `$` nor non-ASCII letters: `$Foo`, `éFoo` continue a longer name.
    if (before === 36 || before >= 128) continue;
    if (!source.startsWith(separator, end)) {
      if (isCapitals(source, i, end) && !calledOrAssigned(source, end))
        visit({ at: i, name: source.slice(i, end), object: null });
      continue;
    }
    // `LOOKUP_SEP.join(..)`, `PI.mul(x)`: the constant is read, whatever is then done with it.
    if (isCapitals(source, i, end)) visit({ at: i, name: source.slice(i, end), object: null });
    const member = end + width;
    let memberEnd = member;
    while (memberEnd < n && isNameChar(source.charCodeAt(memberEnd))) memberEnd++;
    const first = source.charCodeAt(member);
    if (memberEnd > member && !(first >= 48 && first <= 57) && !calledOrAssigned(source, memberEnd))
      visit({ at: member, name: source.slice(member, memberEnd), object: source.slice(i, end) });
    CAPITAL_START.lastIndex = memberEnd;
  }
}

/**
 * `settings.DEBUG` (or `limits::MAX`), at the separator at `sep`: a name in capitals after a name
 * that does not start with a capital.
 */
function memberInCapitals(
  source: string,
  sep: number,
  separator: string,
  visit: (read: CapitalisedRead) => void,
): void {
  let start = sep;
  while (start > 0 && isNameChar(source.charCodeAt(start - 1))) start--;
  const head = source.charCodeAt(start);
  if (start === sep || (head >= 65 && head <= 90) || (head >= 48 && head <= 57)) return;
  if (start >= separator.length && source.startsWith(separator, start - separator.length)) return;
  if (start > 0 && source.charCodeAt(start - 1) === DOT) return;
  const member = sep + separator.length;
  let end = member;
  while (end < source.length && isNameChar(source.charCodeAt(end))) end++;
  if (isCapitals(source, member, end) && !calledOrAssigned(source, end))
    visit({ at: member, name: source.slice(member, end), object: source.slice(start, sep) });
}
