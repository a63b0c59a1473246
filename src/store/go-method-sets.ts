import {
  GO_DECLARATION_KINDS,
  type DerivedEdge,
  type GoDeclaration,
  type GoDeclarations,
  type GoEmbed,
  type GoFile,
} from "../core/go-method-sets.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

const KINDS = GO_DECLARATION_KINDS.map((k) => `'${k}'`).join(", ");

/** What Go's implicit interfaces are derived from (see resolve/go-interfaces.ts), in the order stored. */
export function goDeclarations(db: Db): GoDeclarations {
  const files = prepared(
    db,
    "SELECT id, path, package AS packageName, node_id AS nodeId FROM files WHERE language = 'go' ORDER BY id",
  ).all() as GoFile[];
  if (!files.length) return { files, declarations: [], embeds: [] };
  const declarations = prepared(
    db,
    `SELECT n.id, n.kind, n.name, n.qualified_name AS qualifiedName, n.parent_id AS parentId,
            n.param_count AS paramCount, n.file_id AS fileId, n.start_line AS line
     FROM files f CROSS JOIN nodes n ON n.file_id = f.id
     WHERE f.language = 'go' AND n.kind IN (${KINDS}) ORDER BY n.id`,
  ).all() as GoDeclaration[];
  // `kind IN (…)` lets SQLite read the partial index of heritage references.
  const embeds = prepared(
    db,
    `SELECT r.from_id AS sourceId, e.target_id AS targetId, r.name, r.receiver
     FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN edges e ON e.ref_id = r.id
     WHERE r.kind IN ('extends', 'implements') AND r.kind = 'extends' AND f.language = 'go'
     ORDER BY r.id, e.id`,
  ).all() as GoEmbed[];
  return { files, declarations, embeds };
}

/**
 * Make the edges derived from Go's method sets `edges`: with `sources` (the declarations they may
 * start at), those stored are compared with them and only the difference written (a sync changes a
 * few); without, none are stored yet (a new index). They come from no reference (their `ref_id` is
 * null, as containment's are), and their resolution tells them apart.
 */
export function writeStructuralEdges(db: Db, edges: readonly DerivedEdge[], sources: readonly number[] | null): void {
  const key = (kind: string, source: number, target: number, file: number, line: number) =>
    `${kind} ${source} ${target} ${file} ${line}`;
  /** Stored edges not (yet) matched by a derived one, by key. */
  const stale = new Map<string, number[]>();
  if (sources?.length) {
    const rows = prepared(
      db,
      `SELECT id, kind, source_id, target_id, file_id, line FROM edges
       WHERE source_id IN (SELECT value FROM json_each(?)) AND kind IN ('implements', 'overrides')
         AND resolution = 'structural'`,
    )
      .raw()
      .all(JSON.stringify(sources)) as [number, string, number, number, number, number][];
    for (const [id, kind, source, target, file, line] of rows) {
      const k = key(kind, source, target, file, line);
      const ids = stale.get(k);
      if (ids) ids.push(id);
      else stale.set(k, [id]);
    }
  }
  const insert = prepared(
    db,
    `INSERT INTO edges(source_id, target_id, kind, file_id, line, resolution, ref_id)
     VALUES (?, ?, ?, ?, ?, 'structural', NULL)`,
  );
  for (const e of edges) {
    if (stale.get(key(e.kind, e.sourceId, e.targetId, e.fileId, e.line))?.pop() === undefined)
      insert.run(e.sourceId, e.targetId, e.kind, e.fileId, e.line);
  }
  const remove = prepared(db, "DELETE FROM edges WHERE id = ?");
  for (const ids of stale.values()) for (const id of ids) remove.run(id);
}
