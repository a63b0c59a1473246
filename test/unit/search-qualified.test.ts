import { describe, expect, it } from "vitest";
import { searchSymbols } from "../../src/query/search.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// callers and node read a name after its module path (`tokio::spawn`, `packages.Load`,
// `Doctrine\ORM\EntityManager::flush`), but search ranked such a name by its words: x-tools'
// `packages.Load` put ssautil's function `Packages` first, tokio's `tokio::spawn` listed
// Builder.spawn and not the function, and doctrine's namespaced flush was not among the hits.
const project = useIndexedProject("search-qualified", {
  files: {
    "go/packages/packages.go": "package packages\n\nfunc Load(patterns ...string) error {\n\treturn nil\n}\n",
    "go/ssa/ssautil/load.go":
      'package ssautil\n\nimport "example.com/go/packages"\n\nfunc Packages(initial []*packages.Package) int {\n\treturn 0\n}\n',
    "src/ORM/EntityManager.php":
      "<?php\nnamespace Doctrine\\ORM;\n\nclass EntityManager\n{\n    public function flush()\n    {\n    }\n}\n",
    "src/ORM/Event/PreFlushEventArgs.php":
      "<?php\nnamespace Doctrine\\ORM\\Event;\n\nclass PreFlushEventArgs\n{\n    public function getEntityManager()\n    {\n    }\n}\n",
    "Cargo.toml": '[package]\nname = "tokio"\nversion = "1.0.0"\n',
    "src/lib.rs": "pub mod task;\n",
    "src/task/mod.rs": "pub mod builder;\npub mod spawn;\n",
    "src/task/spawn.rs": "pub fn spawn(n: u32) -> u32 {\n    n\n}\n",
    "src/task/builder.rs":
      "pub struct Builder;\n\nimpl Builder {\n    pub fn spawn(self, n: u32) -> u32 {\n        n\n    }\n}\n",
  },
});

const first = (query: string) => {
  const [hit] = searchSymbols(project.db, query, { limit: 5 }).hits;
  return hit ? `${hit.qualifiedName} ${hit.file}` : "";
};

describe("search for a name after its module path", () => {
  it("puts the declaration the path names first", () => {
    expect(first("packages.Load")).toBe("Load go/packages/packages.go");
    expect(first("tokio::spawn")).toBe("spawn src/task/spawn.rs");
    expect(first("Doctrine\\ORM\\EntityManager::flush")).toBe("EntityManager.flush src/ORM/EntityManager.php");
  });

  it("keeps a kind filter", () => {
    expect(searchSymbols(project.db, "tokio::spawn", { kind: "method" }).hits[0]?.qualifiedName).toBe("Builder.spawn");
  });
});
