import { describe, expect, it } from "vitest";
import { extractSource, loadLanguage } from "../../src/extract/parser.js";
import { tsxParseText, typeScriptParseText } from "../../src/extract/languages/ts-parse-text.js";

/** Effect's style: overloads as newline-separated call signatures, variance on type parameters. */
const DUAL = `import { dual } from "./Function.js"

export interface Queue<in out A, out E = never> {
  readonly take: A
}

export const match: {
  <A, B = A>(options: { readonly onFalse: () => A }): (value: boolean) => A | B
  /**
   * Folds a boolean.
   */
  <A, B>(value: boolean, options: { readonly onFalse: () => A }): A | B
  // the data-last form again
  <C>(value: C): C
} = dual(2, (value: boolean, options: { readonly onFalse: () => unknown }) => value)

export const size = (q: Queue<number>): number => q.take

export const catchTags: {
  <
    const K extends string,
    E
  >(tags: K): (e: E) => E // data-last
  <E, const K extends string>(e: E, tags: K): E
} = dual(2, (e: unknown) => e)

type MissingSelf = \`Missing \\\`Self\\\` generic - use \\\`class Self extends Service<Self>()\\\`\`
`;

describe("TypeScript the grammar misreads", () => {
  it("parses call signatures on lines of their own and variance annotations without errors", async () => {
    // The grammar alone reads this as broken...
    const { parser } = await loadLanguage("typescript");
    const raw = parser.parse(DUAL)!;
    expect(raw.rootNode.hasError).toBe(true);
    raw.delete();
    // ...and the extractor, which parses the rewritten text, finds every declaration and the call.
    const result = await extractSource("typescript", DUAL, "a.ts");
    expect(result.syntaxErrors).toBe(0);
    expect(result.symbols.map((s) => s.name)).toEqual(
      expect.arrayContaining(["Queue", "match", "size", "catchTags", "MissingSelf"]),
    );
    expect(result.refs.filter((r) => r.kind === "calls").map((r) => r.name)).toContain("dual");
  });

  it("rewrites in place: same length, same line breaks, comments and code elsewhere untouched", () => {
    const out = typeScriptParseText(DUAL);
    expect(out.length).toBe(DUAL.length);
    expect(out.split("\n").length).toBe(DUAL.split("\n").length);
    expect(out).toContain("export interface Queue<       A,     E = never>");
    expect(out).toContain("\n ;<A, B>(value: boolean");
    expect(out).toContain("\n ;<C>(value: C): C");
    // The first signature follows `{`, which ends no type: nothing is inserted there. No other line changes.
    expect(out).toContain("{\n  <A, B = A>(options");
    // A `<` alone on its line opens type parameters too; `const` is blanked; a trailing comment is skipped.
    expect(out).toContain("{\n  <\n          K extends string,");
    expect(out).toContain("\n ;<E,       K extends string>(e: E");
    // Escaped backticks in a template literal type are blanked, the template's own are kept.
    expect(out).toContain("type MissingSelf = `Missing   Self   generic - use   class Self extends Service<Self>()  `");
    const changed = out.split("\n").filter((line, i) => line !== DUAL.split("\n")[i]);
    expect(changed).toHaveLength(6);
  });

  it("leaves alone what is not a call signature after a type", () => {
    for (const code of [
      // A generic arrow function after `=>`: the function's value.
      "const f = (x: number) =>\n  <A>(a: A) => a\n",
      // After `=`, `(` or `,`: an expression goes on.
      "const g =\n  <A>(a: A) => a\n",
      "call(\n  <A>(a: A) => a,\n  <B>(b: B) => b\n)\n",
      // A `//` after a quote may be inside a string: what the line ends with is not known.
      'type T = {\n  (a: number): "a // b"\n  <A>(a: A): A\n}\n',
      // Not indented: nothing to put a `;` in.
      "type U = X\n<A>(a: A): A\n",
      // A field or method named `accessor`.
      "class A {\n  accessor = 1\n  accessor(): void {}\n}\n",
      // `in` in expressions.
      "for (const x in y) {}\nconst has = [a, 'k' in b]\n",
    ])
      expect(typeScriptParseText(code)).toBe(code);
  });

  it("in .tsx, blanks modifiers but leaves a `<` starting a line, which is JSX there", () => {
    const generic = "function useIt<const T>(x: T): T { return x }\n";
    expect(tsxParseText(generic)).toBe("function useIt<      T>(x: T): T { return x }\n");
    const signatures = "type T = {\n  (a: A): B\n  <C>(c: C): C\n}\n";
    expect(typeScriptParseText(signatures)).not.toBe(signatures);
    expect(tsxParseText(signatures)).toBe(signatures);
  });

  it("blanks the accessor modifier of a class field", () => {
    expect(typeScriptParseText("class A {\n  static accessor #z = 1\n  accessor y = 2\n}\n")).toBe(
      "class A {\n  static          #z = 1\n           y = 2\n}\n",
    );
  });

  it("may blank `in` and `out` in comments and strings, which parse the same", async () => {
    const { parser } = await loadLanguage("typescript");
    const code = "// Times, in milliseconds, out of range\nconst k = 'a, in b'\n";
    const tree = (text: string) => {
      const t = parser.parse(text)!;
      const s = t.rootNode.toString();
      t.delete();
      return s;
    };
    expect(typeScriptParseText(code)).not.toBe(code);
    expect(tree(typeScriptParseText(code))).toBe(tree(code));
  });
});
