import { describe, expect, it } from "vitest";
import { impact } from "../../src/query/impact.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// tokio has two Semaphore.acquire (batch_semaphore.rs and semaphore.rs), the second calling the
// first: impact's `[calls Semaphore.acquire]` did not say which one a dependent uses.
const project = useIndexedProject("impact-via-place", {
  files: {
    "low.py": "def run():\n    return 1\n",
    "high.py":
      "from low import run as low_run\n\n\ndef run():\n    return low_run()\n\n\ndef main():\n    return run()\n",
  },
});

describe("impact's via", () => {
  it("names the place of a name two of its nodes share, and only then", () => {
    const [section] = impact(project.db, "run", { file: "low.py" }).sections;
    expect(section!.hits.map((h) => `${h.symbol.qualifiedName} ${h.symbol.file} [${h.kind} ${h.via}]`)).toEqual([
      "run high.py [calls run (low.py:1)]",
      "main high.py [calls run (high.py:4)]",
    ]);
    const [high] = impact(project.db, "main", {}).sections;
    expect(high!.hits).toEqual([]);
    const [other] = impact(project.db, "run", { file: "high.py" }).sections;
    expect(other!.hits.map((h) => `${h.symbol.qualifiedName} [${h.kind} ${h.via}]`)).toEqual(["main [calls run]"]);
  });
});
