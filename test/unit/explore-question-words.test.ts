import { describe, expect, it } from "vitest";
import { queryTerms, rank } from "../../src/query/explore-rank.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Prose says "applied", a name says `apply`: the stem `appli` meets both in explore's own comparisons,
// but full-text search looks words up as written, where `appli`* never reaches `apply_migration`.
// Its neighbours hold one of the question's words each, and come first in the file.
const EXECUTOR = `
def migration_plan(targets):
    return targets


def migration_name(migration):
    return migration


def apply_migration(state, migration):
    return migration_plan([migration])
`;

const project = useIndexedProject("explore-question-words", { files: { "app/executor.py": EXECUTOR } });

describe("question words that end in -ied or -ies", () => {
  it("reach names spelt with -y", () => {
    const ranked = rank(project.db, queryTerms("how are migrations applied to the database")).map((c) => c.symbol.name);
    expect(ranked[0]).toBe("apply_migration");
  });
});

describe("words in capitals", () => {
  it("are kept as terms though the English word is a stopword", () => {
    const terms = (q: string) => queryTerms(q).map((t) => t.term);
    expect(terms("how does the ORM compile a WHERE clause into SQL")).toEqual([
      "ORM",
      "compile",
      "WHERE",
      "clause",
      "SQL",
    ]);
    expect(terms("where does the ORM compile a clause")).toEqual(["ORM", "compile", "clause"]);
  });
});
