import type { Language, Query } from "web-tree-sitter";
import type { LanguageExtractor } from "../language.js";
import { isHeaderPath } from "../../core/c-family-paths.js";
import { CFamilyFile, C_PATTERNS, blankExportMacros, cFamilyExtract } from "./c-family.js";
import { looksLikeCpp } from "./cpp.js";

/**
 * An Objective-C header: `@interface`, `@protocol`, `@end` or the like at the start of a line, or a
 * method (`- (void)run`, `+ (instancetype)shared`). No grammar here reads Objective-C, and its `.m`
 * files are not indexed. `#import` alone says nothing: C++ headers shared with Objective-C++ use it.
 */
const OBJECTIVE_C =
  /^(?:[ \t]*@(?:interface|protocol|end|implementation|class|property|optional|required)\b|[-+][ \t]*\([^()\n]*\)[ \t]*[A-Za-z_])/m;

/**
 * C: functions and their prototypes, structs, unions, enums, typedefs, globals and macros
 * (object-like as constants, function-like as functions). See `c-family.ts` for what C++ shares.
 * A `.h` whose text is C++ (a class, a namespace, a template...) is parsed as C++ instead, and one
 * whose text is Objective-C is stored as such, with nothing extracted.
 */
export const cExtractor: LanguageExtractor = {
  id: "c",
  grammar: "tree-sitter-c.wasm",
  parseText: blankExportMacros,
  dialect: (source, path) =>
    !isHeaderPath(path)
      ? null
      : OBJECTIVE_C.test(source)
        ? { parseAs: null, language: "objective-c" }
        : looksLikeCpp(source)
          ? { parseAs: "cpp", language: "cpp" }
          : null,
  prepare(language: Language, compile: (source: string) => Query) {
    return cFamilyExtract(language, "tree-sitter-c", C_PATTERNS, compile, (b, f, path) => new CFamilyFile(b, f, path));
  },
};
