import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { renderRelations } from "../../src/render/text.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A call whose argument count leaves several overloads of one method reaches the first of them,
// marked as such: callers of the method (its overloads grouped) count it, and callees say that the
// overload shown may not be the one called.

const SOURCE = `class Log {
  void note(int n) {}
  void note(String s) {}
  void note(String s, int n) {}

  void run() {
    note(1);
    note("a", 2);
  }
}
`;

const project = useIndexedProject("overloads", { files: { "Log.java": SOURCE } });

describe("calls of overloads", () => {
  it("reach the first overload the argument count leaves, or the one it picks", () => {
    const callees = relations(project.db, "Log.run", "callees", {});
    const rows = callees.groups[0]!.rows.map((r) => [r.line, r.symbol.startLine, r.resolution]);
    expect(rows).toEqual([
      [7, 2, "overload"],
      [8, 4, "member"],
    ]);
    const callers = relations(project.db, "Log.note", "callers", {});
    expect(callers.groups.map((g) => g.total)).toEqual([2]);
  });

  it("say so in text where the callee is shown", () => {
    const text = renderRelations(relations(project.db, "Log.run", "callees", {}));
    expect(text).toMatch(/^ {2}Log\.note {2}Log\.java:2 \(or another overload\) {2}line 7$/m);
    expect(text).toMatch(/^ {2}Log\.note {2}Log\.java:4 {2}line 8$/m);
  });
});

// Kotlin: an annotation or `crossinline` before a parameter leaves the count known, so the argument
// count picks the overload (expo-modules-core's `ColorCompat.valueOf(@ColorInt color: Int)` took the
// four-argument calls, its count being unknown).
const KOTLIN = `annotation class ColorInt

object Colors {
  fun valueOf(@ColorInt color: Int): Int = color
  fun valueOf(red: Float, green: Float, blue: Float, alpha: Float): Int = 0
  inline fun mix(crossinline pick: () -> Int): Int = pick()
  fun mix(a: Int, b: Int): Int = a

  fun paint(): Int = valueOf(1f, 0f, 0f, 1f) + mix(1, 2)
}
`;

describe("calls of Kotlin overloads with modified parameters", () => {
  const kt = useIndexedProject("kotlin-overloads", { files: { "Colors.kt": KOTLIN } });

  it("reach the overload of the argument count", () => {
    const callees = relations(kt.db, "Colors.paint", "callees", {});
    const rows = callees.groups[0]!.rows.map((r) => [r.symbol.name, r.symbol.startLine, r.resolution]);
    expect(rows).toEqual([
      ["valueOf", 5, "member"],
      ["mix", 7, "member"],
    ]);
  });
});
