import { describe, expect, it } from "vitest";
import { useIndexedProject } from "../helpers/indexed-project.js";

/**
 * Protocol requirements share a qualified name with their overloads and with the default
 * implementations of a protocol extension, so the fixtures' `expected.txt` cannot tell them apart:
 * here each edge's target is checked by the line it is declared on.
 */
const SOURCE = `protocol Caster {
  func cast(_ value: Int) -> Int
  func cast(jsValue: Int) -> Int
  func wraps(_ value: Int) -> Bool
}
extension Caster {
  func cast(_ value: Int) -> Int { return value }
}

struct ArrayCaster: Caster {
  func cast(_ value: Int) -> Int { return value }
  func cast(jsValue: Int) -> Int { return jsValue }
  func wraps(_ value: Int) -> Bool { return true }
}

func use(_ c: Caster) {
  c.cast(jsValue: 1)
  c.cast(2)
}
`;

/** Declaration lines in SOURCE. */
const LINE = { castValue: 2, castJs: 3, wraps: 4, defaultCast: 7, myCastValue: 11, myCastJs: 12, myWraps: 13 };

describe("resolution: swift protocol requirements", () => {
  const project = useIndexedProject("swift-protocols", { files: { "Caster.swift": SOURCE } });

  /** Declaration lines of what the edges of a kind from the symbol declared on `line` reach. */
  function targets(kind: string, line: number): number[] {
    return project.db
      .prepare(
        `SELECT t.start_line FROM edges e JOIN nodes s ON s.id = e.source_id JOIN nodes t ON t.id = e.target_id
          WHERE e.kind = ? AND s.start_line = ? ORDER BY t.start_line`,
      )
      .pluck()
      .all(kind, line) as number[];
  }

  /** Declaration line and resolution of what the call on `line` reaches. */
  function callTargets(line: number): string[] {
    return project.db
      .prepare(
        `SELECT t.start_line || ' ' || e.resolution FROM refs r JOIN edges e ON e.ref_id = r.id
          JOIN nodes t ON t.id = e.target_id WHERE r.line = ? AND e.kind = 'calls'`,
      )
      .pluck()
      .all(line) as string[];
  }

  it("gives a conformer's methods overrides of the requirement of their labels", () => {
    expect(targets("overrides", LINE.myCastValue)).toEqual([LINE.castValue]);
    expect(targets("overrides", LINE.myCastJs)).toEqual([LINE.castJs]);
    expect(targets("overrides", LINE.myWraps)).toEqual([LINE.wraps]);
  });

  // Not marked as one of several overloads: the labels and the requirement decide.
  it("calls the requirement of the call's labels, not a default implementation", () => {
    expect(callTargets(17)).toEqual([`${LINE.castJs} typed`]);
    expect(callTargets(18)).toEqual([`${LINE.castValue} typed`]);
  });
});
