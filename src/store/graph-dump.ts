import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/** A node as the whole-graph export needs it. `id` is the row id edges refer to; `uid` is the stable id. */
export interface DumpNode {
  id: number;
  uid: string;
  name: string;
  qualifiedName: string;
  kind: string;
  filePath: string;
  startLine: number;
  endLine: number;
}

/**
 * Every edge, in id order, as columns: row `i` is `sourceId[i] → targetId[i]`. Columns of numbers
 * cost a fraction of an object per edge, which matters at millions of edges. `line` is null for
 * structure (`contains`).
 */
export interface DumpEdges {
  sourceId: number[];
  targetId: number[];
  kind: string[];
  line: (number | null)[];
}

/** Every node, in id order. */
export function dumpNodes(db: Db): DumpNode[] {
  const out: DumpNode[] = [];
  const rows = db
    .prepare(
      `SELECT n.id, n.uid, n.name, n.qualified_name, n.kind, coalesce(f.path, ''), n.start_line, n.end_line
       FROM nodes n LEFT JOIN files f ON f.id = n.file_id ORDER BY n.id`,
    )
    .raw()
    .iterate() as IterableIterator<[number, string, string, string, string, string, number, number]>;
  for (const [id, uid, name, qualifiedName, kind, filePath, startLine, endLine] of rows) {
    out.push({ id, uid, name, qualifiedName, kind, filePath, startLine, endLine });
  }
  return out;
}

/** Every edge, in id order. */
export function dumpEdges(db: Db): DumpEdges {
  const out: DumpEdges = { sourceId: [], targetId: [], kind: [], line: [] };
  const kinds = new Map<string, string>(); // one string per kind, not one per edge
  const rows = db
    .prepare("SELECT source_id, target_id, kind, line FROM edges ORDER BY id")
    .raw()
    .iterate() as IterableIterator<[number, number, string, number | null]>;
  for (const [source, target, kind, line] of rows) {
    let k = kinds.get(kind);
    if (k === undefined) kinds.set(kind, (k = kind));
    out.sourceId.push(source);
    out.targetId.push(target);
    out.kind.push(k);
    out.line.push(line);
  }
  return out;
}

/** How many files are indexed. */
export function countFiles(db: Db): number {
  return prepared(db, "SELECT count(*) FROM files").pluck().get() as number;
}
