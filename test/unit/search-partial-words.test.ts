import { describe, expect, it } from "vitest";
import { searchSymbols } from "../../src/query/search.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// An agent's query often adds a word to the name it means (`read full buffer` for Go's io.ReadFull).
// A docstring that holds every word must not bury the name that holds all but one of them.

const project = useIndexedProject("search-partial", {
  files: {
    "stream.py": [
      "def read_flush(decoder):",
      '    """Read what the buffer holds, for the buffer must be fully read before the next',
      '    read: the buffer\'s full contents, read in full."""',
      "    return decoder",
      "",
      "def read_full(source, into):",
      "    return source",
      "",
      "class PlaceOrderHandler:",
      "    pass",
      "",
      "class OrderHandler:",
      "    pass",
      "",
    ].join("\n"),
  },
});

const names = (query: string) => searchSymbols(project.db, query, { limit: 5 }).hits.map((h) => h.name);

describe("a name that holds all of the query's words but one", () => {
  it("comes before a symbol whose docstring holds every word", () => {
    const found = names("read full buffer");
    expect(found[0]).toBe("read_full");
    expect(found).toContain("read_flush");
  });

  it("comes after a name one typo away from the whole query", () => {
    expect(names("plcae order handler").slice(0, 2)).toEqual(["PlaceOrderHandler", "OrderHandler"]);
  });
});
