import type Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { isLink } from "../core/own-file.js";
import { isDamagedIndex, reportDamage } from "../core/damaged-index.js";
import { openSqlite } from "./open-sqlite.js";
import { prepared } from "./statements.js";
import { EDGE_INDEXES, INDEXES, KIND_COUNT_TRIGGERS, PARSED_TABLE_INDEXES, SCHEMA_VERSION, TABLES } from "./schema.js";
import { searchWords } from "./words.js";

export type Db = Database.Database;

function configure(db: Db): void {
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode cannot corrupt the database on a crash; it can lose the last transaction,
  // which the next sync redoes from the files on disk.
  db.pragma("synchronous = NORMAL");
  tune(db);
}

function tune(db: Db): void {
  db.pragma("temp_store = MEMORY");
  db.pragma("cache_size = -65536");
  db.pragma("busy_timeout = 5000");
}

/**
 * An index being built is renamed into place only once complete, and a crash leaves it to be
 * discarded, so it needs neither a write-ahead log nor syncs: each page is written once, not to the
 * log and later into the file (Django's full index 1.64 -> 1.61 s, jdk-util 1.48 -> 1.43). The
 * rollback journal is kept in memory, so a transaction that fails part-way still rolls back.
 */
function configureBuild(db: Db): void {
  db.pragma("journal_mode = MEMORY");
  db.pragma("synchronous = OFF");
  tune(db);
}

/** Create a new, empty index at `path` (the caller removed any old one). Secondary indexes come later. */
export function createDatabase(path: string): Db {
  const db = openSqlite(path);
  configureBuild(db);
  db.exec(TABLES);
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  return db;
}

/**
 * After a bulk load of what parsing found (files, nodes, references, imports, local types): fill the
 * full-text index and write the containment edges from the nodes, a pass each (rather than row by
 * row while parsing, when both cores are busy), and build those tables' indexes. A full index runs
 * this on a second connection while it resolves references (see `indexer/finish-build.ts`), before
 * it writes any resolved edge.
 */
export function finishParsedTables(db: Db): void {
  db.function("search_words", { deterministic: true }, searchWords);
  db.transaction(() => {
    db.exec(`INSERT INTO search(rowid, name, words, qualified_name, signature, docstring)
      SELECT id, name, search_words(name), qualified_name, coalesce(signature, ''), coalesce(docstring, '')
      FROM nodes WHERE kind <> 'import' ORDER BY id`);
    db.exec(`INSERT INTO edges(source_id, target_id, kind, file_id, line, resolution, ref_id)
      SELECT parent_id, id, 'contains', file_id, start_line, 'syntax', NULL
      FROM nodes WHERE parent_id IS NOT NULL ORDER BY id`);
    db.exec(PARSED_TABLE_INDEXES);
  })();
}

/**
 * A second connection to an index `createDatabase` made and is still building: no secondary indexes
 * yet. It mostly writes new pages, so its page cache is small (8 MB, not 64): both connections'
 * caches are full at once, and on the JDK the smaller one took 35 MB off the peak, no slower.
 */
export function openIndexBeingBuilt(path: string): Db {
  const db = openSqlite(path, { fileMustExist: true });
  configureBuild(db);
  db.pragma("cache_size = -8192");
  return db;
}

/**
 * After a bulk load: record how many nodes and edges of each kind it wrote, and keep those counts
 * from then on (triggers on every insert and delete).
 */
export function startKindCounts(db: Db, written: { nodes: Map<string, number>; edges: Map<string, number> }): void {
  db.transaction(() => {
    db.exec("DELETE FROM kind_counts");
    const put = db.prepare("INSERT INTO kind_counts(tbl, kind, n) VALUES (?, ?, ?)");
    for (const [tbl, counts] of Object.entries(written)) for (const [kind, n] of counts) put.run(tbl, kind, n);
    db.exec(KIND_COUNT_TRIGGERS);
  })();
}

/** Build the edges' indexes (each once). */
export function indexEdges(db: Db): void {
  db.exec(EDGE_INDEXES);
}

/** Once every edge is written: build their indexes if not yet built, then sample every index for the query planner. */
export function finishEdges(db: Db): void {
  indexEdges(db);
  // A bounded sample is enough for the planner and keeps ANALYZE from scanning every row.
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE");
}

/**
 * Open an existing index. A missing file, another schema version or a damaged file is a
 * CodegraphError that says which command fixes it.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  if (!existsSync(path)) {
    throw new CodegraphError("NOT_INDEXED", `No index at ${path}. Run \`codegraph init\` in the project first.`);
  }
  // SQLite follows links, and writes the WAL and its index beside the database: a repository that
  // commits `.codegraph/graph.db-wal -> ~/.bashrc` would have it written over (see core/own-file.ts).
  const linked = [dirname(path), path, `${path}-wal`, `${path}-shm`].find(isLink);
  if (linked) {
    throw new CodegraphError(
      "SCHEMA_MISMATCH",
      `The index at ${path} is not readable: ${linked} is a symbolic link, and codegraph follows none in ` +
        "its index folder. Remove the link, then run `codegraph init --force`.",
    );
  }
  let db: Db;
  try {
    db = openSqlite(path, { readonly: options.readonly ?? false, fileMustExist: true });
  } catch (e) {
    if (isDamagedIndex(e)) throw reportDamage(path, e);
    throw new CodegraphError("IO", `Cannot open the index at ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    if (!options.readonly) configure(db);
    // Temporary b-trees in memory, as the writer has them (configure). With SQLite's default each read
    // that builds one (for an IN list of three constants or more, a DISTINCT) paid about 25 µs more:
    // search's lookup of the name `middleware` took 38 µs, 10 in memory.
    else db.exec("PRAGMA busy_timeout = 5000; PRAGMA temp_store = MEMORY");
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
      { value: string } | undefined;
    if (Number(row?.value) !== SCHEMA_VERSION) {
      throw new CodegraphError(
        "SCHEMA_MISMATCH",
        `The index at ${path} has schema version ${row?.value ?? "unknown"}; this codegraph needs ${SCHEMA_VERSION}. ` +
          "Run `codegraph init --force` to rebuild it.",
      );
    }
    if (!options.readonly) db.exec(INDEXES);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof CodegraphError) throw e;
    if (isDamagedIndex(e)) throw reportDamage(path, e);
    throw new CodegraphError(
      "SCHEMA_MISMATCH",
      `The index at ${path} is not readable (${(e as Error).message}). Run \`codegraph init --force\` to rebuild it.`,
      { cause: e },
    );
  }
}

/** The meta key of the codegraph version that built an index. */
export const INDEXED_BY = "indexed_by";

/** The meta key of what the last walk of the project learnt of its folders (see scan/folder-snapshot.ts). */
export const FOLDER_SNAPSHOT = "folder_snapshot";

export function getMeta(db: Db, key: string): string | null {
  const row = prepared(db, "SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").run(key, value);
}

/**
 * Make a finished build an index like any other: synced to disk (the build never synced) and in WAL
 * mode, which lets readers and the one writer work at once.
 */
export function sealBuild(db: Db): void {
  db.pragma("synchronous = FULL");
  db.pragma("journal_mode = WAL");
}

/** Record new size and mtime for files whose content did not change (a touch, or the same bytes rewritten). */
export function updateFileStats(db: Db, files: readonly { path: string; size: number; mtimeMs: number }[]): void {
  const touch = db.prepare("UPDATE files SET size = ?, mtime_ms = ? WHERE path = ?");
  for (const f of files) touch.run(f.size, f.mtimeMs, f.path);
}
