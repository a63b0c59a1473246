/**
 * What parsing in this thread needs: the extractors and tree-sitter's glue, most of the CLI's code.
 * Loaded only when there is something to parse, so a sync with nothing to parse, `status` and the
 * read commands do not compile it; the CLI bundles it apart (see scripts/after-build.mjs).
 */
export { parseFile } from "./parse-file.js";
export { grammarSize, preferFastStartup, stopOptimisingWasm } from "../extract/parser.js";
