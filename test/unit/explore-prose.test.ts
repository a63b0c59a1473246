import { describe, expect, it } from "vitest";
import { exploreQuery } from "../../src/query/explore.js";
import { queryTerms, rank } from "../../src/query/explore-rank.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Names that hold the question's common words (`query`, `fetch`) outnumber the candidates a search of
// names keeps; the function the question is about says "retries" in its documentation only.
const names = Array.from({ length: 40 }, (_, i) => `export function fetchQuery${i}(key: string) {\n  return key;\n}\n`);
const RUNNER = `/**
 * Runs a function, and retries it after a failure until the attempts run out.
 */
export function createRunner(fn: () => Promise<unknown>, attempts: number) {
  const attempt = (left: number): Promise<unknown> => fn().catch((e) => (left > 0 ? attempt(left - 1) : Promise.reject(e)));
  return attempt(attempts);
}
`;

// A name the question writes, which a function's documentation quotes and its name does not hold.
const CACHE = `export class Cache {
  maxAge = 60;

  /** Called once \`maxAge\` has passed since the last write. */
  sweep(): void {}
}
`;

// A hook the question names that only hands its work to another, whose name shares no word with it.
const HOOK = `import { runStore } from "./store";

export function useThing(options: object) {
  return runStore(options);
}
`;
const STORE = `export function runStore(options: object) {
  const listeners: (() => void)[] = [];
  const notify = () => listeners.forEach((l) => l());
  listeners.push(() => void options);
  notify();
  return listeners;
}
`;
const OTHERS = Array.from(
  { length: 8 },
  (_, i) =>
    `export class Source${i} {\n  subscribe(listener: () => void) {\n    return listener;\n  }\n  onUpdate() {\n    return ${i};\n  }\n}\n`,
);

const project = useIndexedProject("explore-prose", {
  files: {
    "src/queries.ts": names.join("\n"),
    "src/runner.ts": RUNNER,
    "src/hook.ts": HOOK,
    "src/store.ts": STORE,
    "src/cache.ts": CACHE,
    ...Object.fromEntries(OTHERS.map((text, i) => [`src/source${i}.ts`, text])),
  },
});

describe("a question's words in documentation", () => {
  it("make a candidate of a function whose name holds none of them", () => {
    const ranked = rank(project.db, queryTerms("how does a query retry after a failed fetch")).map(
      (c) => c.symbol.name,
    );
    expect(ranked).toContain("createRunner");
  });
});

describe("a name the question writes", () => {
  it("finds the functions whose documentation quotes it", () => {
    const ranked = rank(project.db, queryTerms("what runs after maxAge")).map((c) => c.symbol.qualifiedName);
    expect(ranked).toContain("Cache.sweep");
  });
});

describe("a wrapper the question names in prose", () => {
  it("is shown with the function it hands its work to", () => {
    const answer = exploreQuery(project.db, project.dir, "how does useThing subscribe the component to updates");
    const shown = answer.files.flatMap((f) => f.symbols.map((s) => s.name));
    expect(shown).toContain("useThing");
    expect(shown).toContain("runStore");
  });
});
