import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryTerms, rank } from "../../src/query/explore-rank.js";
import { indexedProject, type IndexedProject } from "../helpers/indexed-project.js";

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

let project: IndexedProject;

beforeAll(async () => {
  project = await indexedProject("explore-stems", { files: { "app/executor.py": EXECUTOR } });
}, 60_000);
afterAll(() => project.cleanup());

describe("question words that end in -ied or -ies", () => {
  it("reach names spelt with -y", () => {
    const ranked = rank(project.db, queryTerms("how are migrations applied to the database")).map((c) => c.symbol.name);
    expect(ranked[0]).toBe("apply_migration");
  });
});
