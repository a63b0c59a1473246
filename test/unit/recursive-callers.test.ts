import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A function that calls itself is its own caller: an agent about to change it must see the recursion.
// What a function nests, and a type's members among themselves, are still not callers of it.
const SOURCE = `export function walk(n: number): number {
  return n <= 0 ? 0 : walk(n - 1);
}

export function outer(): number {
  function inner(): number {
    return outer();
  }
  return inner();
}

export function user(): number {
  return walk(3) + outer();
}

export class Box {
  a(): number {
    return this.b();
  }
  b(): number {
    return this.b();
  }
}

export function useBox(): number {
  return new Box().a();
}
`;

const project = useIndexedProject("recursive-callers", { files: { "src/walk.ts": SOURCE } });

const callers = (name: string) =>
  relations(project.db, name, "callers").groups.flatMap((g) =>
    g.rows.map((r) => `${r.symbol.qualifiedName}:${r.line}`),
  );

describe("callers of a function that calls itself", () => {
  it("list the recursive call, beside the outside callers", () => {
    expect(callers("walk")).toEqual(["walk:2", "user:13"]);
  });

  it("list a call back from a function it nests, and not its own call of that function", () => {
    expect(callers("outer")).toEqual(["outer.inner:7", "user:13"]);
  });

  it("of a method calling itself list it; a class's members calling each other are not the class's callers", () => {
    expect(callers("Box.b")).toEqual(["Box.a:18", "Box.b:21"]);
    const ofBox = relations(project.db, "Box", "callers").groups.flatMap((g) => g.rows);
    expect(ofBox.map((r) => `${r.symbol.qualifiedName}:${r.line} ${r.kind}`).sort()).toEqual([
      "useBox:26 calls",
      "useBox:26 instantiates",
    ]);
  });

  it("agree with the callees of the same function", () => {
    const callees = relations(project.db, "walk", "callees").groups.flatMap((g) =>
      g.rows.map((r) => r.symbol.qualifiedName),
    );
    expect(callees).toContain("walk");
  });
});
