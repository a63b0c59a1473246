import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

// A use repeated on one line, from one scope, alike in all but the column, is one reference: it
// would resolve to the same edge at the same line.

const calls = async (source: string, language: "python" | "javascript" = "python") =>
  (await extractSource(language, source, language === "python" ? "m.py" : "m.js")).refs
    .filter((r) => r.kind === "calls")
    .map((r) => `${r.line} ${r.from} ${r.receiver ? `${r.receiver}.` : ""}${r.name}/${r.argCount}`);

describe("repeated uses on a line", () => {
  it("keep one of each call alike but for its column", async () => {
    const source = `def rule():
    return S(1) + S(2) * S(x)
`;
    expect(await calls(source)).toEqual(["2 0 S/1"]);
  });

  it("keep calls that differ in receiver, argument count or line", async () => {
    const source = `def rule(a, b):
    S(1) + S(1, 2) + a.S(1) + b.S(1)
    S(3)
`;
    expect(await calls(source)).toEqual(["2 0 S/1", "2 0 S/2", "2 0 a.S/1", "2 0 b.S/1", "3 0 S/1"]);
  });

  it("keep calls alike from two scopes on one line", async () => {
    const source = "function a() { S(1); S(2); } function b() { S(1); }\n";
    expect(await calls(source, "javascript")).toEqual(["1 0 S/1", "1 1 S/1"]);
  });

  it("keep one of each of many names repeated on a long line", async () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `f${i}(1)`);
    const source = `def rule():\n    return [${names.join(", ")}, ${names.join(", ")}]\n`;
    const found = await calls(source);
    expect(found).toHaveLength(20_000);
    expect(new Set(found).size).toBe(20_000);
  });
});
