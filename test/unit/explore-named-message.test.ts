import { describe, expect, it } from "vitest";
import { exploreQuery } from "../../src/query/explore.js";
import { symbolsQuoting } from "../../src/query/explore-literal.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

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

const project = useIndexedProject("explore-named-message", { files: { "app/guard.py": GUARD } });

describe("a pasted message found in a named constant", () => {
  it("brings the functions of its file that use the name", () => {
    const names = symbolsQuoting(project.db, project.dir, "Forbidden (Token missing from the request.): /x/", []).map(
      (s) => s.name,
    );
    expect(names).toEqual(["REASON_NO_TOKEN", "check"]);
  });
});

// A message built in a function named for the error it makes: its callers are where it is thrown.
const ERRORS = `export function createInvalidSourceError(input: unknown): TypeError {
  return new TypeError(\`You provided \${String(input)} where a source of values was expected\`);
}
`;
const FROM = `import { createInvalidSourceError } from "./errors";

export function toSource(input: unknown): object {
  if (typeof input !== "object" || input === null) throw createInvalidSourceError(input);
  return input;
}

export function identity<T>(value: T): T {
  return value;
}
`;

describe("a pasted message built in an error factory", () => {
  const factory = useIndexedProject("explore-error-factory", {
    files: { "src/errors.ts": ERRORS, "src/from.ts": FROM },
  });

  it("shows the functions that call the factory", () => {
    const answer = exploreQuery(
      factory.db,
      factory.dir,
      "TypeError: You provided 'x' where a source of values was expected",
    );
    const shown = answer.files.flatMap((f) => f.symbols.map((s) => s.name));
    expect(shown).toContain("createInvalidSourceError");
    expect(shown).toContain("toSource");
    expect(shown).not.toContain("identity");
  });
});
