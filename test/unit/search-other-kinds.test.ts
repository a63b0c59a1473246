import { describe, expect, it } from "vitest";
import { searchSymbols } from "../../src/query/search.js";
import { renderSearch } from "../../src/render/text.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// `search Runtime --kind class` on tokio answered "No symbols match", as if there were no Runtime:
// Rust has structs, not classes. A kind filter that leaves nothing now says so and shows the name's
// hits of other kinds.
const project = useIndexedProject("search-other-kinds", {
  files: {
    "src/runtime.rs": "pub struct Runtime;\n\npub trait AsyncRead {\n    fn poll_read(&self);\n}\n",
  },
});

describe("a kind filter that leaves nothing", () => {
  it("names the kind asked for and shows the hits of other kinds", () => {
    const r = searchSymbols(project.db, "Runtime", { kind: "class" });
    expect(r.hits).toEqual([]);
    expect(r.otherKinds?.asked).toEqual(["class"]);
    expect(renderSearch(r)).toMatch(
      /^No class matches "Runtime"\. Of other kinds:\nstruct {6}Runtime {2}src\/runtime\.rs:1\n/,
    );
  });

  it("works for a kind written in the query, and says nothing more when no name matches at all", () => {
    const r = searchSymbols(project.db, "kind:interface AsyncRead");
    expect(r.otherKinds?.hits[0]?.qualifiedName).toBe("AsyncRead");
    const none = searchSymbols(project.db, "Nothingness", { kind: "class" });
    expect(none.otherKinds).toBeUndefined();
    expect(renderSearch(none)).toBe('No symbols match "Nothingness".');
  });
});
