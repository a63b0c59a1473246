import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, openDatabase, type Db } from "../../src/store/database.js";
import { pathsEndingWith } from "../../src/store/path-suffixes.js";
import { random } from "../helpers/random.js";

/**
 * `pathsEndingWith` answers its first lookups at a version of the index with a LIKE, later ones from
 * the paths kept in memory by last segment. Both must answer as the LIKE: the path itself, or one
 * ending with `/` and the suffix, ASCII letters in either case, `%`, `_` and `\` plain characters, in
 * SQLite's path order, cut at the limit.
 */
const sqlAnswer = (db: Db, suffix: string, limit: number): string[] =>
  db
    .prepare(`SELECT path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\' ORDER BY path LIMIT ?`)
    .pluck()
    .all(suffix, `%/${suffix.replace(/[\\%_]/g, (c) => `\\${c}`)}`, limit) as string[];

const SEGMENTS = [
  "src",
  "Src",
  "SRC",
  "io",
  "IO",
  "lib",
  "a%b",
  "a_b",
  "a\\b",
  "é",
  "É",
  "straße",
  "😀",
  "x.py",
  "X.PY",
];
const NAMES = [
  "app.ts",
  "App.ts",
  "APP.TS",
  "main.go",
  "x.py",
  "X.py",
  "100%.c",
  "a_b.rs",
  "é.rb",
  "Ü.rb",
  "😀.js",
  "Makefile",
];

let dir: string;
let db: Db;
let paths: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cg-path-suffixes-"));
  db = createDatabase(join(dir, "graph.db"));
  const next = random(20261204);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const set = new Set<string>(NAMES);
  while (set.size < 600) {
    const depth = Math.floor(next() * 4);
    set.add([...Array.from({ length: depth }, () => pick(SEGMENTS)), pick(NAMES)].join("/"));
  }
  paths = [...set];
  const insert = db.prepare(
    "INSERT INTO files(id, path, language, size, mtime_ms, sha256, package, node_id) VALUES (?, ?, 'go', 0, 0, '', NULL, ?)",
  );
  paths.forEach((p, i) => insert.run(i + 1, p, (i + 1) * 10));
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("pathsEndingWith", () => {
  it("answers as the LIKE did, for every tail of every path and for names no path has", () => {
    const suffixes = new Set<string>(["", "/", "app.ts/", "/app.ts", "QuerySet.filter", "src/", "a%", "_.rs"]);
    for (const p of paths) {
      const parts = p.split("/");
      for (let i = 0; i < parts.length; i++) {
        const tail = parts.slice(i).join("/");
        suffixes.add(tail);
        suffixes.add(tail.toUpperCase());
        suffixes.add(tail.toLowerCase());
      }
    }
    let found = 0;
    for (const s of suffixes) {
      for (const limit of [1, 3, 1000]) {
        const expected = sqlAnswer(db, s, limit);
        found += expected.length;
        expect(pathsEndingWith(db, s, limit), `${JSON.stringify(s)} limit ${limit}`).toEqual(expected);
      }
    }
    expect(found).toBeGreaterThan(1000);
  });

  it("sees a file another connection adds, before and after keeping the paths again", () => {
    for (let i = 0; i < 6; i++) expect(pathsEndingWith(db, "late/new.go", 5)).toEqual([]);
    const other = openDatabase(join(dir, "graph.db"));
    other
      .prepare(
        "INSERT INTO files(id, path, language, size, mtime_ms, sha256, package, node_id) VALUES (100000, 'deep/late/new.go', 'go', 0, 0, '', NULL, 1000000)",
      )
      .run();
    other.close();
    for (let i = 0; i < 6; i++) {
      expect(pathsEndingWith(db, "late/new.go", 5)).toEqual(["deep/late/new.go"]);
      expect(pathsEndingWith(db, "LATE/NEW.GO", 5)).toEqual(sqlAnswer(db, "LATE/NEW.GO", 5));
    }
  });
});
