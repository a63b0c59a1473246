import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { fullIndex } from "../../src/indexer/full-index.js";
import { WORKERS_FROM_BYTES, parseAll, startParseWorkers } from "../../src/indexer/pool.js";
import { graphSnapshot } from "../helpers/graph-snapshot.js";

// From WORKERS_FROM_BYTES of source on, a full index parses on worker threads, started while the
// project is still being scanned. Run from source, as here, their script does not exist (only the
// build makes it): the same fault as a broken install. The index must fail with the cause, promptly,
// and keep the old index.

const dir = mkdtempSync(join(tmpdir(), "codegraph-parse-workers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a full index whose parse workers cannot start", () => {
  it("fails with the cause and leaves the previous index as it was", async () => {
    expect(existsSync(fileURLToPath(new URL("../../src/indexer/worker.js", import.meta.url)))).toBe(false);
    mkdirSync(join(dir, "pkg"));
    // Each file a fiftieth of the source from which workers parse.
    const padding = `# ${"x".repeat(WORKERS_FROM_BYTES / 50)}\n`;
    const write = (count: number) => {
      for (let f = 0; f < count; f++)
        writeFileSync(join(dir, "pkg", `m${f}.py`), `${padding}def task_${f}():\n    return ${f}\n`);
    };
    // Few enough files to be parsed in this thread: the index is built.
    write(10);
    await fullIndex(dir);
    const before = graphSnapshot(dir);
    expect(before.nodes.length).toBeGreaterThan(10);
    write(60);
    await expect(fullIndex(dir)).rejects.toThrow(/worker\.js|worker exited/);
    expect(graphSnapshot(dir)).toEqual(before);
    expect(existsSync(dbPath(dir))).toBe(true);
  });

  it("a worker that failed before it was given work is reported, not waited for", async () => {
    // Two parsing threads: this one and a worker.
    const workers = startParseWorkers(dir, 1 << 20, 2);
    expect(workers).toHaveLength(1);
    await Promise.all(workers.map((w) => new Promise((r) => w.once("exit", r))));
    const jobs = Array.from({ length: 60 }, (_, f) => ({
      path: `pkg/m${f}.py`,
      language: "python" as const,
      size: WORKERS_FROM_BYTES / 50,
    }));
    await expect(parseAll(dir, jobs, 1 << 20, 2, () => {}, workers)).rejects.toThrow(/worker\.js|worker exited/);
  });
});
