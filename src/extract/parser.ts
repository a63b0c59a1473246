import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Parser, Tree } from "web-tree-sitter";
import type { ExtractResult } from "../core/extraction.js";
import { setV8Flag } from "../core/v8-flag-hook.js";
import type { LanguageExtractor, LanguageId } from "./language.js";
import { binding, queryRunsCutShort, speedUpBinding, speedUpNodes, withFastMatches } from "./wasm-glue.js";
import { extractorFor } from "./registry.js";

const require = createRequire(import.meta.url);
const grammarDir = join(dirname(require.resolve("tree-sitter-wasms/package.json")), "out");

type ExtractFn = (tree: Tree, source: string, path: string) => ExtractResult;

interface Loaded {
  parser: Parser;
  extract: ExtractFn;
  parseText: LanguageExtractor["parseText"];
  parse: LanguageExtractor["parse"];
}

let initialised: Promise<void> | null = null;

/**
 * Compile WASM with V8's baseline compiler only. Its code parses 1.6 to 1.9 times slower (Python,
 * Ruby, PHP, measured warm), but the optimising tier spends a long time compiling each grammar in the
 * background, which a short job (a sync of a few files, a query) pays for without ever gaining from
 * it. V8 flags are process-wide and only affect later compilations, so this must run before the first
 * grammar loads; worker threads started afterwards inherit it.
 */
export function preferFastStartup(): void {
  if (initialised) return;
  stopOptimisingWasm();
}

/**
 * From now on, no WASM function in this process is optimised: those already optimised keep their
 * code, and those about to be queued for it are not. For the end of a parse job, when what remains
 * is too little source in a language to repay compiling its grammar (see `optimisedLanguages`).
 */
export function stopOptimisingWasm(): void {
  setV8Flag("--liftoff-only");
}

/** Bytes of a language's compiled grammar, which the optimising compiler's work grows with. */
export function grammarSize(id: LanguageId): number {
  return statSync(join(grammarDir, extractorFor(id).grammar)).size;
}

const loaded = new Map<LanguageId, Promise<Loaded>>();

// tree-sitter is loaded on first use: commands that only read the index never pay for it.
const treeSitter = () => import("web-tree-sitter");

/**
 * Where web-tree-sitter's own WASM file is. The CLI's bundles include the library (so that their
 * compile cache holds it: compiling it took 9 ms of every sync that parses), and the library looks
 * for the file beside its script, which is then the bundle.
 */
binding.locateFile = (file) => join(dirname(require.resolve("web-tree-sitter")), file);

async function load(id: LanguageId): Promise<Loaded> {
  const { Parser, Language, Query, Node } = await treeSitter();
  initialised ??= Parser.init(binding).then(() => {
    speedUpBinding();
    speedUpNodes(Node);
  });
  await initialised;
  const extractor = extractorFor(id);
  // Read here, not by path: for a path the library loads Node's fs/promises (5 ms) to read it.
  const language = await Language.load(readFileSync(join(grammarDir, extractor.grammar)));
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parser,
    extract: extractor.prepare(language, (source) => withFastMatches(new Query(language, source), Node)),
    parseText: extractor.parseText,
    parse: extractor.parse,
  };
}

/**
 * The last grammar load begun. web-tree-sitter links every grammar into one shared WASM module, and
 * two loads at once can mix up each other's symbols ("bad export type for
 * 'tree_sitter_cpp_external_scanner_create'" while loading JavaScript), so loads take turns.
 */
let lastLoad: Promise<unknown> = Promise.resolve();

/** A parser and compiled queries per language, loaded once per thread on first use. */
export function loadLanguage(id: LanguageId): Promise<Loaded> {
  let p = loaded.get(id);
  if (!p) {
    p = lastLoad.then(() => load(id));
    lastLoad = p.catch(() => {});
    loaded.set(id, p);
  }
  return p;
}

/**
 * Parse one file's text and extract its symbols and references. The tree is freed before
 * returning: WASM memory is not collected by the garbage collector.
 */
export async function extractSource(id: LanguageId, source: string, path: string): Promise<ExtractResult> {
  // A `.h` may be C++, a `.js` file Flow: its text decides.
  const dialect = extractorFor(id).dialect?.(source, path) ?? null;
  if (dialect?.parseAs === null) return { ...emptyResult(), language: dialect.language };
  const { parser, extract, parseText, parse } = await loadLanguage(dialect?.parseAs ?? id);
  const text = parseText ? parseText(source) : source;
  const tree = parse ? parse(parser, text) : parser.parse(text);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${path}`);
  const cutShortBefore = queryRunsCutShort();
  try {
    const result = extract(tree, source, path);
    if (dialect && dialect.language !== id) result.language = dialect.language;
    if (queryRunsCutShort() > cutShortBefore) result.cutShort = true;
    return result;
  } finally {
    tree.delete();
  }
}

/** What a file that is not parsed yields: itself, and nothing in it. */
function emptyResult(): ExtractResult {
  return { symbols: [], refs: [], imports: [], localTypes: [], packageName: null, syntaxErrors: 0 };
}
