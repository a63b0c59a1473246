import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { fullIndex } from "../../src/indexer/full-index.js";
import { openDatabase } from "../../src/store/database.js";
import { searchSymbols } from "../../src/query/search.js";

// From 5,000 nodes a full index finishes its declaration side (full-text index, declaration indexes)
// on a worker thread. Run from source, as here, that worker's script does not exist (only the build
// makes it): the same fault as a broken install. The index must come out whole all the same.

const dir = mkdtempSync(join(tmpdir(), "codegraph-declarations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a full index whose declarations worker cannot start", () => {
  it("finishes the declaration side on its own connection", async () => {
    expect(existsSync(fileURLToPath(new URL("../../src/indexer/declarations-worker.js", import.meta.url)))).toBe(false);
    // 40 files (parsed in this thread) of 130 functions each.
    mkdirSync(join(dir, "pkg"));
    for (let f = 0; f < 40; f++) {
      const fns = Array.from(
        { length: 130 },
        (_, i) =>
          `def task_${f}_${i}():\n    """${f === 3 ? "Reconcile" : "Count"} the ledger ${i}."""\n    return ${i}\n`,
      );
      writeFileSync(join(dir, "pkg", `m${f}.py`), fns.join("\n"));
    }
    const summary = await fullIndex(dir);
    expect(summary.nodes).toBeGreaterThan(5000);
    const db = openDatabase(dbPath(dir), { readonly: true });
    try {
      const hits = searchSymbols(db, "reconcile", { limit: 5 }).hits;
      expect(hits).toHaveLength(5);
      expect(hits.every((h) => h.name.startsWith("task_3_"))).toBe(true);
      const contains = db.prepare("SELECT count(*) AS n FROM edges WHERE kind = 'contains'").get() as { n: number };
      expect(contains.n).toBe(summary.nodes - 40);
      const indexes = db.prepare(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name = 'nodes_name'",
      );
      expect((indexes.get() as { n: number }).n).toBe(1);
    } finally {
      db.close();
    }
  });
});
