import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RowBatch } from "../../src/store/row-batch.js";

describe("RowBatch", () => {
  const dir = mkdtempSync(join(tmpdir(), "codegraph-batch-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes every row, full statements and the remainder, in order, with the ids one by one would give", () => {
    const db = new Database(join(dir, "t.db"));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT)");
    const batch = new RowBatch(db, "INSERT INTO t(a, b)", 2);
    const rows = Array.from({ length: 130 }, (_, i) => [i * 3, i % 2 ? null : `r${i}`] as const);
    db.transaction(() => {
      for (const [a, b] of rows) batch.add(a, b);
      // Two full statements of 64 went out; two rows wait for the flush.
      expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(128);
      batch.flush();
    })();
    const stored = db.prepare("SELECT id, a, b FROM t ORDER BY id").raw().all();
    expect(stored).toEqual(rows.map(([a, b], i) => [i + 1, a, b]));
    batch.flush(); // nothing left: writes nothing
    expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(130);
    db.close();
  });

  it("writes any remainder, in pieces of 32, 16, 8, 4, 2 and 1 rows, in order", () => {
    const db = new Database(join(dir, "r.db"));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL)");
    const batch = new RowBatch(db, "INSERT INTO t(a)", 1);
    let written = 0;
    for (const count of [1, 2, 3, 31, 33, 63, 64, 65, 127]) {
      db.transaction(() => {
        for (let i = 0; i < count; i++) batch.add(written + i);
        batch.flush();
      })();
      written += count;
      const stored = db.prepare("SELECT id, a FROM t ORDER BY id").raw().all();
      expect(stored, `after ${count}`).toEqual(Array.from({ length: written }, (_, i) => [i + 1, i]));
    }
    db.close();
  });
});
