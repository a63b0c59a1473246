import {
  GO_DECLARATION_KINDS,
  goFileShape,
  type GoShapeDeclaration,
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
 * Make the stored edges derived from Go's method sets `edges`, after a sync: those stored from the
 * declarations `sources` are compared with them and only the difference written (an edit changes a
 * few). They come from no reference (their `ref_id` is null, as containment's are), and their
 * resolution tells them apart.
 */
export function writeStructuralEdges(db: Db, edges: readonly DerivedEdge[], sources: readonly number[]): void {
  const key = (kind: string, source: number, target: number, file: number, line: number) =>
    `${kind} ${source} ${target} ${file} ${line}`;
  /** Stored edges not (yet) matched by a derived one, by key. */
  const stale = new Map<string, number[]>();
  if (sources.length) {
    const rows = prepared(
      db,
      `SELECT id, kind, source_id, target_id, file_id, line FROM edges
       WHERE source_id IN (SELECT value FROM json_each(?)) AND ${DERIVED}`,
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
  const insert = insertStructural(db);
  for (const e of edges) {
    if (stale.get(key(e.kind, e.sourceId, e.targetId, e.fileId, e.line))?.pop() === undefined)
      insert.run(e.sourceId, e.targetId, e.kind, e.fileId, e.line);
  }
  const remove = prepared(db, "DELETE FROM edges WHERE id = ?");
  for (const ids of stale.values()) for (const id of ids) remove.run(id);
}

/** What a stored Go file contributes to the project's method sets (see `goFileShape`). */
export function storedGoShape(db: Db, fileId: number): string {
  const packageName = prepared(db, "SELECT package FROM files WHERE id = ?").pluck().get(fileId) as string | null;
  const declarations = prepared(
    db,
    `SELECT n.kind, n.qualified_name AS qualifiedName, p.kind AS parentKind, n.param_count AS paramCount
     FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.file_id = ? AND n.kind IN (${KINDS})`,
  ).all(fileId) as GoShapeDeclaration[];
  const embeds = prepared(
    db,
    `SELECT n.qualified_name AS "from", r.name, r.receiver FROM refs r JOIN nodes n ON n.id = r.from_id
     WHERE r.file_id = ? AND r.kind = 'extends'`,
  ).all(fileId) as { from: string; name: string; receiver: string | null }[];
  const imports = prepared(db, "SELECT local, specifier FROM imports WHERE file_id = ?").all(fileId) as {
    local: string;
    specifier: string;
  }[];
  return goFileShape(packageName, declarations, embeds, imports);
}

/** Writes one derived edge: source, target, kind, file and line. */
const insertStructural = (db: Db) =>
  prepared(
    db,
    `INSERT INTO edges(source_id, target_id, kind, file_id, line, resolution, ref_id)
     VALUES (?, ?, ?, ?, ?, 'structural', NULL)`,
  );

/** The derived edges among a statement's edges. */
const DERIVED = "kind IN ('implements', 'overrides') AND resolution = 'structural'";

/** An edge derived from Go's method sets, by its ends. */
export interface StructuralEdge {
  kind: string;
  sourceId: number;
  targetId: number;
}

/** The derived edges starting at a file's declarations (they go with the file's edges). */
export function structuralEdgesFrom(db: Db, fileId: number): StructuralEdge[] {
  return prepared(
    db,
    `SELECT kind, source_id AS sourceId, target_id AS targetId FROM edges
     WHERE source_id IN (SELECT id FROM nodes WHERE file_id = ?) AND ${DERIVED}`,
  ).all(fileId) as StructuralEdge[];
}

/**
 * Write derived edges again, each at its source's place as it now is; false, writing nothing, when an
 * end of one is gone.
 */
export function restoreStructuralEdges(db: Db, edges: readonly StructuralEdge[]): boolean {
  const place = prepared(db, "SELECT file_id AS fileId, start_line AS line FROM nodes WHERE id = ?");
  const exists = prepared(db, "SELECT 1 FROM nodes WHERE id = ?").pluck();
  const placed = edges.map((e) => ({ e, at: place.get(e.sourceId) as { fileId: number; line: number } | undefined }));
  if (placed.some(({ e, at }) => !at || !exists.get(e.targetId))) return false;
  const insert = insertStructural(db);
  for (const { e, at } of placed) insert.run(e.sourceId, e.targetId, e.kind, at!.fileId, at!.line);
  return true;
}

/** Whether an interface of the project's Go code asks for a method of any of these names. */
export function goInterfacesAskFor(db: Db, names: readonly string[]): boolean {
  // Go's own `error`, which an interface may embed, asks for `Error`.
  if (names.includes("Error")) return true;
  return (
    prepared(
      db,
      `SELECT 1 FROM nodes n JOIN nodes p ON p.id = n.parent_id JOIN files f ON f.id = n.file_id
       WHERE n.name IN (SELECT value FROM json_each(?)) AND n.kind = 'method' AND p.kind = 'interface'
         AND f.language = 'go' LIMIT 1`,
    ).get(JSON.stringify(names)) !== undefined
  );
}
