import { describe, expect, it } from "vitest";
import { cSharpParseText, primaryParameters } from "../../src/extract/languages/csharp-primary.js";
import { extractSource } from "../../src/extract/parser.js";

const SOURCE = `namespace Shop;
public class Checkout<T>(IRepo<T> repo, [FromServices] ILogger? log, int retries = 3) : Audited(retries), IFoo
{
    public void Run() { repo.Save(); }
}
public struct Money(decimal amount);
public readonly record struct Pair(Point A, Point B);
`;

describe("C# primary constructors", () => {
  it("are left out of the parse, in place, so the declarations parse cleanly", async () => {
    const text = cSharpParseText(SOURCE);
    expect(text.length).toBe(SOURCE.length);
    expect(text.split("\n").length).toBe(SOURCE.split("\n").length);
    expect(text).toContain("public class Checkout<T> ");
    expect(text).toMatch(/: Audited {9}, IFoo/);
    // No body: the list becomes one, so the struct is still a declaration.
    expect(text).toContain("public struct Money{              } ");
    // A positional record is the grammar's own.
    expect(text).toContain("record struct Pair(Point A, Point B);");
    const result = await extractSource("csharp", SOURCE, "Checkout.cs");
    expect(result.syntaxErrors).toBe(0);
    expect(result.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(["Checkout", "Run", "Money", "Pair"]));
  });

  it("leave C# 11 file types to the parse as plain ones", () => {
    expect(cSharpParseText("file sealed class Local { }\nfile interface I { }\nvar file = 1;\n")).toBe(
      "     sealed class Local { }\n     interface I { }\nvar file = 1;\n",
    );
  });

  it("have their parameters read from the text, with the types' names", () => {
    const at = SOURCE.indexOf("Checkout") + "Checkout".length;
    expect(primaryParameters(SOURCE, at).map(({ name, typeName }) => [name, typeName])).toEqual([
      ["repo", "IRepo"],
      ["log", "ILogger"],
      ["retries", null],
    ]);
    const plain = "public class Service : Base { }";
    expect(primaryParameters(plain, plain.indexOf("Service") + 7)).toEqual([]);
  });
});
