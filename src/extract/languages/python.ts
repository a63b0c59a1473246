import type { LanguageExtractor } from "../language.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";

/** Placeholder until the python extractor lands: files are inventoried, with no symbols yet. */
export const pythonExtractor: LanguageExtractor = {
  id: "python",
  extensions: [],
  grammar: "tree-sitter-python.wasm",
  prepare() {
    return (tree, source) => new ExtractionBuilder(source).finish(null, countSyntaxErrors(tree.rootNode));
  },
};
