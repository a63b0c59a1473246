import { describe, expect, it } from "vitest";
import { impact } from "../../src/query/impact.js";
import { renderImpact } from "../../src/render/text.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A cut blast radius said "… truncated; raise the limit to see more.": not how much was left out,
// and nothing of the depths the limit kept it from reaching (three's Object3D: 200 shown of 307).
const SOURCE = `export function base(): number {
  return 1;
}
export function a1(): number {
  return base();
}
export function a2(): number {
  return base();
}
export function a3(): number {
  return base();
}
export function b1(): number {
  return a1() + a2();
}
export function c1(): number {
  return b1();
}
`;

const project = useIndexedProject("impact-limit", { files: { "src/chain.ts": SOURCE } });

describe("impact with a limit", () => {
  it("counts the dependents it leaves out, at every depth", () => {
    const r = impact(project.db, "base", { limit: 2 });
    const [s] = r.sections;
    expect(s!.hits.map((h) => h.symbol.qualifiedName)).toEqual(["a1", "a2"]);
    expect({ truncated: s!.truncated, total: s!.total, atLeast: s!.totalAtLeast }).toEqual({
      truncated: true,
      total: 5,
      atLeast: false,
    });
    expect(renderImpact(r, 5000)).toContain(
      "Showing 2 of 5 dependents within depth 3; raise the limit (up to 5000) to see more, or lower the depth.",
    );
  });

  it("says nothing of a limit an answer fits in", () => {
    const r = impact(project.db, "base", { depth: 2 });
    expect(r.sections[0]!.total).toBe(4);
    expect(renderImpact(r, 5000)).not.toContain("Showing");
  });
});
