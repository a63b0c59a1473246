/**
 * Text as the keyword patterns compare it, so a user who types without accents, in capitals, or
 * with Arabic vowel marks still matches: lower case; accents on Latin and Greek letters dropped
 * (`dónde` → `donde`, `πώς` → `πως`, `İ` → `i`); Arabic harakat and hamza marks and Hebrew points
 * dropped; Turkish dotless ı, Russian ё, Arabic ى and ة folded onto their common spellings. Marks
 * that are part of a letter elsewhere (Devanagari vowel signs, Cyrillic й, Japanese voicing) stay.
 */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu, "$1")
    .replace(/[\u064B-\u065F\u0670\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/ı/g, "i")
    .replace(/ё/g, "е")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه");
}

/** Word tokens of folded text: letters, their marks, digits and `_` (so `old_flow` is one word, not `flow`). */
export function words(folded: string): string[] {
  return folded.match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
}
