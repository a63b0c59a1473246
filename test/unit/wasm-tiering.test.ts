import { describe, expect, it } from "vitest";
import { grammarSize } from "../../src/extract/parser.js";
import type { LanguageId } from "../../src/extract/language.js";
import { optimisedLanguages } from "../../src/indexer/pool.js";
import type { ParseJob } from "../../src/indexer/messages.js";

// The rule that picks V8's optimising WASM tier for each language of a parse job, against the real
// grammar files.

const MiB = 1024 * 1024;
/** `total` bytes of one language, in files of 20 KiB. */
function jobs(language: LanguageId, total: number): ParseJob[] {
  const out: ParseJob[] = [];
  for (let i = 0; i * 20 * 1024 < total; i++) out.push({ path: `f${i}`, language, size: 20 * 1024 });
  return out;
}

const optimised = (j: ParseJob[]) => [...optimisedLanguages(j, grammarSize)].sort();

describe("optimising the grammars' WASM", () => {
  it("pays for a large job, not for a few files", () => {
    expect(optimised(jobs("python", 5 * MiB))).toEqual(["python"]);
    expect(optimised(jobs("python", 200 * 1024))).toEqual([]);
  });

  it("weighs the source against the size of its grammar", () => {
    // The same 2 MiB: enough for PHP's grammar, not for TSX's, three times larger.
    expect(grammarSize("tsx")).toBeGreaterThan(2 * grammarSize("php"));
    expect(optimised(jobs("php", 2.2 * MiB))).toEqual(["php"]);
    expect(optimised(jobs("tsx", 2.2 * MiB))).toEqual([]);
  });

  it("decides for each language of a mixed job on its own", () => {
    // Django's shape: megabytes of Python, some vendored JavaScript.
    const mixed = [...jobs("python", 5 * MiB), ...jobs("javascript", 780 * 1024), ...jobs("kotlin", 40 * 1024)];
    expect(optimised(mixed)).toEqual(["python"]);
    expect(optimised([...mixed, ...jobs("php", 2.2 * MiB)])).toEqual(["php", "python"]);
  });
});
