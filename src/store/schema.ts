/**
 * The index schema. Bump SCHEMA_VERSION on any change: an index with another version is refused
 * with a message to re-run `codegraph init --force` (derived data is cheaper to rebuild than migrate).
 */
export const SCHEMA_VERSION = 5;

// meta is a rowid table (version 5; a WITHOUT ROWID table in 4). Its folder snapshot is a value of
// hundreds of KB, and in a WITHOUT ROWID table a lookup that passes such a row reads all of it to
// compare keys: 40 µs for the 48-byte `context`, read by every qualified-name lookup, against 3.
export const TABLES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  language TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  package TEXT,
  syntax_errors INTEGER NOT NULL DEFAULT 0,
  node_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS nodes (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  file_id INTEGER NOT NULL,
  parent_id INTEGER,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  start_col INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  end_col INTEGER NOT NULL,
  signature TEXT,
  docstring TEXT,
  exported INTEGER NOT NULL DEFAULT 0,
  visibility TEXT,
  param_count INTEGER,
  is_static INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS refs (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  from_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  receiver TEXT,
  line INTEGER NOT NULL,
  col INTEGER NOT NULL,
  arg_count INTEGER
);
CREATE TABLE IF NOT EXISTS edges (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL,
  target_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  file_id INTEGER NOT NULL,
  line INTEGER,
  resolution TEXT NOT NULL,
  ref_id INTEGER
);
CREATE TABLE IF NOT EXISTS imports (
  file_id INTEGER NOT NULL,
  local TEXT NOT NULL,
  imported TEXT,
  specifier TEXT NOT NULL,
  line INTEGER NOT NULL,
  reexport INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS local_types (
  file_id INTEGER NOT NULL,
  scope_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  type_name TEXT NOT NULL,
  line INTEGER NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(
  name, words, qualified_name, signature, docstring,
  content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);
CREATE VIEW IF NOT EXISTS unresolved_refs AS
  SELECT * FROM refs r WHERE NOT EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = r.id);
CREATE TABLE IF NOT EXISTS kind_counts (
  tbl TEXT NOT NULL,
  kind TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (tbl, kind)
) WITHOUT ROWID;
`;

/**
 * Secondary indexes, created after a bulk load (building them once is about 3x faster than during it).
 * First those of the tables a full index has finished writing once parsing ends (files, nodes,
 * references, imports, local types); then those of the edges, whose resolved part comes last.
 */
export const PARSED_TABLE_INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS files_path ON files(path);
CREATE INDEX IF NOT EXISTS files_package ON files(package) WHERE package IS NOT NULL;
CREATE INDEX IF NOT EXISTS nodes_parent_name ON nodes(parent_id, name);
CREATE INDEX IF NOT EXISTS nodes_name ON nodes(name);
CREATE INDEX IF NOT EXISTS nodes_uid ON nodes(uid);
CREATE INDEX IF NOT EXISTS nodes_name_nocase ON nodes(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS nodes_file_qname ON nodes(file_id, qualified_name);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
CREATE INDEX IF NOT EXISTS refs_heritage ON refs(from_id) WHERE kind IN ('extends', 'implements');
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_receiver ON refs(receiver) WHERE receiver IS NOT NULL;
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
CREATE INDEX IF NOT EXISTS local_types_file ON local_types(file_id);
`;
export const EDGE_INDEXES = `
CREATE INDEX IF NOT EXISTS edges_source ON edges(source_id, kind);
CREATE INDEX IF NOT EXISTS edges_target ON edges(target_id, kind);
CREATE INDEX IF NOT EXISTS edges_ref ON edges(ref_id);
`;
export const INDEXES = PARSED_TABLE_INDEXES + EDGE_INDEXES;

/**
 * Triggers that keep `kind_counts` (nodes and edges by kind) right as rows come and go: `status`
 * then reads a few rows instead of grouping every node and edge (0.65 s on the JDK's 3.2 M edges).
 * A full index creates them after its bulk load, with the counts of what it wrote (`startKindCounts`).
 */
export const KIND_COUNT_TRIGGERS = ["nodes", "edges"]
  .map(
    (t) => `
CREATE TRIGGER IF NOT EXISTS ${t}_counted AFTER INSERT ON ${t} BEGIN
  INSERT INTO kind_counts(tbl, kind, n) VALUES ('${t}', NEW.kind, 1) ON CONFLICT(tbl, kind) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS ${t}_uncounted AFTER DELETE ON ${t} BEGIN
  UPDATE kind_counts SET n = n - 1 WHERE tbl = '${t}' AND kind = OLD.kind;
END;`,
  )
  .join("\n");
