import { describe, expect, it } from "vitest";
import { nodeView } from "../../src/query/node.js";
import { renderNode } from "../../src/render/node.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// `node as_sql` in Django showed the first 10 of 76 definitions by path (all in contrib/gis) and
// named none of the other 66, SQLCompiler.as_sql among them. Now the most used come first, and the
// rest are listed a line each, to pick one by file and line.
const files: Record<string, string> = {};
for (let i = 0; i < 13; i++) {
  const name = `Step${String.fromCharCode(65 + i)}`;
  files[`src/${name.toLowerCase()}.py`] = `class ${name}:\n    def run(self):\n        return ${i}\n`;
}
files["src/zz_main.py"] = `from src.stepm import StepM


def main():
    s = StepM()
    return s.run() + s.run()
`;

const project = useIndexedProject("node-many-definitions", { files });

describe("node of a name with more definitions than it shows", () => {
  it("shows the most used first and lists the others by file and line", () => {
    const r = nodeView(project.db, project.dir, "run");
    if (r.type !== "symbols") throw new Error(r.type);
    expect(r.total).toBe(13);
    expect(r.symbols).toHaveLength(10);
    expect(r.symbols[0]!.symbol.qualifiedName).toBe("StepM.run");
    expect(r.others.map((o) => o.qualifiedName)).toEqual(["StepJ.run", "StepK.run", "StepL.run"]);
    expect(renderNode(r)).toContain(
      "Showing 10 of 13 definitions; pass file (and line) to pick one. The others:\n" +
        "  StepJ.run (method)  src/stepj.py:2\n  StepK.run (method)  src/stepk.py:2\n  StepL.run (method)  src/stepl.py:2",
    );
  });
});
