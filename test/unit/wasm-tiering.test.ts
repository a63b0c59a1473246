import { describe, expect, it } from "vitest";
import { grammarSize } from "../../src/extract/parser.js";
import type { LanguageId } from "../../src/extract/language.js";
import { worthOptimising } from "../../src/indexer/pool.js";
import type { ParseJob } from "../../src/indexer/messages.js";

// The rule that picks V8's optimising WASM tier for a parse job, against the real grammar files.

const MiB = 1024 * 1024;
/** `total` bytes of one language, in files of 20 KiB. */
function jobs(language: LanguageId, total: number): ParseJob[] {
  const out: ParseJob[] = [];
  for (let i = 0; i * 20 * 1024 < total; i++) out.push({ path: `f${i}`, language, size: 20 * 1024 });
  return out;
}

describe("optimising the grammars' WASM", () => {
  it("pays for a large job, not for a few files", () => {
    expect(worthOptimising(jobs("python", 5 * MiB), grammarSize)).toBe(true);
    expect(worthOptimising(jobs("python", 200 * 1024), grammarSize)).toBe(false);
  });

  it("weighs the source against the size of its grammar", () => {
    // The same 2 MiB: enough for PHP's grammar, not for TSX's, three times larger.
    expect(grammarSize("tsx")).toBeGreaterThan(2 * grammarSize("php"));
    expect(worthOptimising(jobs("php", 2.2 * MiB), grammarSize)).toBe(true);
    expect(worthOptimising(jobs("tsx", 2.2 * MiB), grammarSize)).toBe(false);
  });

  it("counts every grammar a mixed job needs", () => {
    const php = jobs("php", 2.2 * MiB);
    const mixed = [...php, ...jobs("kotlin", 40 * 1024), ...jobs("swift", 40 * 1024)];
    expect(worthOptimising(mixed, grammarSize)).toBe(false);
  });
});
