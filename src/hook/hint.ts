import { isTestPath } from "../core/test-paths.js";
import { identifierWords, matchWindow, proseWindows, wordStem } from "../query/explore-parse.js";
import type { IndexedNames, NamedSymbol } from "../query/prompt-names.js";

/** A hint names at most this many symbols: a pointer, not an answer. */
export const HINT_SYMBOLS = 5;
/** Full-text hits examined per word window. */
const WINDOW_HITS = 50;

/**
 * Type declarations whose names the prompt's prose spells out, best first: two or more adjacent
 * content words that are consecutive words of the name (`checkout state machine` →
 * `CheckoutStateMachine`, `state machine` too), covering at least half of the name. Only types:
 * a class names a concept, while function names are verb phrases that ordinary requests repeat
 * (`run the tests` is not about `run_tests`). Test files' types come after the others.
 */
export function hintSymbols(prose: string, index: IndexedNames): NamedSymbol[] {
  const best = new Map<string, { symbol: NamedSymbol; score: number }>();
  for (const window of proseWindows(prose).windows) {
    for (const symbol of index.typesWithWords(
      window.map((w) => wordStem(w)),
      WINDOW_HITS,
    )) {
      const m = matchWindow(symbol.name, window);
      if (!m) continue;
      const segments = identifierWords(symbol.name).length;
      const covered = segments - m.extra;
      if (covered * 2 < segments) continue;
      const score = window.length * 10 + (covered / segments) * 5 - m.connectors - (isTestPath(symbol.file) ? 20 : 0);
      const key = `${symbol.name}\0${symbol.file}\0${symbol.line}`;
      const old = best.get(key);
      if (!old || old.score < score) best.set(key, { symbol, score });
    }
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.symbol.name.length - b.symbol.name.length ||
        a.symbol.file.localeCompare(b.symbol.file) ||
        a.symbol.line - b.symbol.line,
    )
    .slice(0, HINT_SYMBOLS)
    .map((b) => b.symbol);
}

/** The hint's text: a few hundred bytes naming the symbols, and what to do with them. */
export function renderHint(symbols: readonly NamedSymbol[]): string {
  const lines = symbols.map((s) => `- ${s.name} (${s.kind}) ${s.file}:${s.line}`);
  return [
    "codegraph: words in this prompt match these indexed symbols (a pointer, not an answer):",
    ...lines,
    "If they are what the prompt means, codegraph_explore with their names shows their code, callers and callees.",
  ].join("\n");
}
