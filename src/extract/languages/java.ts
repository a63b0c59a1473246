import type { LanguageExtractor } from "../language.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";

/** Placeholder until the java extractor lands: files are inventoried, with no symbols yet. */
export const javaExtractor: LanguageExtractor = {
  id: "java",
  extensions: [],
  grammar: "tree-sitter-java.wasm",
  prepare() {
    return (tree, source) => new ExtractionBuilder(source).finish(null, countSyntaxErrors(tree.rootNode));
  },
};
