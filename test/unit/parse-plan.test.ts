import { describe, expect, it } from "vitest";
import type { ParseJob } from "../../src/indexer/messages.js";
import { WORKERS_FROM, parsePlan } from "../../src/indexer/pool.js";

const jobs = (count: number, size: number): ParseJob[] =>
  Array.from({ length: count }, (_, i) => ({ path: `f${i}.py`, language: "python", size }));
const MiB = 2 ** 20;

describe("how a parse job is split between this thread and workers", () => {
  it("parses a few files on this thread alone", () => {
    expect(parsePlan(jobs(WORKERS_FROM - 1, 10_000), 2)).toEqual({ workers: 0, alongside: true });
  });

  it("parses beside one worker fewer than the threads asked for", () => {
    expect(parsePlan(jobs(1000, 10_000), 2)).toEqual({ workers: 1, alongside: true });
    expect(parsePlan(jobs(1000, 10_000), 4)).toEqual({ workers: 3, alongside: true });
  });

  it("starts no more parsers than there are full batches", () => {
    // 49 files make three batches at most: three parsers, this thread among them.
    expect(parsePlan(jobs(WORKERS_FROM, 100), 8)).toEqual({ workers: 2, alongside: true });
  });

  it("leaves a large job's parsing to the workers, one per thread asked for", () => {
    expect(parsePlan(jobs(1000, 40_000), 2)).toEqual({ workers: 2, alongside: false });
    // Just under the line, this thread still parses.
    expect(parsePlan(jobs(1000, Math.floor((32 * MiB) / 1000)), 2)).toEqual({ workers: 1, alongside: true });
  });

  it("with one thread or none, parses on this thread alone, a large job too", () => {
    for (const threads of [0, 1])
      for (const size of [10_000, 40_000])
        expect(parsePlan(jobs(1000, size), threads)).toEqual({ workers: 0, alongside: true });
  });
});
