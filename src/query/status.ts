import { statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/config.js";
import { dbPath } from "../config/paths.js";
import { sha256 } from "../core/hash.js";
import { readRegularBytes } from "../core/regular-file.js";
import { parseSnapshot } from "../scan/folder-snapshot.js";
import { scanProject } from "../scan/inventory.js";
import { countGraph, type GraphCounts } from "../store/counts.js";
import { FOLDER_SNAPSHOT, getMeta, INDEXED_BY, type Db } from "../store/database.js";
import { readSkippedFiles, stillSkipped } from "../store/skipped-files.js";
import { storedFiles } from "../store/reader.js";

export interface StatusResult extends GraphCounts {
  root: string;
  dbBytes: number;
  schemaVersion: number;
  indexedAt: string | null;
  /** The codegraph version that built the index (null: one from before versions were recorded). */
  indexedBy: string | null;
  syncedAt: string | null;
  changes: { added: string[]; modified: string[]; removed: string[] };
}

/**
 * What the index holds and how far the disk has moved on since: a file whose size and mtime differ
 * counts as modified only when its hash differs too (a touch is not a change).
 */
export function status(db: Db, root: string, languageOf: (path: string) => string | null): StatusResult {
  const counts = countGraph(db);
  const config = loadConfig(root);
  const previous = parseSnapshot(getMeta(db, FOLDER_SNAPSHOT), config.indexing);
  const inventory = scanProject(root, config.indexing, (p) => languageOf(p) !== null, { previous });
  const stored = storedFiles(db);
  const skipped = readSkippedFiles(db);
  const added: string[] = [];
  const modified: string[] = [];
  const present = new Set<string>();
  for (const f of inventory.files) {
    present.add(f.path);
    const old = stored.get(f.path);
    if (!old) {
      // A file skipped for what it holds (binary, not UTF-8) is not news until it changes.
      if (!stillSkipped(skipped, f)) added.push(f.path);
      continue;
    }
    if (old.size === f.size && old.mtimeMs === f.mtimeMs) continue;
    const bytes = readRegularBytes(join(root, f.path));
    if (!bytes || sha256(bytes) !== old.sha256) modified.push(f.path);
  }
  const removed = [...stored.keys()].filter((p) => !present.has(p));
  let dbBytes = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      dbBytes += statSync(dbPath(root) + suffix).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return {
    ...counts,
    root,
    dbBytes,
    schemaVersion: Number(getMeta(db, "schema_version")),
    indexedAt: getMeta(db, "indexed_at"),
    indexedBy: getMeta(db, INDEXED_BY),
    syncedAt: getMeta(db, "synced_at"),
    changes: { added, modified, removed },
  };
}
