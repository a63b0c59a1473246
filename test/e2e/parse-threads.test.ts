import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ParseOutcome } from "../../dist/indexer/messages.js";
import { WORKERS_FROM_BYTES, parseAll, startParseWorkers } from "../../dist/indexer/pool.js";

// The built pool (its worker script exists only in the build): with two parsing threads, the calling
// thread parses a share of the files itself, beside one worker thread.

const dir = mkdtempSync(join(tmpdir(), "codegraph-parse-threads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = 300;
// Enough source in all for a worker to parse beside this thread (WORKERS_FROM_BYTES).
const PADDING = `# ${"x".repeat(Math.ceil(WORKERS_FROM_BYTES / 200))}\n`;
const source = (f: number) => `${PADDING}def task_${f}(x):\n    return helper_${f}(x) + ${f}\n`;
const pythonJobs = () =>
  Array.from({ length: COUNT }, (_, f) => ({
    path: `pkg/m${f}.py`,
    language: "python" as const,
    size: source(f).length,
  }));

describe("parsing on this thread and a worker", () => {
  it("splits the files between them, and every file is extracted once", async () => {
    mkdirSync(join(dir, "pkg"));
    for (let f = 0; f < COUNT; f++) writeFileSync(join(dir, "pkg", `m${f}.py`), source(f));
    const jobs = pythonJobs();
    const workers = startParseWorkers(dir, 1 << 20, 2);
    expect(workers).toHaveLength(1);
    // What the worker sends, seen beside the pool's own listener.
    const fromWorker: string[] = [];
    workers[0]!.on("message", (outcomes: ParseOutcome[]) => fromWorker.push(...outcomes.map((o) => o.path)));
    const results: ParseOutcome[] = [];
    await parseAll(dir, jobs, 1 << 20, 2, (o) => results.push(o), workers);

    expect(results.map((r) => r.path).sort()).toEqual(jobs.map((j) => j.path).sort());
    for (const r of results) {
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const f = r.path.match(/m(\d+)\.py$/)![1];
      expect(r.result.symbols.map((s) => s.name)).toContain(`task_${f}`);
      expect(r.result.refs.map((ref) => ref.name)).toContain(`helper_${f}`);
    }
    // Both took part: the worker sent some of the files, and this thread parsed the others.
    expect(fromWorker.length).toBeGreaterThan(0);
    expect(fromWorker.length).toBeLessThan(COUNT);
    expect(new Set(fromWorker).size).toBe(fromWorker.length);
  });

  it("a failure storing results ends the parse with that error, whichever thread parsed them", async () => {
    const jobs = pythonJobs();
    const workers = startParseWorkers(dir, 1 << 20, 2);
    const fromWorker = new Set<string>();
    workers[0]!.on("message", (outcomes: ParseOutcome[]) => {
      for (const o of outcomes) fromWorker.add(o.path);
    });
    // A fake fault, as storing hits a full disk: the store fails on the first result the worker sent.
    const store = (o: ParseOutcome) => {
      if (fromWorker.has(o.path)) throw new Error("database or disk is full");
    };
    await expect(parseAll(dir, jobs, 1 << 20, 2, store, workers)).rejects.toThrow("database or disk is full");
    expect(fromWorker.size).toBeGreaterThan(0);

    // The same for a result this thread parsed itself.
    const again = startParseWorkers(dir, 1 << 20, 2);
    const sent = new Set<string>();
    again[0]!.on("message", (outcomes: ParseOutcome[]) => {
      for (const o of outcomes) sent.add(o.path);
    });
    const storeOwn = (o: ParseOutcome) => {
      if (!sent.has(o.path)) throw new Error("disk I/O error");
    };
    await expect(parseAll(dir, jobs, 1 << 20, 2, storeOwn, again)).rejects.toThrow("disk I/O error");
  });

  it("with one parsing thread, no worker is started and this thread parses everything", async () => {
    expect(startParseWorkers(dir, 1 << 20, 1)).toHaveLength(0);
    // Enough source for a worker, had two threads been asked for.
    const jobs = pythonJobs();
    const results: ParseOutcome[] = [];
    await parseAll(dir, jobs, 1 << 20, 1, (o) => results.push(o));
    expect(results.map((r) => r.path)).toEqual(jobs.map((j) => j.path));
    expect(results.every((r) => r.ok)).toBe(true);
  });
});
