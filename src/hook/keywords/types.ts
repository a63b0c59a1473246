/**
 * One language's structural-question keywords, kept as data. A prompt matching any pattern asks
 * about the code's structure, flow, impact, or where/how something happens, and earns full context.
 */
export interface KeywordSet {
  /** BCP 47 tag (`en`, `zh-Hans`). */
  lang: string;
  /** The language's English name, for reports and test names. */
  name: string;
  /**
   * `words`: patterns match whole words, for scripts written with spaces between words. `substring`:
   * patterns match anywhere, for scripts written without them (Chinese, Japanese, Thai) and for Korean,
   * whose particles attach to the word before them.
   */
  match: "words" | "substring";
  /**
   * Phrases, compared after folding (lower case; Latin and Greek accents, Arabic harakat and Hebrew
   * points removed; see ../fold.ts). In `words` sets a word ending in `*` matches any ending
   * (inflections: `вызыва*`), and one starting with `*` any beginning (attached particles: `*كيف`).
   */
  patterns: readonly string[];
}

/**
 * Patterns written as a block of text: separated by `|` or new lines, `#` starts a comment line.
 * Kept this way so a language's list reads as a few lines of phrases rather than one per line.
 */
export function phrases(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .flatMap((line) => line.split("|"))
    .map((p) => p.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}
