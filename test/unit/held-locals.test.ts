import { describe, expect, it } from "vitest";
import { stillReaches } from "../../src/indexer/still-reaches.js";
import { Resolver } from "../../src/resolve/resolver.js";
import type { ProjectContext } from "../../src/resolve/rules.js";
import { getMeta } from "../../src/store/database.js";
import { refsAffectedByNames } from "../../src/store/refs-affected.js";
import { ChangedNames } from "../../src/core/changed-names.js";
import { SqliteLookup } from "../../src/store/sqlite-lookup.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

/**
 * A sync follows a value typed by a call or a name only when that may read otherwise: a name it
 * mentions changed as the name read, but the reference still reaches what it did (go-stdlib's
 * `flag.String(...)` values when a method `String` came to bufio.Reader), so what reads that value
 * elsewhere is not resolved again. A callee whose own result type may have changed is followed.
 */
const project = useIndexedProject("held-locals", {
  files: {
    "a.py": "class Box:\n    def open(self):\n        pass\n",
    "box.py": "from a import Box\n",
    "p.py": "from box import Box\n\n\ndef make() -> Box:\n    return Box()\n",
    "q.py": "class Crate:\n    def close(self):\n        pass\n\n\ndef build() -> Crate:\n    return Crate()\n",
    "c.py": "import json\nimport p\nimport q\n\nv = p.make()\nw = q.build()\nu = json.loads()\n",
    "d.py": "from c import u, v, w\n\nv.open()\nw.close()\nu.keys()\n",
  },
});

describe("the references a sync resolves again for changed names", () => {
  const refOf = (receiver: string, name: string): number => {
    const row = project.db
      .prepare(
        `SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id
         WHERE f.path = 'd.py' AND r.receiver = ? AND r.name = ?`,
      )
      .get(receiver, name) as { id: number } | undefined;
    expect(row, `${receiver}.${name}() in d.py`).toBeDefined();
    return row!.id;
  };
  /** As a sync would for these names, with these files written by it. */
  const affected = (names: string[], held: boolean, written: string[] = []): number[] => {
    const db = project.db;
    const ctx = JSON.parse(getMeta(db, "context")!) as ProjectContext;
    const lookup = new SqliteLookup(db);
    const fileIds = written.map(
      (path) => db.prepare("SELECT id FROM files WHERE path = ?").pluck().get(path) as number,
    );
    const reaches = stillReaches(db, new Resolver(lookup, ctx), lookup, {
      lost: new Set(),
      written: new Set(fileIds),
      maxRef: Infinity,
    });
    return refsAffectedByNames(db, ChangedNames.anywhere(names), held ? { stillReaches: reaches } : {});
  };

  it("reads both values through their calls' results", () => {
    const resolvedTo = (refId: number) =>
      project.db
        .prepare("SELECT n.qualified_name FROM edges e JOIN nodes n ON n.id = e.target_id WHERE e.ref_id = ?")
        .pluck()
        .all(refId);
    expect(resolvedTo(refOf("v", "open"))).toEqual(["Box.open"]);
    expect(resolvedTo(refOf("w", "close"))).toEqual(["Crate.close"]);
  });

  it("leaves a value typed by a call that still reaches the same unchanged function", () => {
    const ids = affected(["build"], true);
    expect(ids).not.toContain(refOf("w", "close"));
    // Followed by the name alone, as before.
    expect(affected(["build"], false)).toContain(refOf("w", "close"));
  });

  it("leaves a value typed by a call that reaches nothing in the project, before and after", () => {
    expect(affected(["loads"], true)).not.toContain(refOf("u", "keys"));
    expect(affected(["loads"], false)).toContain(refOf("u", "keys"));
  });

  it("follows a value typed by a call whose callee's result type may have changed", () => {
    // `Box` changed in a.py: `make` returns it, so `v = p.make()` may hold another type and `v.open()`
    // resolve elsewhere, though the call still reaches the same `make`.
    const ids = affected(["Box"], true, ["a.py"]);
    expect(ids).toContain(refOf("v", "open"));
    expect(ids).not.toContain(refOf("w", "close"));
    // Also when the name called is among the changed names, and `v` is held before `make` is reached.
    expect(affected(["make", "Box"], true, ["a.py"])).toContain(refOf("v", "open"));
    // Where `Box` still reads as the same class in an unwritten file, `make`'s result does too.
    expect(affected(["Box"], true)).not.toContain(refOf("v", "open"));
  });
});
