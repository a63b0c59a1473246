import { describe, expect, it } from "vitest";
import type { LanguageId } from "../../src/extract/language.js";
import { BatchQueue, MAX_FILES } from "../../src/indexer/batches.js";
import type { ParseJob } from "../../src/indexer/messages.js";

// How parse jobs are handed to the workers: every file once, biggest first within a language, the
// largest language last, and batches that shrink as the work runs out.

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

  it("puts the biggest files of a language first and the language with the most source last", () => {
    const jobs = [...mixed("python", 400), ...mixed("javascript", 30)];
    const order = drain(new BatchQueue(jobs, 2)).flat();
    const languages = order.map((j) => j.language);
    expect(languages.slice(0, 30).every((l) => l === "javascript")).toBe(true);
    expect(languages.slice(30).every((l) => l === "python")).toBe(true);
    const python = order.slice(30).map((j) => j.size);
    expect(python).toEqual([...python].sort((a, b) => b - a));
  });

  it("keeps batches within their bounds and lets the last ones shrink", () => {
    const jobs = mixed("python", 2000);
    const batches = drain(new BatchQueue(jobs, 2));
    const bytes = batches.map((b) => b.reduce((n, j) => n + j.size, 0));
    for (const [i, b] of batches.entries()) {
      expect(b.length).toBeGreaterThan(0);
      expect(b.length).toBeLessThanOrEqual(MAX_FILES);
      // Over the byte bound only as a single large file.
      if (b.length > 1) expect(bytes[i]).toBeLessThanOrEqual(256 * KiB);
    }
    // The first batches carry the largest files, the last the smallest: the finish is balanced.
    expect(batches[0]![0]!.size).toBe(300 * KiB);
    expect(bytes[bytes.length - 1]!).toBeLessThan(bytes[0]!);
    expect(Math.max(...batches[batches.length - 1]!.map((j) => j.size))).toBeLessThan(20 * KiB);
  });

  it("sends a file larger than any batch alone", () => {
    const jobs: ParseJob[] = [{ path: "big.py", language: "python", size: 900 * KiB }, ...mixed("python", 10)];
    const [first] = drain(new BatchQueue(jobs, 2));
    expect(first!.map((j) => j.path)).toEqual(["big.py"]);
  });
});
