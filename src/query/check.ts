import { importCycles } from "../graph/cycles.js";
import type { Db } from "../store/database.js";
import { fileDependencyGraph } from "../store/file-deps.js";

export interface CheckOptions {
  /** Only cycles through files under this project-relative folder, or through this file. */
  path?: string;
}

export interface CycleReport {
  /** Each cycle as paths closing on the first: `["a.ts", "b.ts", "a.ts"]`. Sorted. */
  cycles: string[][];
  /** Indexed files the check covered: all of them, or those under `path`. */
  filesChecked: number;
}

/**
 * File-level import cycles: one cycle per tangle of files that import each other, and one per file
 * importing itself. A cycle is an answer, not a failure. With `path`, the whole graph is still walked
 * (a cycle may leave the folder and come back) but only cycles through files under `path` are kept.
 */
export function checkCycles(db: Db, options: CheckOptions = {}): CycleReport {
  const prefix = (options.path ?? "").replace(/^\.(\/|$)/, "").replace(/\/+$/, "");
  const inScope = prefix ? (p: string) => p === prefix || p.startsWith(`${prefix}/`) : undefined;
  const deps = fileDependencyGraph(db);
  return {
    cycles: importCycles(deps, inScope),
    filesChecked: inScope ? deps.paths.filter(inScope).length : deps.paths.length,
  };
}
