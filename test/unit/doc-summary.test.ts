import { describe, expect, it } from "vitest";
import { nodeView } from "../../src/query/node.js";
import { docSummary, renderNode } from "../../src/render/node.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// node's `doc:` line was the docstring's first line, which cut sentences in half: tokio's
// Runtime.block_on read "Runs a future to completion on the Tokio runtime. This is the".
const RUST = `pub struct Runtime;

impl Runtime {
    /// Runs a future to completion on the Tokio runtime. This is the
    /// runtime's entry point.
    ///
    /// # Panics
    ///
    /// When called within an asynchronous execution context.
    pub fn block_on(&self) {}
}
`;

const project = useIndexedProject("doc-summary", { files: { "src/runtime.rs": RUST } });

describe("the doc line of node", () => {
  it("is the docstring's first paragraph, with … when more follows", () => {
    const r = nodeView(project.db, project.dir, "Runtime.block_on");
    expect(renderNode(r)).toContain(
      "\ndoc: Runs a future to completion on the Tokio runtime. This is the runtime's entry point. …\n",
    );
  });

  it("is a one-paragraph docstring whole, and a very long paragraph cut", () => {
    expect(docSummary("Return a new QuerySet instance with the args ANDed to the existing\nset.")).toBe(
      "Return a new QuerySet instance with the args ANDed to the existing set.",
    );
    const long = docSummary("word ".repeat(200));
    expect(long.endsWith(" …")).toBe(true);
    expect(long.length).toBeLessThan(610);
  });
});
