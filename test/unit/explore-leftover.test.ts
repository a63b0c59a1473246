import { describe, expect, it } from "vitest";
import { exploreQuery } from "../../src/query/explore.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// One file holds everything the question is about, more than one file's share of the answer; no
// other file has much to show. The budget the other files leave goes to it.
const VARIANTS = ["Job", "Retry", "Batch", "Delayed", "Repeating", "At"];
const method = (v: string) =>
  [
    `  schedule${v}(job: () => void, delay: number): number {`,
    ...Array.from(
      { length: 20 },
      (_, i) => `    const step${i} = this.queue.length + delay * ${i}; // keep the ${v} order`,
    ),
    `    this.queue.push(job);`,
    `    return this.queue.length;`,
    `  }`,
  ].join("\n");
const POOL = `export class WorkerPool {\n  private readonly queue: (() => void)[] = [];\n\n${VARIANTS.map(method).join("\n\n")}\n}\n`;

const project = useIndexedProject("explore-leftover", { files: { "src/pool.ts": POOL } });

describe("budget left by the other files", () => {
  it("goes to the ranked file that had to leave candidates out", () => {
    const answer = exploreQuery(project.db, project.dir, "how does the worker pool schedule work");
    const file = answer.files.find((f) => f.path === "src/pool.ts")!;
    const shown = (name: string) => {
      const s = file.symbols.find((x) => x.name === name)!;
      return file.blocks.some((b) => b.startLine <= s.startLine && s.startLine <= b.endLine);
    };
    expect(VARIANTS.map((v) => `schedule${v}`).filter((n) => !shown(n))).toEqual([]);
  });
});
