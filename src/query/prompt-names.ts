import { TYPE_KINDS } from "../core/kinds.js";
import type { Db } from "../store/database.js";
import { nodesWithWordsNear } from "../store/explore-lookup.js";
import { pathsEndingWith } from "../store/path-suffixes.js";
import { anyNameHasWord, declaredNames } from "../store/name-lookup.js";

/** A declaration a prompt's words may mean, as the hook names it. */
export interface NamedSymbol {
  name: string;
  kind: string;
  file: string;
  line: number;
}

/**
 * The index as the prompt hook's gate sees it: the set of declared names and paths, asked about
 * the few tokens one prompt holds. Read at query time from the existing tables (no table of its own).
 */
export interface IndexedNames {
  /** Of `names`, those some declaration has, exactly. */
  declared(names: readonly string[]): Set<string>;
  /**
   * Whether an indexed file's path is `path` or ends with `/path`. An absolute spelling is written
   * from outside the project: its leading folders may be dropped, down to the file's name.
   */
  indexedPath(path: string, absolute: boolean): boolean;
  /** Whether some declared name has one of these lower-case words among its words (`template` in `TemplateResponse`). */
  namesHaveWord(words: readonly string[]): boolean;
  /** Type declarations (classes, interfaces, ...) whose name's words hold these word prefixes near each other. */
  typesWithWords(stems: readonly string[], limit: number): NamedSymbol[];
}

const TYPES = [...TYPE_KINDS];

/**
 * The gate's view of a project's index, which `open` gives on first use: a prompt the keywords
 * decide, or one with no token and no word pair, never opens it.
 */
export function indexedNames(open: () => Db): IndexedNames {
  return {
    declared: (names) => (names.length ? declaredNames(open(), names) : new Set()),
    indexedPath: (path, absolute) => {
      const parts = path.split("/");
      for (let i = 0; i < (absolute ? parts.length : 1); i++) {
        if (pathsEndingWith(open(), parts.slice(i).join("/"), 1).length) return true;
      }
      return false;
    },
    namesHaveWord: (words) => words.length > 0 && anyNameHasWord(open(), words),
    typesWithWords: (stems, limit) =>
      nodesWithWordsNear(open(), stems, TYPES, limit).map((r) => ({
        name: r.name,
        kind: r.kind,
        file: r.file,
        line: r.startLine,
      })),
  };
}
