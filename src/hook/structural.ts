import { fold, words } from "./fold.js";
import { KEYWORD_SETS, type KeywordSet } from "./keywords/index.js";

/** Only the start of a long prompt is read for keywords: a question is asked there, not in a pasted log. */
const SCAN_CHARS = 4000;

/** One word of a pattern: `*` at an end lets any ending (or beginning) match. */
interface Part {
  text: string;
  anyEnd: boolean;
  anyStart: boolean;
}

interface Compiled {
  lang: string;
  pattern: string;
  parts: Part[];
}

/** A prompt's structural keyword: which language's pattern matched. */
export interface KeywordMatch {
  lang: string;
  pattern: string;
}

/**
 * Each set's words are folded in one call, a line each: folding goes a character at a time and a line
 * break stops nothing it does (nor a word), so each line folds as it would alone, and the hook, which
 * compiles the sets on every prompt, makes 29 calls rather than some 3,000 (about 15 ms).
 */
function foldLines(lines: readonly string[]): string[] {
  return fold(lines.join("\n")).split("\n");
}

function compile(sets: readonly KeywordSet[]) {
  const byFirst = new Map<string, Compiled[]>();
  const wildFirst: Compiled[] = [];
  const substrings: Compiled[] = [];
  for (const set of sets) {
    if (set.match === "substring") {
      const folded = foldLines(set.patterns);
      set.patterns.forEach((pattern, i) =>
        substrings.push({
          lang: set.lang,
          pattern,
          parts: [{ text: squash(folded[i]!), anyEnd: false, anyStart: false }],
        }),
      );
      continue;
    }
    const raws = set.patterns.map((pattern) => pattern.split(" "));
    const folded = foldLines(raws.flat().map((raw) => raw.replace(/^\*|\*$/g, "")));
    let next = 0;
    set.patterns.forEach((pattern, i) => {
      const parts = raws[i]!.flatMap((raw) => {
        const anyStart = raw.startsWith("*");
        const anyEnd = raw.endsWith("*");
        // Folding can split a word (`d'où` → d, où); every piece but the last is exact.
        const pieces = words(folded[next++]!);
        return pieces.map((text, k) => ({
          text,
          anyStart: anyStart && k === 0,
          anyEnd: anyEnd && k === pieces.length - 1,
        }));
      });
      if (!parts.length) return;
      const c = { lang: set.lang, pattern, parts };
      const first = parts[0]!;
      if (first.anyStart || first.anyEnd) wildFirst.push(c);
      else byFirst.set(first.text, [...(byFirst.get(first.text) ?? []), c]);
    });
  }
  return { byFirst, wildFirst, substrings };
}

const squash = (text: string) => text.replace(/\s+/g, " ");

function partMatches(part: Part, word: string): boolean {
  if (part.anyStart && part.anyEnd) return word.includes(part.text);
  if (part.anyStart) return word.endsWith(part.text);
  if (part.anyEnd) return word.startsWith(part.text);
  return word === part.text;
}

function matchesAt(c: Compiled, tokens: readonly string[], i: number): boolean {
  if (i + c.parts.length > tokens.length) return false;
  return c.parts.every((p, k) => partMatches(p, tokens[i + k]!));
}

/**
 * Code, paths and links are not prose: `old_flow.py`, `user.trace` or a URL with `/flow/` in it
 * must not read as the word "flow".
 */
function proseOnly(text: string): string {
  return text
    .replace(/\bhttps?:\/\/\S+/gi, " ")
    .replace(/`[^`\n]*`/g, " ")
    .replace(/[\p{L}\p{N}_$]+(?:[./\\#:]+[\p{L}\p{N}_$]+)+/gu, " ");
}

/** A matcher over some keyword sets: the first pattern the prompt contains, or null. */
export function keywordMatcher(sets: readonly KeywordSet[]): (prompt: string) => KeywordMatch | null {
  const { byFirst, wildFirst, substrings } = compile(sets);
  return (prompt) => {
    const folded = fold(proseOnly(prompt.slice(0, SCAN_CHARS)));
    const tokens = words(folded);
    for (let i = 0; i < tokens.length; i++) {
      for (const c of byFirst.get(tokens[i]!) ?? []) if (matchesAt(c, tokens, i)) return found(c);
      for (const c of wildFirst) if (matchesAt(c, tokens, i)) return found(c);
    }
    const text = squash(folded);
    const c = substrings.find((s) => text.includes(s.parts[0]!.text));
    return c ? found(c) : null;
  };
}

const found = (c: Compiled): KeywordMatch => ({ lang: c.lang, pattern: c.pattern });

let all: ((prompt: string) => KeywordMatch | null) | undefined;

/**
 * The first structural, flow, impact or where/how keyword the prompt contains, in any covered
 * language, or null. Pure: the same prompt always gives the same answer.
 */
export function structuralKeyword(prompt: string): KeywordMatch | null {
  all ??= keywordMatcher(KEYWORD_SETS);
  return all(prompt);
}
