import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

// What `push` puts into an array types its elements (`stack[0]`), one typing per array and function.

const typings = async (source: string) =>
  (await extractSource("javascript", source, "m.js")).localTypes
    .filter((t) => t.name.endsWith("[0]"))
    .map((t) => `${t.name} ${t.typeName}`);

describe("pushed elements", () => {
  it("type an array where every push in a function agrees", async () => {
    const source = `function fill() {
  var stack = [];
  var layer = new Layer();
  stack.push(layer);
  stack.push(new Layer());
  this.items.push(new Item());
  return stack;
}`;
    expect(await typings(source)).toEqual(["stack[0] Layer", "this.items[0] Item"]);
  });

  it("type nothing where pushes differ or one is unknown", async () => {
    const source = `function fill(make) {
  var mixed = [];
  mixed.push(new Layer());
  mixed.push(new Route());
  var some = [];
  some.push(new Layer());
  some.push(make());
  return [mixed, some];
}`;
    expect(await typings(source)).toEqual([]);
  });

  it("give a table filled by thousands of pushes one typing at most", async () => {
    let source = "var table = [];\n";
    for (let i = 0; i < 2000; i++) source += `table.push(new Handler${i % 20}());\n`;
    source += "var same = [];\n";
    for (let i = 0; i < 2000; i++) source += "same.push(new Handler());\n";
    expect(await typings(source)).toEqual(["same[0] Handler"]);
  });
});
