import type { LanguageExtractor } from "../language.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";

/** Placeholder until the go extractor lands: files are inventoried, with no symbols yet. */
export const goExtractor: LanguageExtractor = {
  id: "go",
  extensions: [],
  grammar: "tree-sitter-go.wasm",
  prepare() {
    return (tree, source) => new ExtractionBuilder(source).finish(null, countSyntaxErrors(tree.rootNode));
  },
};
