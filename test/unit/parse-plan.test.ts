import { describe, expect, it } from "vitest";
import type { ParseJob } from "../../src/indexer/messages.js";
import { WORKERS_FROM_BYTES, parsePlan } from "../../src/indexer/pool.js";

const jobs = (count: number, size: number): ParseJob[] =>
  Array.from({ length: count }, (_, i) => ({ path: `f${i}.py`, language: "python", size }));
const MiB = 2 ** 20;

describe("how a parse job is split between this thread and workers", () => {
  it("parses little source on this thread alone, however many files it is in", () => {
    expect(parsePlan(jobs(1000, Math.floor((WORKERS_FROM_BYTES - 1) / 1000)), 2)).toEqual({
      workers: 0,
      alongside: true,
    });
    expect(parsePlan(jobs(4, (WORKERS_FROM_BYTES - 4) / 4), 2)).toEqual({ workers: 0, alongside: true });
  });

  it("parses enough source beside a worker, in few files too", () => {
    expect(parsePlan(jobs(4, WORKERS_FROM_BYTES / 4), 2)).toEqual({ workers: 1, alongside: true });
    expect(parsePlan(jobs(36, 12_000), 2)).toEqual({ workers: 1, alongside: true });
  });

  it("parses beside one worker fewer than the threads asked for", () => {
    expect(parsePlan(jobs(1000, 10_000), 2)).toEqual({ workers: 1, alongside: true });
    expect(parsePlan(jobs(1000, 10_000), 4)).toEqual({ workers: 3, alongside: true });
  });

  it("starts no more parsers than there are files, nor batches of the least size", () => {
    // One file cannot be shared.
    expect(parsePlan(jobs(1, 4 * MiB), 8)).toEqual({ workers: 0, alongside: true });
    // Two files, two parsers: this thread and one worker.
    expect(parsePlan(jobs(2, MiB), 8)).toEqual({ workers: 1, alongside: true });
    // Just past the line, 192 KiB make three batches of 64 KiB at most.
    expect(parsePlan(jobs(96, WORKERS_FROM_BYTES / 96), 8)).toEqual({ workers: 2, alongside: true });
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
