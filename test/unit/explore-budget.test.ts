import { describe, expect, it } from "vitest";
import {
  BUDGET_TIERS,
  FILE_CEILING,
  MAX_SOURCE_CHARS,
  budgetFor,
  fileAllowance,
} from "../../src/query/explore-budget.js";
import { coverageSuffix } from "../../src/render/explore.js";

describe("explore budget", () => {
  it("grows with the project, tier by tier, and never shrinks", () => {
    const sizes = [10, 150, 151, 1_500, 1_501, 10_000, 10_001, 500_000];
    const budgets = sizes.map((n) => budgetFor(n));
    for (let i = 1; i < budgets.length; i++) {
      expect(budgets[i]!.total).toBeGreaterThanOrEqual(budgets[i - 1]!.total);
      expect(budgets[i]!.files).toBeGreaterThanOrEqual(budgets[i - 1]!.files);
    }
    expect(budgetFor(150)).toEqual({
      total: BUDGET_TIERS[0]!.total,
      files: BUDGET_TIERS[0]!.files,
      perFile: BUDGET_TIERS[0]!.perFile,
    });
    expect(budgetFor(151).total).toBe(BUDGET_TIERS[1]!.total);
    expect(budgetFor(10_001).total).toBe(BUDGET_TIERS[3]!.total);
  });

  it("lets maxFiles set the file count, within 1 to 30", () => {
    expect(budgetFor(5000, 3).files).toBe(3);
    expect(budgetFor(5000, 0).files).toBe(1);
    expect(budgetFor(5000, 99).files).toBe(30);
  });

  it("lets maxChars set the total, each file's share following it alike, up to the largest tier's", () => {
    const tier = budgetFor(5000);
    const small = budgetFor(5000, undefined, tier.total / 4);
    expect(small.total).toBe(tier.total / 4);
    expect(small.perFile).toBe(Math.round(tier.perFile / 4));
    expect(small.files).toBe(tier.files);
    // A small project asked for more gets it: twice its tier's total, twice each file's share.
    const smallTier = budgetFor(100);
    const more = budgetFor(100, undefined, 2 * smallTier.total);
    expect(more.total).toBe(2 * smallTier.total);
    expect(more.perFile).toBe(2 * smallTier.perFile);
    expect(more.files).toBe(smallTier.files);
    expect(budgetFor(100, undefined, 10 * MAX_SOURCE_CHARS).total).toBe(MAX_SOURCE_CHARS);
  });

  it("gives a named file up to 1.5x the per-file share, never more than what is left", () => {
    const b = budgetFor(5000);
    expect(fileAllowance(b, 1_000_000, false)).toBe(b.perFile);
    expect(fileAllowance(b, 1_000_000, true)).toBe(b.perFile * FILE_CEILING);
    expect(fileAllowance(b, 100, true)).toBe(100);
    expect(fileAllowance(b, -5, false)).toBe(0);
  });
});

describe("coverage suffixes", () => {
  it("name at most two test files and count the rest", () => {
    expect(coverageSuffix({ outcome: "tested", testFiles: ["t/a.py"] })).toBe("; tested via callers: `t/a.py`");
    expect(coverageSuffix({ outcome: "tested", testFiles: ["t/a.py", "t/b.py", "t/c.py", "t/d.py"] })).toBe(
      "; tested via callers: `t/a.py`, `t/b.py` +2",
    );
  });

  it("say what was searched when nothing was found", () => {
    expect(coverageSuffix({ outcome: "untested-within-hops" })).toBe("; no tests found within 3 caller hops");
    expect(coverageSuffix({ outcome: "lookup-budget-exhausted" })).toBe("; no test calls this directly");
  });
});
