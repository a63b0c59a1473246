import type { Language, Query } from "web-tree-sitter";
import type { LanguageExtractor } from "../language.js";
import { CFamilyFile, C_PATTERNS, blankExportMacros, cFamilyExtract, isHeaderPath } from "./c-family.js";
import { looksLikeCpp } from "./cpp.js";

/**
 * C: functions and their prototypes, structs, unions, enums, typedefs, globals and macros
 * (object-like as constants, function-like as functions). See `c-family.ts` for what C++ shares.
 * A `.h` whose text is C++ (a class, a namespace, a template...) is parsed as C++ instead.
 */
export const cExtractor: LanguageExtractor = {
  id: "c",
  extensions: [".c", ".h"],
  grammar: "tree-sitter-c.wasm",
  parseText: blankExportMacros,
  dialect: (source, path) => (isHeaderPath(path) && looksLikeCpp(source) ? { parseAs: "cpp", language: "cpp" } : null),
  prepare(language: Language, compile: (source: string) => Query) {
    return cFamilyExtract(language, "tree-sitter-c", C_PATTERNS, compile, (b, f, path) => new CFamilyFile(b, f, path));
  },
};
