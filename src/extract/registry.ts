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

/**
 * Every language we index. Adding one is one file under `languages/`, one line here, and its id and
 * file endings in `language.ts`.
 */
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

export function extractorFor(id: LanguageId): LanguageExtractor {
  const e = byId.get(id);
  if (!e) throw new Error(`no extractor for ${id}`);
  return e;
}
