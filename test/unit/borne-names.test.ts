import { describe, expect, it } from "vitest";
import { MemoryLookup } from "../../src/resolve/memory-lookup.js";

/**
 * A full index lets go of a reference by a name nothing in the project bears, before working out its
 * receiver's type. A name an import or a typed local gives may still lead to a symbol of another
 * name (`import { Store as S }`, `qn = compiler.quote_name`), so those names count as borne.
 */
describe("names the project bears", () => {
  const lookup = new MemoryLookup([
    {
      file: { id: 1, path: "app/models.py", language: "python", packageName: null, nodeId: 100 },
      nodes: [
        {
          id: 101,
          fileId: 1,
          parentId: 100,
          kind: "class",
          name: "Store",
          qualifiedName: "Store",
          paramCount: null,
          exported: true,
          isStatic: false,
        },
      ],
      refs: [],
      imports: [{ local: "S", imported: "Store", specifier: ".models", line: 1, reexport: false }],
      localTypes: [{ scopeId: 100, name: "qn", typeName: "compiler.quote_name", line: 3 }],
    },
  ]);

  it("counts a symbol's name, an import's local name and a typed local's", () => {
    expect(["Store", "S", "qn"].map((n) => lookup.bearsName(n))).toEqual([true, true, true]);
  });

  it("does not count names only written in references or type names", () => {
    expect(["unwrap", "quote_name", "models", "store"].map((n) => lookup.bearsName(n))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
