import type { LanguageRules, ProjectContext } from "../rules.js";
import { goRules } from "./go.js";
import { javaRules } from "./java.js";
import { pythonRules } from "./python.js";
import { rustRules } from "./rust.js";
import { cRules, cppRules } from "./c.js";
import { csharpRules } from "./csharp.js";
import { kotlinRules } from "./kotlin.js";
import { swiftRules } from "./swift.js";
import { rubyRules } from "./ruby.js";
import { phpRules } from "./php.js";
import { typescriptRules } from "./typescript.js";

/** Resolution rules by language id; TypeScript's serve TSX and JavaScript too. */
export const RULES: Record<string, LanguageRules> = {
  typescript: typescriptRules,
  tsx: typescriptRules,
  javascript: typescriptRules,
  python: pythonRules,
  go: goRules,
  java: javaRules,
  rust: rustRules,
  c: cRules,
  cpp: cppRules,
  csharp: csharpRules,
  kotlin: kotlinRules,
  swift: swiftRules,
  ruby: rubyRules,
  php: phpRules,
};

/**
 * Whether files coming or going may change what a module reference resolves to (see
 * `LanguageRules.moduleMayReach`); for languages that cannot tell, whether any file comes or goes.
 */
export function moduleMayChange(
  ref: { name: string; language: string },
  files: readonly { path: string; packageName: string | null }[],
  ctx: ProjectContext,
): boolean {
  const mayReach = RULES[ref.language]?.moduleMayReach;
  return files.length > 0 && (!mayReach || files.some((f) => mayReach(ref.name, f, ctx)));
}

/** Whether a language's imports name declarations, not whole packages (`LanguageRules.importsDeclarations`). */
export function importsNameDeclarations(language: string): boolean {
  return RULES[language]?.importsDeclarations === true;
}

/**
 * Whether a file of the language sees what the files it imports import, at any depth (C and C++
 * headers through `linkage`): a change to what one file's includes reach changes what its includers see.
 */
export function seesThroughImports(language: string): boolean {
  return RULES[language]?.linkage === true;
}

/** The folder whose files may change crate when a file of this path comes or goes (see `crateFolderBelow`). */
export function crateFolderBelow(language: string, path: string): string | null {
  return RULES[language]?.crateFolderBelow?.(path) ?? null;
}
