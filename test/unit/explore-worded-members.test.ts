import { describe, expect, it } from "vitest";
import { exploreQuery } from "../../src/query/explore.js";
import { wordedMemberWindows } from "../../src/query/explore-windows.js";
import { findSymbols } from "../../src/query/symbols.js";
import { renderExplore } from "../../src/render/explore.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A long class the query names through a function, whose members' names say nothing of the question.
const filler = (name: string) =>
  [`    def ${name}(self):`, ...Array.from({ length: 12 }, (_, i) => `        self.step_${i} = ${i}`), ""].join("\n");

const TRANSACTION = [
  "class Atomic:",
  '    """Guarantee the atomic execution of a block."""',
  "",
  "    def __init__(self, using):",
  "        self.using = using",
  "",
  "    def __enter__(self):",
  "        # Inside a transaction already: create a savepoint.",
  "        self.sid = self.connection.savepoint()",
  "",
  ...["describe", "configure", "reset", "inspect", "freeze"].map(filler),
  "    def __exit__(self, exc_type, exc_value, traceback):",
  "        if exc_type is not None:",
  "            # Roll back to the savepoint.",
  "            self.connection.savepoint_rollback(self.sid)",
  "",
  ...["measure", "report", "publish", "archive"].map(filler),
  "",
  "def atomic(using=None):",
  "    return Atomic(using)",
  "",
].join("\n");

const STORE = [
  "class Store:",
  "    def fetch(self, key):",
  "        node = self.tree_root",
  "        return node",
  "",
  "    def grow(self, bucket):",
  "        # A crowded bucket becomes a tree.",
  "        self.tree_of(bucket)",
  "",
  ...["describe", "configure", "reset", "inspect", "freeze", "measure", "report", "publish", "archive"].map(filler),
].join("\n");

const project = useIndexedProject("explore-worded-members", {
  files: { "db/transaction.py": TRANSACTION, "db/store.py": STORE },
});

describe("a long class the query names", () => {
  it("shows the members whose code holds the question's words", () => {
    const answer = exploreQuery(project.db, project.dir, "how does transaction.atomic create and roll back savepoints");
    const blocks = answer.files.flatMap((f) => f.blocks.flatMap((b) => b.symbols));
    expect(blocks).toContain("Atomic.__enter__");
    expect(blocks).toContain("Atomic.__exit__");
    expect(blocks).not.toContain("Atomic.describe");
    // Each is labelled as a ranked symbol is: its kind and lines.
    const text = renderExplore(answer);
    expect(text).toMatch(/Atomic\.__enter__ \(method, \d+-\d+\)/);
    expect(text).toMatch(/Atomic\.__exit__ \(method, \d+-\d+\)/);
  });

  it("counts a word where a name's part starts with it, not inside one", () => {
    const store = findSymbols(project.db, "Store").find((s) => s.kind === "class")!;
    const lines = STORE.split("\n");
    const shown = wordedMemberWindows(project.db, store, 100, lines, ["turn", "bucket", "tree"]).flatMap(
      (w) => w.window.names,
    );
    // `return` holds "turn" only inside the word, so `fetch` has one of the question's words.
    expect(shown).toEqual(["Store.grow"]);
  });
});
