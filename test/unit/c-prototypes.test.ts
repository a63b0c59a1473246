import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A C function declared in a header and defined in a source file is one function: calls reach both
// (resolve/linkage.ts), and the answers show it once, at its definition.
const project = useIndexedProject("c-prototypes", {
  files: {
    "util.h": "int twice(int x);\nint usage(void);\n",
    "util.c": '#include "util.h"\n\nint twice(int x) {\n  return x * 2;\n}\n',
    "main.c": '#include "util.h"\n\nint main(void) {\n  int a = twice(2);\n  return a + twice(3);\n}\n',
    // Two programs, each with its own `usage`: which one the header means is not one answer.
    "tool_a.c": '#include "util.h"\n\nint usage(void) {\n  return 1;\n}\n',
    "tool_b.c": '#include "util.h"\n\nint usage(void) {\n  return 2;\n}\n',
  },
});

describe("a C function and its prototype", () => {
  it("are one definition, headed by the definition, with each call listed once", () => {
    const r = relations(project.db, "twice", "callers");
    expect(r.groups.map((g) => [g.definition.file, g.overloads])).toEqual([["util.c", 1]]);
    expect(r.groups[0]!.rows.map((row) => `${row.symbol.name}:${row.line}`)).toEqual(["main:4", "main:5"]);
  });

  it("are one callee per call", () => {
    const rows = relations(project.db, "main", "callees").groups.flatMap((g) => g.rows);
    expect(rows.map((row) => `${row.symbol.file}:${row.line}`)).toEqual(["util.c:4", "util.c:5"]);
  });

  it("stay apart when several source files define the name", () => {
    const files = relations(project.db, "usage", "callers").groups.map((g) => g.definition.file);
    expect(files.sort()).toEqual(["tool_a.c", "tool_b.c", "util.h"]);
  });
});
