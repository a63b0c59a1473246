import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { fullIndex } from "../../src/indexer/full-index.js";
import { openDatabase } from "../../src/store/database.js";
import { searchSymbols } from "../../src/query/search.js";
import { countGraph } from "../../src/store/counts.js";

// From 1 MiB of source a full index is finished (full-text index, secondary indexes, resolved edges)
// on a worker thread. Run from source, as here, that worker's script does not exist (only the build
// makes it): the same fault as a broken install. The index must come out whole all the same.

const NOTE = " Entries are checked against the journal before they are posted, and again at close.".repeat(2);
const dir = mkdtempSync(join(tmpdir(), "codegraph-declarations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a full index whose finishing worker cannot start", () => {
  it("finishes on its own connection", async () => {
    expect(existsSync(fileURLToPath(new URL("../../src/indexer/finish-worker.js", import.meta.url)))).toBe(false);
    // 40 files of 130 functions each, each but the first calling the one before: 1.4 MB in all, parsed
    // in this thread (one parsing thread asked for: parse workers cannot start from source either).
    mkdirSync(join(dir, "pkg"));
    for (let f = 0; f < 40; f++) {
      const fns = Array.from(
        { length: 130 },
        (_, i) =>
          `def task_${f}_${i}():\n    """${f === 3 ? "Reconcile" : "Count"} the ledger ${i}.${NOTE}"""\n    return ${i ? `task_${f}_${i - 1}()` : 0}\n`,
      );
      writeFileSync(join(dir, "pkg", `m${f}.py`), fns.join("\n"));
    }
    process.env.CODEGRAPH_WORKERS = "1";
    const summary = await fullIndex(dir).finally(() => delete process.env.CODEGRAPH_WORKERS);
    expect(statSync(join(dir, "pkg", "m0.py")).size * 40).toBeGreaterThan(2 ** 20);
    expect(summary.nodes).toBeGreaterThan(5000);
    const db = openDatabase(dbPath(dir), { readonly: true });
    try {
      const hits = searchSymbols(db, "reconcile", { limit: 5 }).hits;
      expect(hits).toHaveLength(5);
      expect(hits.every((h) => h.name.startsWith("task_3_"))).toBe(true);
      const contains = db.prepare("SELECT count(*) AS n FROM edges WHERE kind = 'contains'").get() as { n: number };
      expect(contains.n).toBe(summary.nodes - 40);
      const calls = db.prepare("SELECT count(*) AS n FROM edges WHERE kind = 'calls'").get() as { n: number };
      expect(calls.n).toBe(40 * 129);
      expect(countGraph(db).edgesByKind.calls).toBe(40 * 129);
      const indexes = db.prepare(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name IN ('nodes_name', 'refs_name', 'edges_target')",
      );
      expect((indexes.get() as { n: number }).n).toBe(3);
    } finally {
      db.close();
    }
  });
});
