import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { impact } from "../../src/query/impact.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// `impact django/shortcuts.py` answered "No symbol named", though `node` takes a path and "what
// depends on this file" is a question agents ask before moving or rewriting one.
const project = useIndexedProject("impact-file", {
  files: {
    "pkg/lib.py": "def helper():\n    return 1\n\n\ndef unused():\n    return 2\n",
    "pkg/app.py": "from pkg.lib import helper\n\n\ndef main():\n    return helper()\n",
  },
});

const rows = (text: string) =>
  impact(project.db, text, { depth: 1, root: project.dir }).sections.flatMap((s) =>
    s.hits.map((h) => `${h.symbol.qualifiedName} ${h.kind} ${h.via}`),
  );

describe("impact of a file", () => {
  it("lists what imports the file and what uses what it declares", () => {
    expect(rows("pkg/lib.py").sort()).toEqual(["main calls helper", "pkg/app.py imports pkg/lib.py"].sort());
  });

  it("takes the path as node does: absolute, or its unique end", () => {
    expect(rows(join(project.dir, "pkg/lib.py"))).toHaveLength(2);
    expect(rows(join(project.dir, "pkg/lib.py"))).toEqual(rows("pkg/lib.py"));
    expect(rows("lib.py")).toEqual(rows("pkg/lib.py"));
  });

  it("is still no symbol without the project's root", () => {
    expect(impact(project.db, "pkg/lib.py").sections).toEqual([]);
  });
});
