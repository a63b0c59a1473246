import { describe, expect, it } from "vitest";
import { findSymbols } from "../../src/query/symbols.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Looking a symbol up by its qualified name goes through the name index, trying each dotted suffix of
// the text as the name: a name may hold a dot itself (a computed key, `[Symbol.iterator]`).

const SOURCE = `export class Color {
  *[Symbol.iterator]() {
    yield 1;
  }
  mix(other: Color) {
    return other;
  }
}
export class Palette {
  mix(a: Color) {
    return a;
  }
}
export function mix() {}
`;

const project = useIndexedProject("qname", {
  files: { "color.ts": SOURCE, "src/other.ts": "export function mix() {}\nexport class Color {}\n" },
});

const found = (text: string) => findSymbols(project.db, text).map((h) => `${h.qualifiedName}:${h.startLine}`);

describe("symbols by qualified name", () => {
  it("finds a method by Class.method, and only that class's", () => {
    expect(found("Color.mix")).toEqual(["Color.mix:5"]);
    expect(found("Palette.mix")).toEqual(["Palette.mix:10"]);
  });

  it("finds a name that holds a dot", () => {
    expect(found("Color.[Symbol.iterator]")).toEqual(["Color.[Symbol.iterator]:2"]);
  });

  it("a top-level name is its own qualified name; an unknown one finds nothing", () => {
    expect(found("mix").sort()).toEqual(["mix:1", "mix:14"]);
    expect(found("Shade.mix")).toEqual([]);
    expect(found("iterator]")).toEqual([]);
  });

  it("takes a file before the name, as agents copy locations (`path:name`, pytest's `path::name`)", () => {
    const where = (text: string) => findSymbols(project.db, text).map((h) => `${h.file}:${h.qualifiedName}`);
    expect(where("src/other.ts:mix")).toEqual(["src/other.ts:mix"]);
    expect(where("color.ts::mix")).toEqual(["color.ts:mix"]);
    expect(where("other.ts:Color")).toEqual(["src/other.ts:Color"]);
    expect(where("color.ts:Palette.mix")).toEqual(["color.ts:Palette.mix"]);
    // A file that holds no such name: the text is read as a whole, as before, and finds nothing.
    expect(where("src/other.ts:Palette")).toEqual([]);
  });
});
