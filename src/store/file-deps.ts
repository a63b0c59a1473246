import type { Db } from "./database.js";

/**
 * The file-level import graph, compact enough for millions of imports (a Java wildcard import is an
 * edge to every file of the package): every indexed file's path, sorted, and one (from, to) pair of
 * indexes into `paths` per importing and imported file, however many import statements join them.
 */
export interface FileDepGraph {
  paths: string[];
  from: Int32Array;
  to: Int32Array;
}

/**
 * Read the file-level import graph. `imports` edges point at the imported module's file node (the
 * target's file); the importer is the file the edge was found in. A file importing itself gives a
 * pair with `from === to`.
 */
export function fileDependencyGraph(db: Db): FileDepGraph {
  const files = db.prepare("SELECT id, path FROM files").raw().all() as [number, string][];
  files.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const slot = new Map<number, number>();
  files.forEach(([id], i) => slot.set(id, i));
  // One row per importing file, its targets concatenated: a row per edge costs more than the query.
  // CROSS JOIN keeps the planner on a scan of edges with a primary-key lookup per target.
  const rows = db
    .prepare(
      `SELECT e.file_id, group_concat(t.file_id) FROM edges e CROSS JOIN nodes t ON t.id = e.target_id
       WHERE e.kind = 'imports' GROUP BY e.file_id`,
    )
    .raw()
    .iterate() as IterableIterator<[number, string]>;
  const from: number[] = [];
  const to: number[] = [];
  for (const [fileId, targets] of rows) {
    const f = slot.get(fileId);
    if (f === undefined) continue;
    const ids = Int32Array.from(new Set(targets.split(",")), (t) => slot.get(Number(t)) ?? -1).sort();
    for (const t of ids) {
      if (t < 0) continue;
      from.push(f);
      to.push(t);
    }
  }
  return { paths: files.map((f) => f[1]), from: Int32Array.from(from), to: Int32Array.from(to) };
}
