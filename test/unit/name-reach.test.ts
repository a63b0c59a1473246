import { describe, expect, it } from "vitest";
import {
  ANYWHERE,
  ChangedNames,
  NOWHERE,
  inFileSet,
  mentionSites,
  noSite,
  type NameRole,
} from "../../src/core/changed-names.js";
import { NameReaches } from "../../src/indexer/name-reach.js";
import { filesOfIds } from "../../src/store/reader.js";
import { refsAffectedByNames } from "../../src/store/refs-affected.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A changed name counts only where it may be written so as to mean what changed: in Go a struct's
// field or a method after a dot alone, a package's unexported name in its own package alone.

describe("changed names and where they may be written", () => {
  const files = (...ids: number[]) => new Set(ids);

  it("a name added again reaches where either reach does, and says whether it reached further", () => {
    const names = new ChangedNames();
    expect(names.add("buf", { bare: files(1), dotted: NOWHERE })).toBe(true);
    expect(names.add("buf", { bare: files(1), dotted: NOWHERE })).toBe(false);
    expect(names.add("buf", { bare: files(2), dotted: NOWHERE })).toBe(true);
    expect(names.reachOf("buf")).toEqual({ bare: files(1, 2), dotted: NOWHERE });
    expect(names.add("buf", { bare: NOWHERE, dotted: null })).toBe(true);
    expect(names.add("buf", ANYWHERE)).toBe(true);
    expect(names.add("buf", { bare: files(3), dotted: files(4) })).toBe(false);
    expect(names.add("", ANYWHERE)).toBe(false);
    expect([...names]).toEqual(["buf"]);
  });

  it("a member is mentioned after a dot only, a package's name bare only in its files", () => {
    const names = new ChangedNames();
    names.add("buf", { bare: NOWHERE, dotted: null });
    names.add("limit", { bare: files(7, 8), dotted: NOWHERE });
    const sites = mentionSites(names);
    expect(sites("s.buf.Len()")).toBeNull();
    expect(noSite(sites("buf.Len()"))).toBe(true);
    expect(noSite(sites("bufio.NewReader()"))).toBe(true);
    expect(sites("limit")).toEqual(files(7, 8));
    expect(sites("[]*limit")).toEqual(files(7, 8));
    expect(noSite(sites("cfg.limit"))).toBe(true);
    expect(sites("limit.buf")).toBeNull();
    expect(inFileSet(sites("limit"), 7)).toBe(true);
    expect(inFileSet(sites("limit"), 9)).toBe(false);
  });

  it("names written anywhere, and names that are no identifiers, are mentioned in any file", () => {
    const sites = mentionSites(ChangedNames.anywhere(["go", "m!"]));
    expect(sites("self.go.run")).toBeNull();
    expect(sites("go().x")).toBeNull();
    expect(sites("m!(x)")).toBeNull();
    expect(noSite(sites("algorithm"))).toBe(true);
    expect(noSite(sites("mm!(x)"))).toBe(true);
  });
});

const project = useIndexedProject("name-reach", {
  files: {
    "go.mod": "module example.com/m\n\ngo 1.22\n",
    "scan/scan.go":
      "package scan\n\ntype Buf struct{}\n\nfunc (b *Buf) Len() int { return 0 }\n\n" +
      "type Scanner struct {\n\tbuf *Buf\n}\n\nvar limit = 10\n\nfunc New() *Scanner { return &Scanner{} }\n",
    "scan/use.go": "package scan\n\nfunc size(s *Scanner) int {\n\treturn s.buf.Len() + limit.Len()\n}\n",
    "other/other.go":
      'package other\n\nimport "example.com/m/scan"\n\ntype Bytes struct{}\n\nfunc (b *Bytes) Len() int { return 0 }\n\n' +
      "func use() int {\n\tbuf := &Bytes{}\n\tlimit := &Bytes{}\n\ts := scan.New()\n\treturn buf.Len() + limit.Len() + s.Scan()\n}\n",
    "web/app.js": "const o = { buf: new Uint8Array(4) };\no.buf.fill(0);\n",
  },
});

describe("the references a sync resolves again for a changed Go name", () => {
  const refAt = (path: string, receiver: string): number => {
    const id = project.db
      .prepare("SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.receiver = ?")
      .pluck()
      .get(path, receiver) as number | undefined;
    expect(id, `${receiver} in ${path}`).toBeDefined();
    return id!;
  };
  /** As a sync would when scan.go's name, in this role, changed. */
  const affected = (name: string, role: NameRole): number[] => {
    const scan = project.db.prepare("SELECT id FROM files WHERE path = 'scan/scan.go'").pluck().get() as number;
    const reaches = new NameReaches(project.db);
    const names = new ChangedNames();
    names.add(name, reaches.of(filesOfIds(project.db, [scan])[0]!, role, name));
    return refsAffectedByNames(project.db, names, { reachOf: (f, r, n) => reaches.ofFileId(f, r, n) });
  };
  const byName = (name: string) => refsAffectedByNames(project.db, ChangedNames.anywhere([name]));

  it("a field: through a receiver that reads it after a dot, not a variable of its name", () => {
    const ids = affected("buf", "member");
    expect(ids).toContain(refAt("scan/use.go", "s.buf"));
    expect(ids).not.toContain(refAt("other/other.go", "buf"));
    // Nor another language's text: JavaScript's `o.buf` is no Go field.
    expect(ids).not.toContain(refAt("web/app.js", "o.buf"));
    // By its spelling alone, all three were.
    expect(byName("buf")).toEqual(
      expect.arrayContaining([refAt("other/other.go", "buf"), refAt("web/app.js", "o.buf")]),
    );
  });

  it("an unexported package-level name: bare in its own package only", () => {
    const ids = affected("limit", "top");
    expect(ids).toContain(refAt("scan/use.go", "limit"));
    expect(ids).not.toContain(refAt("other/other.go", "limit"));
    expect(byName("limit")).toContain(refAt("other/other.go", "limit"));
  });

  it("an exported one: after a dot in any Go file too", () => {
    expect(affected("New", "top")).toContain(refAt("other/other.go", "s"));
  });
});

const steered = useIndexedProject("locals-steer", {
  files: {
    "a.py":
      "class Box:\n    def open(self):\n        pass\n\n    def bind(self):\n        pass\n\n\ndef make() -> Box:\n    return Box()\n",
    "b.py":
      "from a import make\n\n\nclass Other:\n    def go(self):\n        pass\n\n\n" +
      "def run():\n    v = make()\n    w = v.bind\n    v.open()\n    w()\n    o = Other()\n    o.go()\n",
    "c.py":
      "from a import make\nfrom b import Other\n\n\ndef pick():\n    v = make()\n    o = Other()\n    o.go()\n    return v\n",
  },
});

describe("the references of its file a changed local steers", () => {
  const ref = (path: string, receiver: string | null, name: string): number => {
    const id = steered.db
      .prepare(
        `SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.receiver IS ? AND r.name = ?`,
      )
      .pluck()
      .get(path, receiver, name) as number | undefined;
    expect(id, `${receiver}.${name} in ${path}`).toBeDefined();
    return id!;
  };

  it("those through it or a local typed through it, not every reference of the file", () => {
    const ids = refsAffectedByNames(steered.db, ChangedNames.anywhere(["make"]));
    expect(ids).toContain(ref("b.py", "v", "open"));
    expect(ids).toContain(ref("b.py", null, "w"));
    expect(ids).not.toContain(ref("b.py", "o", "go"));
  });

  it("every reference with a receiver where a function's result is typed through it", () => {
    expect(refsAffectedByNames(steered.db, ChangedNames.anywhere(["make"]))).toContain(ref("c.py", "o", "go"));
  });
});
