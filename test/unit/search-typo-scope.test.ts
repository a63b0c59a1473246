import { describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { searchSymbols } from "../../src/query/search.js";
import { openDatabase } from "../../src/store/database.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A typo correction compares the whole query with every distinct name of the index, which a
// connection reads once, when first asked: a third of a second on a large project. The prompt hook
// and the CLI open a connection per call, and hand search prose (a prompt, a pasted message,
// explore's terms and stems) that no name is two edits from. Only a query short enough to be a
// misspelt name is compared.

const project = useIndexedProject("search-typo-scope", {
  files: {
    "orders.py": [
      "class PlaceOrderHandler:",
      "    pass",
      "",
      "def read_value_from_cache(key):",
      "    return key",
      "",
    ].join("\n"),
  },
});

/** The search's hits on a fresh connection, and whether it read every distinct name of the index. */
function search(query: string): { names: string[]; readEveryName: boolean } {
  const db = openDatabase(dbPath(project.dir), { readonly: true });
  const prepare = db.prepare.bind(db);
  const statements: string[] = [];
  db.prepare = ((source: string) => {
    statements.push(source);
    return prepare(source);
  }) as typeof db.prepare;
  try {
    const names = searchSymbols(db, query, { limit: 5 }).hits.map((h) => h.name);
    return { names, readEveryName: statements.some((s) => /SELECT DISTINCT name FROM nodes/i.test(s)) };
  } finally {
    db.close();
  }
}

describe("typo corrections", () => {
  it("are looked for in a query of up to four words", () => {
    expect(search("plcae order handler")).toEqual({ names: ["PlaceOrderHandler"], readEveryName: true });
    expect(search("raed value from cache")).toMatchObject({ names: ["read_value_from_cache"], readEveryName: true });
  });

  it("are not looked for in prose, which reads no name list", () => {
    const prose = search("why does the plcae ordr step hang when two workers start");
    expect(prose.readEveryName).toBe(false);
    const pasted = search("ValueError: could not raed valeu frm cahce for key 3");
    expect(pasted.readEveryName).toBe(false);
  });
});
