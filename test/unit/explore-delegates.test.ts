import { describe, expect, it } from "vitest";
import { exploreQuery } from "../../src/query/explore.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A named method that only hands its work on: the answer is in what it calls.
const FUTURE = `export class Future<T> {
  private value: T | undefined;
  private readonly waiting: ((value: T) => void)[] = [];

  thenApply<U>(fn: (value: T) => U): Future<U> {
    return this.applyStage(fn);
  }

  private applyStage<U>(fn: (value: T) => U): Future<U> {
    const next = new Future<U>();
    const run = (value: T) => next.complete(fn(value));
    if (this.value !== undefined) run(this.value);
    else this.waiting.push(run);
    return next;
  }

  complete(value: T): void {
    this.value = value;
    for (const w of this.waiting.splice(0)) w(value);
  }

  describeState(): string {
    return this.value === undefined ? "pending" : "done";
  }
}
`;

const project = useIndexedProject("explore-delegates", { files: { "src/future.ts": FUTURE } });

describe("a named function of a few lines", () => {
  it("is shown with the function it hands its work to", () => {
    const answer = exploreQuery(project.db, project.dir, "how does Future.thenApply run the function");
    const shown = answer.files.flatMap((f) => f.symbols.map((s) => s.name));
    expect(shown).toContain("thenApply");
    expect(shown).toContain("applyStage");
  });
});
