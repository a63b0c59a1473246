/** How many lines above a definition are looked at for its decorators or attributes. */
export const DECORATOR_LOOKBACK = 40;

/** How a line holding only a decorator or attribute opens, by the file's extension. */
const OPENERS: readonly [RegExp, RegExp][] = [
  // Python, Java, Kotlin, Swift, TypeScript and JavaScript: `@property`, `@Override`, `@objc`.
  [/\.(pyi?|java|kts?|swift|[cm]?[jt]sx?)$/, /^@[\p{L}_$][\p{L}\p{N}_$.]*/u],
  // Rust's and PHP's attributes: `#[track_caller]`, `#[Route("/x")]`.
  [/\.(rs|php)$/, /^#(?=\[)/],
  // C#'s attributes and C++'s: `[Obsolete]`, `[[nodiscard]]`.
  [/\.(cs|cc|cpp|cxx|hpp|hh|hxx|h)$/, /^(?=\[)/],
];

/**
 * Whether a line holds a decorator alone: its opener, then nothing but bracketed arguments, which
 * may run on past the line (`@pytest.mark.parametrize(`). `@Input() name: string;` is a property
 * declared on its own line, not a decorator of what follows.
 */
function decoratorAlone(line: string, opener: RegExp): boolean {
  const text = line.trim();
  const head = opener.exec(text);
  if (!head) return false;
  let depth = 0;
  for (let i = head[0].length; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0 && !/\s/.test(c)) return text.startsWith("//", i) || text.startsWith("#", i);
    if (depth < 0) return false;
  }
  return true;
}

/** Opening minus closing brackets on a line (strings and comments are not told apart: a heuristic). */
function balance(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === "(" || c === "[" || c === "{") n++;
    else if (c === ")" || c === "]" || c === "}") n--;
  }
  return n;
}

/**
 * How many of the last lines of `above` (the lines just before a definition, in order) are its
 * decorators or attributes, in `path`'s language: `@property`, `@Override`, `#[track_caller]`,
 * `[Obsolete]`. The grammars of Python, Rust, Java, Kotlin, Swift, C# and TypeScript leave them
 * before the line a definition is stored from, and a definition read without them misleads (a
 * `@property` read as a method to call). A decorator's arguments may run over several lines; a doc
 * comment, a blank line or code above ends the run.
 */
export function decoratorLines(path: string, above: readonly string[]): number {
  const opener = OPENERS.find(([file]) => file.test(path))?.[1];
  if (!opener) return 0;
  let count = 0;
  let open = 0; // brackets of the lines taken so far, from the candidate line down to the definition
  for (let i = above.length - 1; i >= 0 && above.length - i <= DECORATOR_LOOKBACK; i--) {
    const line = above[i]!;
    open += balance(line);
    if (open === 0 && decoratorAlone(line, opener)) count = above.length - i;
    else if (open >= 0) break;
  }
  return count;
}
