import type { IndexedNames, NamedSymbol } from "../query/prompt-names.js";
import { contentWords, isCodeShaped, wordStem } from "../query/explore-parse.js";
import { codeTokens } from "./code-tokens.js";
import { hintSymbols } from "./hint.js";
import { isTaskNotification } from "./notification.js";
import { structuralKeyword, type KeywordMatch } from "./structural.js";

/** A question's anchor words are looked for in its first this many characters (a pasted log adds noise). */
const ANCHOR_SCAN_CHARS = 4000;

/** How much context a prompt earns, and why. */
export type Decision =
  /** A structural, flow, impact or where/how question: explore on the prompt. */
  | { tier: "full"; reason: "keyword"; keyword: KeywordMatch }
  /** A code-shaped token the index has: explore on the prompt. */
  | { tier: "full"; reason: "symbol"; token: string }
  /** Prose words that spell indexed type names: name them, run nothing. */
  | { tier: "hint"; symbols: NamedSymbol[] }
  | {
      tier: "silent";
      /** `unanchored`: a structural phrase, but no word of the prompt is in the index's names ("how is it going"). */
      reason: "empty" | "notification" | "unanchored" | "nothing";
    };

/**
 * The prompt hook's confidence gate: a pure, deterministic function of the prompt and the index's
 * names. A question about structure (in any covered language) or a real symbol written as code earns
 * full context; prose that spells indexed type names earns a short hint; anything else, silence.
 * A structural phrase counts only when the question is anchored in the code base (see anchored).
 * The index is asked only about the tokens and words this one prompt holds.
 */
export function decide(prompt: string, index: IndexedNames): Decision {
  if (!prompt.trim()) return { tier: "silent", reason: "empty" };
  if (isTaskNotification(prompt)) return { tier: "silent", reason: "notification" };
  const keyword = structuralKeyword(prompt);
  if (keyword) {
    return anchored(prompt, keyword, index)
      ? { tier: "full", reason: "keyword", keyword }
      : { tier: "silent", reason: "unanchored" };
  }
  const tokens = codeTokens(prompt);
  const dotted = tokens.qualified.map((text) => ({ text, names: dottedNames(text) }));
  const declared = index.declared([...tokens.names, ...dotted.flatMap((d) => d.names)]);
  const name = tokens.names.find((n) => declared.has(n));
  if (name) return { tier: "full", reason: "symbol", token: name };
  const qualified = dotted.find((d) => d.names.some((n) => declared.has(n)));
  if (qualified) return { tier: "full", reason: "symbol", token: qualified.text };
  const path = tokens.paths.find((p) => index.indexedPath(p.path, p.absolute));
  if (path) return { tier: "full", reason: "symbol", token: path.path };
  const symbols = hintSymbols(tokens.prose, index);
  if (symbols.length) return { tier: "hint", symbols };
  return { tier: "silent", reason: "nothing" };
}

/**
 * Whether a structural question is about this code base: one of its content words, in prose or
 * inside a code token (the keyword's own words aside, a plural `s` dropped), is a word of an indexed
 * name. Small talk that happens to hold a structural phrase ("how is it going") has none.
 */
function anchored(prompt: string, keyword: KeywordMatch, index: IndexedNames): boolean {
  const own = new Set(keyword.pattern.toLowerCase().split(/\W+/));
  const words = contentWords(prompt.slice(0, ANCHOR_SCAN_CHARS)).filter((w) => w.length > 2 && !own.has(w));
  return index.namesHaveWord([...new Set(words.flatMap((w) => [w, wordStem(w)]))]);
}

/**
 * The names that make a dotted token real: its last part (`login` in `user.login`, where `user` is a
 * variable the index cannot know), and any part written as code (`QuerySet` in `QuerySet.frobnicate`).
 */
function dottedNames(text: string): string[] {
  const parts = text.split(".");
  return [...new Set([parts[parts.length - 1]!, ...parts.filter(isCodeShaped)])];
}
