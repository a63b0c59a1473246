import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsQuoting } from "../../src/query/explore-literal.js";
import { indexedProject, type IndexedProject } from "../helpers/indexed-project.js";

// An error message kept in a constant: the literal is in its definition, and the function that
// answers with it (the one a pasted error is about) only names the constant.
const GUARD = `
REASON_NO_TOKEN = "Token missing from the request."
REASON_BAD_ORIGIN = "Origin checking failed."


def reject(request, reason):
    return (403, reason)


def describe_reasons():
    return REASON_NO_TOKEN_LIST


def check(request):
    if not request.token:
        return reject(request, REASON_NO_TOKEN)
    return None
`;

let project: IndexedProject;

beforeAll(async () => {
  project = await indexedProject("explore-named-message", { files: { "app/guard.py": GUARD } });
}, 60_000);
afterAll(() => project.cleanup());

describe("a pasted message found in a named constant", () => {
  it("brings the functions of its file that use the name", () => {
    const names = symbolsQuoting(project.db, project.dir, "Forbidden (Token missing from the request.): /x/", []).map(
      (s) => s.name,
    );
    expect(names).toEqual(["REASON_NO_TOKEN", "check"]);
  });
});
