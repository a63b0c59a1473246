import type { Language, Parser, Query, Tree } from "web-tree-sitter";
import type { ExtractResult } from "../core/extraction.js";

/** Identifiers of the languages we index; one extractor file each under `languages/`. */
export type LanguageId =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "java"
  | "rust"
  | "c"
  | "csharp"
  | "kotlin"
  | "swift"
  | "ruby"
  | "cpp"
  | "php";

/**
 * The file endings each language claims, lower case with the dot. Kept here, apart from the
 * extractors, so that what only asks a file's language (the scan, `status`, the read commands, the
 * MCP server) does not load every extractor: 13 ms of every command's start.
 */
const ENDINGS: Readonly<Record<LanguageId, readonly string[]>> = {
  typescript: [".ts", ".mts", ".cts"],
  tsx: [".tsx"],
  javascript: [".js", ".jsx", ".mjs", ".cjs"],
  python: [".py", ".pyi"],
  go: [".go"],
  java: [".java"],
  rust: [".rs"],
  c: [".c", ".h"],
  csharp: [".cs"],
  kotlin: [".kt", ".kts"],
  swift: [".swift"],
  ruby: [".rb", ".rake", ".gemspec"],
  cpp: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  php: [".php"],
};

/** Each ending's language. Every ending is one dot and what follows it, so a path's last dot finds it. */
const BY_ENDING = new Map<string, LanguageId>(
  Object.entries(ENDINGS).flatMap(([id, endings]) => endings.map((ending) => [ending, id as LanguageId] as const)),
);

/**
 * The language a path is indexed as, or null when we do not index it. Asked of every file a scan
 * lists (3,500 on Django): one lookup of the text from the last dot, not a test of each ending.
 */
export function languageForPath(path: string): LanguageId | null {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? null : (BY_ENDING.get(path.slice(dot).toLowerCase()) ?? null);
}

/**
 * What a file's text says it is, when its ending is shared: parsed and extracted as `parseAs`, stored
 * as `language`; or not parsed at all (`parseAs` null), stored as a file of `language` with nothing
 * extracted (an Objective-C `.h`, which no grammar here reads: parsed as C it gave variables named
 * `interface` and `end`).
 */
export type Dialect = { parseAs: LanguageId; language: LanguageId } | { parseAs: null; language: string };

/**
 * One language's extraction: its grammar, and a pure function from a
 * parsed tree to symbols and references. Extractors get the source text so they can slice it instead
 * of pulling text across the WASM boundary node by node.
 */
export interface LanguageExtractor {
  id: LanguageId;
  /** File name of the WASM grammar inside `tree-sitter-wasms/out/`. */
  grammar: string;
  /**
   * Compile queries once per grammar (with `compile`, so this module need not load tree-sitter
   * itself); the returned function runs per file.
   */
  prepare(
    language: Language,
    compile: (source: string) => Query,
  ): (tree: Tree, source: string, path: string) => ExtractResult;
  /**
   * The text the grammar is given, when it differs from the file's: same length, same line breaks,
   * so every offset and position in the tree holds for the file's own text, which extraction reads.
   * C blanks export macros (`_X_EXPORT void f(void);`) that its grammar cannot parse.
   */
  parseText?(source: string): string;
  /**
   * Parses the text its own way, when the grammar leaves as tokens what it can parse in place (Rust's
   * items in `cfg_x! { ... }`). Positions must hold for the file's own text, as for `parseText`.
   */
  parse?(parser: Parser, text: string): Tree | null;
  /**
   * Another grammar this file's text needs, when its ending is shared; null to keep this one. `parseAs`
   * is the language it is parsed and extracted as, `language` what the file is stored as: a `.h`
   * header in C++ is parsed and stored as C++, a Flow-typed `.js` file is parsed as TSX (which reads
   * its type annotations) and stays JavaScript.
   */
  dialect?(source: string, path: string): Dialect | null;
}
