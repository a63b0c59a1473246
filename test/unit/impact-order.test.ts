import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/indexer/sync.js";
import { impact } from "../../src/query/impact.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// impact listed a depth's dependents in the order their edges were stored, which is the order files
// were parsed, or synced: after an edit, the edited file's callers moved to the end, and a limit kept
// other ones. They come by path and line now, as callers lists them.
const caller = (name: string) =>
  `import { base } from "./base";\nexport function ${name}(): number {\n  return base();\n}\n`;

const project = useIndexedProject("impact-order", {
  files: {
    "src/base.ts": "export function base(): number {\n  return 1;\n}\n",
    "src/a.ts": caller("fromA"),
    "src/m.ts": caller("fromM"),
    "src/z.ts": caller("fromZ"),
  },
});

const names = (limit?: number) =>
  impact(project.db, "base", { depth: 1, limit }).sections[0]!.hits.map((h) => h.symbol.qualifiedName);

describe("the order of a depth's dependents", () => {
  it("is by path, also after a sync re-stores one file's edges last", async () => {
    expect(names()).toEqual(["fromA", "fromM", "fromZ"]);
    writeFileSync(join(project.dir, "src/a.ts"), `\n${caller("fromA")}`);
    await syncIndex(project.dir);
    expect(names()).toEqual(["fromA", "fromM", "fromZ"]);
    expect(names(1)).toEqual(["fromA"]);
  });
});
