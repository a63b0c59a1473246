// Codegraph's call edges, read straight from <repo>/.codegraph/graph.db (schema: src/store/schema.ts).
import { createRequire } from "node:module";
import fs from "node:fs";

const require = createRequire("/work/main/");

export const CALL_EDGE_KINDS = ["calls", "instantiates"];

/** `super(...)` is stored as a ref named `constructor` with receiver `super`; the reference calls it `super`. */
export function siteName(name, receiver) {
  if (name === "constructor" && receiver === "super") return "super";
  return name;
}

export function readGraph(dbPath) {
  if (!fs.existsSync(dbPath)) throw new Error(`graph database not found: ${dbPath}`);
  const Database = require("better-sqlite3");
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const kinds = CALL_EDGE_KINDS.map(() => "?").join(",");
    const edges = db
      .prepare(
        `SELECT e.id, e.kind, e.line, e.resolution, e.ref_id AS refId,
                f.path AS file,
                r.name AS refName, r.receiver AS receiver, r.line AS refLine,
                s.name AS sourceName, s.kind AS sourceKind,
                t.id AS targetId, t.name AS targetName, t.kind AS targetKind,
                t.qualified_name AS targetQName, t.start_line AS targetStart, t.end_line AS targetEnd,
                tf.path AS targetFile,
                p.name AS parentName, p.kind AS parentKind, p.start_line AS parentStart, p.end_line AS parentEnd
           FROM edges e
           JOIN files f ON f.id = e.file_id
           LEFT JOIN refs r ON r.id = e.ref_id
           LEFT JOIN nodes s ON s.id = e.source_id
           JOIN nodes t ON t.id = e.target_id
           JOIN files tf ON tf.id = t.file_id
           LEFT JOIN nodes p ON p.id = t.parent_id
          WHERE e.kind IN (${kinds})`,
      )
      .all(...CALL_EDGE_KINDS)
      .map((e) => ({
        ...e,
        line: e.line ?? e.refLine,
        name: e.refName != null ? siteName(e.refName, e.receiver) : e.targetName,
      }));
    const refs = db
      .prepare(
        `SELECT r.id, r.kind, r.name, r.receiver, r.line, r.col, f.path AS file,
                EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = r.id) AS resolved
           FROM refs r JOIN files f ON f.id = r.file_id
          WHERE r.kind IN (${kinds})`,
      )
      .all(...CALL_EDGE_KINDS)
      .map((r) => ({ ...r, name: siteName(r.name, r.receiver) }));
    const files = db
      .prepare(`SELECT path FROM files`)
      .all()
      .map((r) => r.path);
    const meta = Object.fromEntries(
      db
        .prepare(`SELECT key, value FROM meta`)
        .all()
        .map((r) => [r.key, r.value]),
    );
    return { edges, refs, files, meta };
  } finally {
    db.close();
  }
}
