import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { renderRelations } from "../../src/render/text.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// tree-sitter's C grammar cannot read a condition that an #ifdef splits: the whole function is lost,
// and "no symbol" alone would tell the agent it does not exist.
const CLAMP = `static int limit;

static void
clamp_point(int *point, int other)
{
    if ((
#ifdef WIDE
            limit &&
#endif
            (other != 0)) || (*point > 1)) {
        *point = other;
    }
}

void use_clamp(int *p)
{
    clamp_point(p, 2);
}
`;

const project = useIndexedProject("partly-parsed", {
  files: { "src/clamp.c": CLAMP, "src/fine.c": "int fine(void) { return 1; }\n" },
});

describe("a name the index lacks, written in a file that parsed only in part", () => {
  it("is answered with that file, to read directly", () => {
    const r = relations(project.db, "clamp_point", "callers");
    expect(r.groups).toEqual([]);
    expect(r.partlyParsed.map((f) => f.path)).toEqual(["src/clamp.c"]);
    expect(r.partlyParsed[0]!.errors).toBeGreaterThan(0);
    expect(renderRelations(r)).toMatch(
      /parsed only in part, where a definition may have gone unindexed: src\/clamp\.c \(\d+ syntax errors?\)/,
    );
  });

  it("not for a name the file does not hold as a word, nor when the name is found", () => {
    expect(relations(project.db, "clamp", "callers").partlyParsed).toEqual([]);
    expect(relations(project.db, "nowhere_at_all", "callers").partlyParsed).toEqual([]);
    expect(relations(project.db, "fine", "callers").partlyParsed).toEqual([]);
  });
});
