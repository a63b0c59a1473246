import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo, Lookup } from "../../src/core/lookup.js";
import { MemoryLookup } from "../../src/resolve/memory-lookup.js";
import { createDatabase, finishParsedTables, type Db } from "../../src/store/database.js";
import { SqliteLookup } from "../../src/store/sqlite-lookup.js";

/**
 * A full index resolves through the lookup in memory, a sync through the index on disk: both must
 * list the same files for a folder, a subtree and a path suffix, or a sync would resolve otherwise
 * than `init --force`. Paths are case-sensitive, and `%` and `_` are plain characters in them.
 */
const PATHS = [
  "main.go",
  "src/io/io.go",
  "src/io/pipe.go",
  "src/io/fs/fs.go",
  "src/IO/upper.go",
  "src/iox/extra.go",
  "src/io_x/under.go",
  "src/100%/odd.go",
  "lib/a.rs",
  "src/io/io_test.rs",
];

const files: FileInfo[] = PATHS.map((path, i) => ({
  id: i + 1,
  path,
  language: path.endsWith(".rs") ? "rust" : "go",
  packageName: null,
  nodeId: (i + 1) * 100,
}));

let dir: string;
let db: Db;
let lookups: [string, Lookup][];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cg-file-lookup-"));
  db = createDatabase(join(dir, "graph.db"));
  const insert = db.prepare(
    "INSERT INTO files(id, path, language, size, mtime_ms, sha256, package, node_id) VALUES (?, ?, ?, 0, 0, '', NULL, ?)",
  );
  for (const f of files) insert.run(f.id, f.path, f.language, f.nodeId);
  finishParsedTables(db);
  const memory = new MemoryLookup(files.map((file) => ({ file, nodes: [], refs: [], imports: [], localTypes: [] })));
  lookups = [
    ["memory", memory],
    ["sqlite", new SqliteLookup(db)],
  ];
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const paths = (list: readonly FileInfo[]) => list.map((f) => f.path);

describe("files by folder, subtree and suffix, in memory and on disk", () => {
  it("a folder's own files, not its subfolders' nor a folder differing in case or by a longer name", () => {
    for (const [, l] of lookups) {
      expect(paths(l.filesInDir("src/io", "go"))).toEqual(["src/io/io.go", "src/io/pipe.go"]);
      expect(paths(l.filesInDir("src/IO", "go"))).toEqual(["src/IO/upper.go"]);
      expect(paths(l.filesInDir("src/100%", "go"))).toEqual(["src/100%/odd.go"]);
      expect(paths(l.filesInDir("", "go"))).toEqual(["main.go"]);
      expect(paths(l.filesInDir("src/io", "rust"))).toEqual(["src/io/io_test.rs"]);
    }
  });

  it("a subtree: every file below the folder, of the language", () => {
    for (const [, l] of lookups) {
      expect(paths(l.filesUnder("src/io", "go"))).toEqual(["src/io/fs/fs.go", "src/io/io.go", "src/io/pipe.go"]);
      expect(paths(l.filesUnder("", "rust"))).toEqual(["lib/a.rs", "src/io/io_test.rs"]);
    }
  });

  it("a path suffix: whole path segments, case-sensitive, `_` and `%` taken literally", () => {
    for (const [, l] of lookups) {
      expect(paths(l.filesByPathSuffix("io/io.go"))).toEqual(["src/io/io.go"]);
      expect(paths(l.filesByPathSuffix("IO/upper.go"))).toEqual(["src/IO/upper.go"]);
      expect(paths(l.filesByPathSuffix("io/upper.go"))).toEqual([]);
      expect(paths(l.filesByPathSuffix("io_x/under.go"))).toEqual(["src/io_x/under.go"]);
      expect(paths(l.filesByPathSuffix("main.go"))).toEqual(["main.go"]);
    }
  });
});
