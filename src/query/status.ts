import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "../config/config.js";
import { dbPath } from "../config/paths.js";
import { CodegraphError } from "../core/errors.js";
import { sha256 } from "../core/hash.js";
import { realPathOrGiven } from "../core/paths.js";
import { readRegularInside } from "../core/regular-file.js";
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
  /** Files changed on disk since the last sync; null when the config does not load (configError says why). */
  changes: { added: string[]; modified: string[]; removed: string[] } | null;
  /** Why `codegraph.json` or `.codegraph/config.toml` does not load, or null when both do. */
  configError: string | null;
}

/**
 * What the index holds and how far the disk has moved on since. A config that does not load is
 * reported, not thrown: status is where a user looks to find out what is wrong. The disk is then not
 * compared, since which files belong to the index is what the config says.
 */
export function status(db: Db, root: string, languageOf: (path: string) => string | null): StatusResult {
  let changes: StatusResult["changes"] = null;
  let configError: string | null = null;
  try {
    changes = pendingChanges(db, root, loadConfig(root), languageOf);
  } catch (e) {
    if (!(e instanceof CodegraphError) || e.code !== "BAD_CONFIG") throw e;
    configError = e.message;
  }
  let dbBytes = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      dbBytes += statSync(dbPath(root) + suffix).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return {
    ...countGraph(db),
    root,
    dbBytes,
    schemaVersion: Number(getMeta(db, "schema_version")),
    indexedAt: getMeta(db, "indexed_at"),
    indexedBy: getMeta(db, INDEXED_BY),
    syncedAt: getMeta(db, "synced_at"),
    changes,
    configError,
  };
}

/**
 * Files added, modified and removed on disk since the last sync: a file whose size and mtime differ
 * counts as modified only when its hash differs too (a touch is not a change).
 */
function pendingChanges(
  db: Db,
  root: string,
  config: Config,
  languageOf: (path: string) => string | null,
): NonNullable<StatusResult["changes"]> {
  const previous = parseSnapshot(getMeta(db, FOLDER_SNAPSHOT), config.indexing);
  const inventory = scanProject(root, config.indexing, (p) => languageOf(p) !== null, { previous });
  const stored = storedFiles(db);
  const skipped = readSkippedFiles(db);
  const realRoot = realPathOrGiven(root);
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
    const bytes = readRegularInside(realRoot, join(root, f.path), (fd) => readFileSync(fd));
    if (!bytes || sha256(bytes) !== old.sha256) modified.push(f.path);
  }
  const removed = [...stored.keys()].filter((p) => !present.has(p));
  return { added, modified, removed };
}
