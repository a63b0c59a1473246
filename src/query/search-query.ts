import { echo } from "../core/echo.js";
import { CodegraphError } from "../core/errors.js";
import { NODE_KINDS } from "../core/kinds.js";
import type { SearchFilters } from "../store/search-reader.js";
import { searchWords } from "../store/words.js";
import { MAX_PATH_CHARS } from "../core/paths.js";

/** A search query taken apart: the free text, its words, and the field filters written in it. */
export interface ParsedQuery {
  /** The free text with the filters removed, whitespace collapsed. */
  text: string;
  /** Whitespace-separated pieces of the free text. */
  tokens: string[];
  /** The words inside the free text, lower case, in order: `placeOrder handler` → place, order, handler. */
  words: string[];
  /** The free text lower case with everything but letters and digits dropped (`plcae_order` → `plcaeorder`). */
  key: string;
  filters: SearchFilters;
}

const KIND_ALIASES: Record<string, readonly string[]> = {
  fn: ["function"],
  func: ["function"],
  def: ["function", "method"],
  callable: ["function", "method", "constructor"],
  meth: ["method"],
  ctor: ["constructor"],
  cls: ["class"],
  iface: ["interface"],
  type: ["class", "struct", "interface", "trait", "enum", "type_alias"],
  alias: ["type_alias"],
  var: ["variable"],
  const: ["constant"],
  prop: ["property"],
  field: ["property"],
  mod: ["module"],
};

const KINDS: ReadonlySet<string> = new Set(NODE_KINDS);

/**
 * Kinds as given, checked: a misspelt kind (`kind:clas`) would otherwise filter out every symbol and
 * read as "nothing by that name". Files and imports are never hits, so they are no filter either.
 */
function checkedKinds(value: string): string[] {
  const kinds = list(value, KIND_ALIASES);
  const bad = kinds.filter((k) => !KINDS.has(k) || k === "file" || k === "import");
  if (bad.length) {
    const valid = NODE_KINDS.filter((k) => k !== "file" && k !== "import").join(", ");
    throw new CodegraphError(
      "BAD_INPUT",
      `"${echo(bad.join(", "))}" is not a symbol kind. Kinds: ${valid}; or ${Object.keys(KIND_ALIASES).join(", ")}.`,
    );
  }
  return kinds;
}

const LANG_ALIASES: Record<string, readonly string[]> = {
  ts: ["typescript", "tsx"],
  typescript: ["typescript", "tsx"],
  js: ["javascript"],
  jsx: ["javascript"],
  py: ["python"],
  golang: ["go"],
};

const FILTER = /^(kind|lang|language|path):(.*)$/i;

function list(value: string, aliases: Record<string, readonly string[]>): string[] {
  return value
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .flatMap((v) => aliases[v] ?? [v]);
}

/**
 * Words of a query that search weighs; a query past it is a paste, whose first words decide. Each
 * word is a phrase that every full-text pass weighs for every matching row: a thousand of them
 * (`QuerySet.filter0 … QuerySet.filter999`) took 3.7 s.
 */
const MAX_WORDS = 32;

/** The words of a piece of text, split the way names are indexed (see store/words.ts). */
export function textWords(text: string): string[] {
  return searchWords(text.replace(/[^\p{L}\p{N}_$.-]+/gu, " "))
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A LIKE pattern matching `value` anywhere, its own `%`, `_` and `\` taken literally. */
function likeAnywhere(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Parse `kind:method lang:python path:django/db filter`. `kind:` and `lang:` take comma lists and
 * a few aliases (`kind:fn`, `kind:type` for every type kind, `lang:ts`, `lang:py`); several of them
 * add up. `path:` matches a substring of the project-relative path, or the whole path when it holds
 * glob characters (`path:src/*.ts`); the last one wins. `kind` from the caller joins `kind:`. A kind
 * that is none is an error (BAD_INPUT) naming the kinds.
 */
export function parseQuery(query: string, kind?: string): ParsedQuery {
  const kinds: string[] = kind ? checkedKinds(kind) : [];
  const languages: string[] = [];
  let pathLike: string | null = null;
  let pathGlob: string | null = null;
  const tokens: string[] = [];
  for (const token of query.trim().split(/\s+/)) {
    if (!token) continue;
    const m = FILTER.exec(token);
    if (!m || !m[2]) {
      tokens.push(token);
      continue;
    }
    const field = m[1]!.toLowerCase();
    const value = m[2];
    if (field === "kind") kinds.push(...checkedKinds(value));
    else if (field === "path") {
      if (value.length > MAX_PATH_CHARS) {
        throw new CodegraphError(
          "BAD_INPUT",
          `The path: filter takes a folder, a path or a glob of at most ${MAX_PATH_CHARS} characters, not ${value.length}.`,
        );
      }
      const path = value.replace(/^\.\//, "");
      if (/[*?[]/.test(path)) {
        // SQLite's GLOB `*` already crosses folders: `src/**/*.ts` → `src/*.ts`.
        pathGlob = path.replace(/\*\*\/?/g, "*").replace(/\*+/g, "*");
        pathLike = null;
      } else {
        pathLike = likeAnywhere(path);
        pathGlob = null;
      }
    } else languages.push(...list(value, LANG_ALIASES));
  }
  const text = tokens.join(" ");
  return {
    text,
    tokens,
    words: textWords(text).slice(0, MAX_WORDS),
    key: text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""),
    filters: {
      kinds: kinds.length ? [...new Set(kinds)] : null,
      languages: languages.length ? [...new Set(languages)] : null,
      pathLike,
      pathGlob,
    },
  };
}
