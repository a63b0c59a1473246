import { describe, expect, it } from "vitest";
import { nodeView } from "../../src/query/node.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Python's and Rust's grammars leave decorators and attributes outside the definition, so `node`
// showed Django's `QuerySet.db` from `def db(self):`, without the `@property` that says it is no
// method to call, and tokio's `Runtime.block_on` without `#[track_caller]`.
const PYTHON = `import pytest


class QuerySet:
    def count(self):
        return 0

    @property
    def db(self):
        return "default"


@pytest.mark.parametrize(
    "n",
    [1, 2],
)
@pytest.mark.slow
def test_count(n):
    assert QuerySet().count() == 0
`;

const RUST = `pub struct Runtime;

impl Runtime {
    /// Runs a future.
    #[track_caller]
    #[cfg_attr(
        docsrs,
        doc(cfg(feature = "rt"))
    )]
    pub fn block_on(&self) -> u32 {
        1
    }
}
`;

const TYPESCRIPT = `function log(target: object, key?: string): void {}

@log
export class Box {
  @log
  open(): void {}
  @log size = 1;
  close(): void {}
}
`;

const JAVA = `public class A {
    /** Its name. */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public String toString() {
        return "";
    }
}
`;

const CSHARP = `public class C {
    [Obsolete("use Go")]
    public void Run() {}
}
`;

const project = useIndexedProject("node-decorators", {
  files: {
    "query.py": PYTHON,
    "src/runtime.rs": RUST,
    "src/box.ts": TYPESCRIPT,
    "src/A.java": JAVA,
    "src/C.cs": CSHARP,
  },
});

const shown = (symbol: string) => {
  const r = nodeView(project.db, project.dir, symbol);
  if (r.type !== "symbols") throw new Error(`no symbol ${symbol}: ${r.type}`);
  const v = r.symbols[0]!;
  return { start: v.symbol.startLine, from: v.source!.startLine, first: v.source!.lines[0]!.trim() };
};

describe("node shows a definition with its decorators", () => {
  it("takes in a Python decorator above a method", () => {
    expect(shown("QuerySet.db")).toEqual({ start: 9, from: 8, first: "@property" });
  });

  it("takes in decorators whose arguments run over several lines", () => {
    expect(shown("test_count")).toEqual({ start: 18, from: 13, first: "@pytest.mark.parametrize(" });
  });

  it("takes in Rust attributes, not the doc comment above them", () => {
    expect(shown("Runtime.block_on")).toEqual({ start: 10, from: 5, first: "#[track_caller]" });
  });

  it("takes in TypeScript's, Java's and C#'s, which their grammars also leave out", () => {
    expect(shown("Box")).toEqual({ start: 4, from: 3, first: "@log" });
    expect(shown("Box.open")).toEqual({ start: 6, from: 5, first: "@log" });
    expect(shown("A.toString")).toEqual({ start: 5, from: 3, first: "@Override" });
    expect(shown("C.Run")).toEqual({ start: 3, from: 2, first: '[Obsolete("use Go")]' });
  });

  it("leaves a definition with none as it was, and a decorated declaration on the line above is not one", () => {
    expect(shown("QuerySet.count")).toEqual({ start: 5, from: 5, first: "def count(self):" });
    expect(shown("Box.close")).toEqual({ start: 8, from: 8, first: "close(): void {}" });
  });
});
