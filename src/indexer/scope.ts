import type { IndexingConfig } from "../config/config.js";
import { languageForPath } from "../extract/language.js";
import { BUILTIN_IGNORED_DIRS } from "../scan/ignores.js";
import { scanProject } from "../scan/inventory.js";
import { PathScope } from "../scan/scope.js";

export type { PathKind } from "../scan/scope.js";
export { PathScope };

/** Folder names the index never enters, anywhere (node_modules, .git, .codegraph, ...). */
export const BUILTIN_FOLDERS: readonly string[] = [...BUILTIN_IGNORED_DIRS];

/** Whether the indexer parses a file of this name: some language claims it. */
export function indexesLanguageOf(path: string): boolean {
  return languageForPath(path) !== null;
}

/** The index's scope under one config, as a file watcher needs it. */
export interface ProjectScope {
  /** Asks one path at a time: the same rules as the indexer's walk. */
  paths: PathScope;
  /** Folders the walk enters right now (the root is ""). */
  folders: string[];
  /** Folders it does not enter because of .gitignore or exclude: no need to watch them. */
  ignoredFolders: string[];
}

/**
 * The scope `syncIndex` would apply with `config`, read by the same walk it uses. The walk costs as much
 * as the scan phase of a sync (no parsing), so call it when the scope may have changed, not per event.
 */
export function readProjectScope(root: string, config: IndexingConfig): ProjectScope {
  const inventory = scanProject(root, config, indexesLanguageOf);
  return {
    paths: new PathScope(root, config, indexesLanguageOf),
    folders: inventory.folders,
    ignoredFolders: inventory.ignoredFolders,
  };
}
