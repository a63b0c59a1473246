import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/store/database.js";
import { indexedProject, type IndexedProject } from "../helpers/indexed-project.js";

/**
 * Swift overloads share a qualified name, so the fixtures' `expected.txt` cannot tell them apart:
 * here each call's target is checked by the line its overload is declared on.
 */
const SOURCE = `open class Failure: Error {}
final class Timeout: Failure {}
protocol Shape {}
final class Circle: Shape {}

final class Registry {
  func register(module: Circle, name: String? = nil) {}
  func register(holder: Circle) {}
  func register(_ values: Int...) {}
  func reject(_ error: Error) {}
  func reject(_ failure: Failure) {}
  func reject(_ shape: Shape) {}

  func use(_ circle: Circle, _ error: Error) {
    register(module: circle)
    register(module: circle, name: "c")
    register(holder: circle)
    register(1, 2, 3)
    reject(Timeout())
    reject(circle)
    reject(error)
    reject(unknown)
  }
}
`;

/** Declaration lines of the overloads above. */
const LINE = { module: 7, holder: 8, variadic: 9, error: 10, failure: 11, shape: 12 };

describe("resolution: swift overloads", () => {
  let project: IndexedProject;
  let db: Db;
  beforeAll(async () => {
    project = await indexedProject("swift-overloads", { files: { "Registry.swift": SOURCE } });
    db = project.db;
  });
  afterAll(() => project?.cleanup());

  /** Declaration lines of what the call on `line` named `name` reaches. */
  function targets(line: number, name: string): number[] {
    const rows = db
      .prepare(
        `SELECT t.start_line AS line FROM refs r JOIN edges e ON e.ref_id = r.id JOIN nodes t ON t.id = e.target_id
          WHERE r.line = ? AND r.name = ? ORDER BY t.start_line`,
      )
      .all(line, name) as { line: number }[];
    return rows.map((r) => r.line);
  }

  it("tells overloads apart by argument labels, defaults and variadics included", () => {
    expect(targets(15, "register")).toEqual([LINE.module]);
    expect(targets(16, "register")).toEqual([LINE.module]);
    expect(targets(17, "register")).toEqual([LINE.holder]);
    expect(targets(18, "register")).toEqual([LINE.variadic]);
  });

  it("tells overloads of one label apart by the nearest type of a typed argument", () => {
    expect(targets(19, "reject")).toEqual([LINE.failure]);
    expect(targets(20, "reject")).toEqual([LINE.shape]);
    expect(targets(21, "reject")).toEqual([LINE.error]);
  });

  it("reaches the first overload, marked as one of several, when the argument's type is unknown", () => {
    expect(targets(22, "reject")).toEqual([LINE.error]);
    const how = db
      .prepare("SELECT e.resolution FROM refs r JOIN edges e ON e.ref_id = r.id WHERE r.line = ? AND r.name = ?")
      .pluck()
      .all(22, "reject");
    expect(how).toEqual(["overload"]);
    // Calls whose overload is known are not marked.
    expect(
      db
        .prepare("SELECT e.resolution FROM refs r JOIN edges e ON e.ref_id = r.id WHERE r.line = ? AND r.name = ?")
        .pluck()
        .all(21, "reject"),
    ).not.toContain("overload");
  });
});
