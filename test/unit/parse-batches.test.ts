import { describe, expect, it } from "vitest";
import type { LanguageId } from "../../src/extract/language.js";
import { BatchQueue, MAX_FILES } from "../../src/indexer/batches.js";
import type { ParseJob } from "../../src/indexer/messages.js";

// How parse jobs are handed to the workers: every file once, grouped by language in the scan's order,
// in batches bounded by bytes that shrink as the work runs out.

const KiB = 1024;

function drain(queue: BatchQueue): ParseJob[][] {
  const out: ParseJob[][] = [];
  while (!queue.empty) out.push(queue.take());
  return out;
}

/** Sizes that are not in order: 1 KiB up to 300 KiB, shuffled by a fixed stride. */
function mixed(language: LanguageId, count: number): ParseJob[] {
  return Array.from({ length: count }, (_, i) => {
    const k = (i * 37) % count;
    return { path: `${language}/f${i}`, language, size: (1 + ((k * 7919) % 300)) * KiB };
  });
}

describe("parse batches", () => {
  it("hands out every file exactly once", () => {
    const jobs = [...mixed("python", 400), ...mixed("javascript", 30)];
    const paths = drain(new BatchQueue(jobs, 2))
      .flat()
      .map((j) => j.path);
    expect(paths.length).toBe(jobs.length);
    expect(new Set(paths)).toEqual(new Set(jobs.map((j) => j.path)));
  });

  it("keeps each language's files together, in the scan's order", () => {
    const python = mixed("python", 100);
    const js = mixed("javascript", 30);
    const jobs = [python[0]!, ...js, ...python.slice(1)];
    const order = drain(new BatchQueue(jobs, 2)).flat();
    expect(order.map((j) => j.path)).toEqual([...python, ...js].map((j) => j.path));
  });

  it("hands out the languages it is told to put first ahead of the others", () => {
    const js = mixed("javascript", 30);
    const python = mixed("python", 100);
    const go = mixed("go", 10);
    const order = drain(new BatchQueue([...js, ...python, ...go], 2, new Set<LanguageId>(["python"]))).flat();
    expect(order.map((j) => j.path)).toEqual([...python, ...js, ...go].map((j) => j.path));
  });

  it("keeps batches within their bounds", () => {
    const jobs = mixed("python", 2000);
    const batches = drain(new BatchQueue(jobs, 2));
    const bytes = batches.map((b) => b.reduce((n, j) => n + j.size, 0));
    for (const [i, b] of batches.entries()) {
      expect(b.length).toBeGreaterThan(0);
      expect(b.length).toBeLessThanOrEqual(MAX_FILES);
      // Over the byte bound only as a single large file.
      if (b.length > 1) expect(bytes[i]).toBeLessThanOrEqual(256 * KiB);
    }
  });

  it("sends full batches while much remains, and small ones at the end", () => {
    // 2,000 files of 12 KiB: 21 fit in the largest batch, 5 in the smallest.
    const jobs: ParseJob[] = Array.from({ length: 2000 }, (_, i) => ({
      path: `f${i}.py`,
      language: "python",
      size: 12 * KiB,
    }));
    const sizes = drain(new BatchQueue(jobs, 2)).map((b) => b.length);
    expect(sizes.slice(0, 10)).toEqual(Array(10).fill(21));
    expect(sizes.slice(-4, -1)).toEqual([5, 5, 5]);
    expect(sizes.at(-1)!).toBeLessThanOrEqual(5);
  });

  it("sends a file larger than any batch alone", () => {
    const jobs: ParseJob[] = [{ path: "big.py", language: "python", size: 900 * KiB }, ...mixed("python", 10)];
    const [first] = drain(new BatchQueue(jobs, 2));
    expect(first!.map((j) => j.path)).toEqual(["big.py"]);
  });
});
