import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/** One edge seen from one of its ends: the node at the other end, and what the edge is. */
export interface EdgeRow {
  nodeId: number;
  kind: string;
  line: number | null;
  resolution: string;
}

// Kinds are our own constants (graph/traverse.ts), written into the statement so each list of kinds
// is one cached statement using the edges' (target, kind) and (source, kind) indexes.
const inList = (kinds: readonly string[]) => kinds.map((k) => `'${k.replace(/'/g, "''")}'`).join(",");

/** Edges into `nodeId` of these kinds, as {@link edgesIntoEach} orders them. */
export const edgesInto = (db: Db, nodeId: number, kinds: readonly string[]): EdgeRow[] =>
  edgesIntoEach(db, [nodeId], kinds)[0]!;

/**
 * Edges into each of `nodeIds` of these kinds, a list per id in their order, in one read (a class and
 * its members, or a name's many definitions: `as_sql` has 110 in Django). Each list is by the path of
 * the file the edge is in, then line. By path, not file id: a full index numbers files in the order
 * its parsers finish them, so two builds of the same code would list callers (and pick those a limit
 * shows) in different orders.
 */
export function edgesIntoEach(db: Db, nodeIds: readonly number[], kinds: readonly string[]): EdgeRow[][] {
  const lists: EdgeRow[][] = nodeIds.map(() => []);
  if (!nodeIds.length) return lists;
  const rows = prepared(
    db,
    `SELECT j.key, e.source_id, e.kind, e.line, e.resolution
       FROM json_each(?) j JOIN edges e ON e.target_id = j.value JOIN files f ON f.id = e.file_id
       WHERE e.kind IN (${inList(kinds)}) ORDER BY j.key, f.path, e.line`,
  )
    .raw(true)
    .all(JSON.stringify(nodeIds)) as [number, number, string, number | null, string][];
  for (const [at, nodeId, kind, line, resolution] of rows) lists[at]!.push({ nodeId, kind, line, resolution });
  return lists;
}

/** Edges out of `nodeId` of these kinds, by line. */
export function edgesOutOf(db: Db, nodeId: number, kinds: readonly string[]): EdgeRow[] {
  return prepared(
    db,
    `SELECT target_id AS nodeId, kind, line, resolution FROM edges
       WHERE source_id = ? AND kind IN (${inList(kinds)}) ORDER BY line`,
  ).all(nodeId) as EdgeRow[];
}

/** A node's id and the ids of everything it contains, however deep. */
export function selfAndDescendants(db: Db, nodeId: number): number[] {
  // Most functions and methods contain nothing: one look at the parent index, not a recursive query.
  if (prepared(db, "SELECT 1 FROM nodes WHERE parent_id = ? LIMIT 1").get(nodeId) === undefined) return [nodeId];
  return (
    prepared(
      db,
      `WITH RECURSIVE d(id) AS (SELECT ? UNION SELECT n.id FROM nodes n JOIN d ON n.parent_id = d.id) SELECT id FROM d`,
    ).all(nodeId) as { id: number }[]
  ).map((r) => r.id);
}

/**
 * A reader of the sources of edges into a node, for walks that ask it many times: by the path of the
 * file the edge is in, then line, so a walk (and what a limit keeps of it) is the same on every build
 * of the same code, whatever order the files were parsed or synced in. With `dispatching`, only the
 * uses that may reach an override of the node at run time: not those resolved through inheritance
 * (`super().m()`, `parent::m()`), which name the base's method and so never reach an override below it.
 */
export function sourcesInto(
  db: Db,
  kinds: readonly string[],
  dispatching = false,
): (nodeId: number) => { nodeId: number; kind: string }[] {
  const stmt = prepared(
    db,
    `SELECT e.source_id AS nodeId, e.kind FROM edges e JOIN files f ON f.id = e.file_id
       WHERE e.target_id = ? AND e.kind IN (${inList(kinds)})${dispatching ? " AND e.resolution <> 'inherited'" : ""}
       ORDER BY f.path, e.line, e.source_id`,
  );
  return (nodeId) => stmt.all(nodeId) as { nodeId: number; kind: string }[];
}

/** A reader of the methods a method overrides or implements, directly: the targets of its `overrides` edges. */
export function overriddenBy(db: Db): (nodeId: number) => number[] {
  const stmt = prepared(db, "SELECT target_id FROM edges WHERE source_id = ? AND kind = 'overrides'").pluck();
  return (nodeId) => stmt.all(nodeId) as number[];
}

/** A reader of the nodes with an edge of these kinds into a node, with their files' paths. */
export function sourceFilesInto(db: Db, kinds: readonly string[]): (nodeId: number) => { id: number; path: string }[] {
  const stmt = prepared(
    db,
    `SELECT e.source_id AS id, f.path AS path FROM edges e JOIN nodes n ON n.id = e.source_id
       JOIN files f ON f.id = n.file_id
       WHERE e.target_id = ? AND e.kind IN (${inList(kinds)})`,
  );
  return (nodeId) => stmt.all(nodeId) as { id: number; path: string }[];
}
