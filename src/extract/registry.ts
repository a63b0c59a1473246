import type { LanguageExtractor, LanguageId } from "./language.js";
import { typescriptExtractors } from "./languages/typescript.js";
import { pythonExtractor } from "./languages/python.js";
import { goExtractor } from "./languages/go.js";
import { javaExtractor } from "./languages/java.js";
import { rustExtractor } from "./languages/rust.js";
import { cExtractor } from "./languages/c.js";
import { csharpExtractor } from "./languages/csharp.js";
import { phpExtractor } from "./languages/php.js";
import { rubyExtractor } from "./languages/ruby.js";
import { kotlinExtractor } from "./languages/kotlin.js";
import { swiftExtractor } from "./languages/swift.js";
import { cppExtractor } from "./languages/cpp.js";

/** Every language we index. Adding one is one file under `languages/` and one line here. */
export const EXTRACTORS: readonly LanguageExtractor[] = [
  ...typescriptExtractors,
  pythonExtractor,
  goExtractor,
  javaExtractor,
  rustExtractor,
  cExtractor,
  csharpExtractor,
  kotlinExtractor,
  swiftExtractor,
  rubyExtractor,
  cppExtractor,
  phpExtractor,
];

const byId = new Map<LanguageId, LanguageExtractor>(EXTRACTORS.map((e) => [e.id, e]));

/** Endings sorted longest first so `.d.ts` is tried before `.ts`. */
const endings = EXTRACTORS.flatMap((e) => e.extensions.map((ext) => [ext, e.id] as const)).sort(
  (a, b) => b[0].length - a[0].length,
);

/** The language a path is indexed as, or null when we do not index it. */
export function languageForPath(path: string): LanguageId | null {
  const lower = path.toLowerCase();
  for (const [ext, id] of endings) if (lower.endsWith(ext)) return id;
  return null;
}

export function extractorFor(id: LanguageId): LanguageExtractor {
  const e = byId.get(id);
  if (!e) throw new Error(`no extractor for ${id}`);
  return e;
}
