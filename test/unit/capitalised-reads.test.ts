import { describe, expect, it } from "vitest";
import { capitalisedReads, type CapitalisedRead } from "../../src/extract/capitalised-reads.js";

function reads(source: string): string[] {
  const found: CapitalisedRead[] = [];
  capitalisedReads(source, (r) => found.push(r));
  return found.map((r) => {
    expect(source.slice(r.at, r.at + r.name.length)).toBe(r.name);
    return r.object === null ? r.name : `${r.object}.${r.name}`;
  });
}

describe("capitalisedReads", () => {
  it("finds names in capitals, bare", () => {
    expect(reads("if (n > MAX_ROWS && x == LIMIT) return DEFAULT")).toEqual(["MAX_ROWS", "LIMIT", "DEFAULT"]);
  });

  it("finds members through a capitalised name, and members in capitals through another name", () => {
    expect(reads("a = Level.High + Config.TIMEOUT + settings.DEBUG + self.MAX")).toEqual([
      "Level.High",
      "Config.TIMEOUT",
      "settings.DEBUG",
      "self.MAX",
    ]);
  });

  it("reads a constant whose member is then used", () => {
    expect(reads("parts = key.split(LOOKUP_SEP); LOOKUP_SEP.join(parts)")).toEqual(["LOOKUP_SEP", "LOOKUP_SEP"]);
  });

  it("leaves out calls, assignments, longer paths, single letters and names inside longer ones", () => {
    expect(reads("MAX = 3; RUN(); Foo.bar(); a.b.MAX; X; fooBAR; $FOO; éFOO; x.lower; 1.E5; Foo.Bar.baz")).toEqual([
      "Foo.Bar",
    ]);
  });

  it("keeps comparisons and arrows apart from assignments", () => {
    expect(reads("a === MAX; b => MAX; c = MAX")).toEqual(["MAX", "MAX", "MAX"]);
  });
});
