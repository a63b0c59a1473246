import { describe, expect, it } from "vitest";
import { renderCycles } from "../../src/render/graph-text.js";

// Past 100 cycles the text said "--json lists them all", which an agent calling codegraph_check
// cannot pass: the tool takes a folder to narrow the cycles instead.
const report = {
  cycles: Array.from({ length: 103 }, (_, i) => [`m${i}/a.ts`, `m${i}/b.ts`, `m${i}/a.ts`]),
  filesChecked: 206,
};

describe("a long list of cycles", () => {
  it("tells the CLI's reader of --json and an agent of the path argument", () => {
    expect(renderCycles(report).split("\n").pop()).toBe("  … 3 more; --json lists them all.");
    expect(renderCycles(report, undefined, { forAgent: true }).split("\n").pop()).toBe(
      "  … 3 more; pass path to see those through one folder.",
    );
  });
});
