import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/config.js";
import { indexesLanguageOf } from "../../src/indexer/scope.js";
import { parseSnapshot, snapshotText } from "../../src/scan/folder-snapshot.js";
import { scanProject, type Inventory } from "../../src/scan/inventory.js";
import { folderMtimeTracksEntries } from "../../src/scan/mtime-probe.js";

/**
 * A walk given the snapshot of an earlier one reads only the folders whose mtime (or .gitignore) moved,
 * and must list exactly what a walk reading every folder lists. Real folders, real mtimes.
 */
const config = defaultConfig().indexing;
let root: string;
const at = (p: string) => join(root, p);

const tree: Record<string, string> = {
  ".gitignore": "*.gen.ts\n",
  "src/a.ts": "",
  "src/b.gen.ts": "",
  "src/deep/er/c.py": "",
  "src/deep/er/notes.txt": "",
  "lib/.gitignore": "skip/\n",
  "lib/d.go": "",
  "lib/skip/e.go": "",
  "lib/sub/f.go": "",
  "lib/sub/go.mod": "module x\n",
  "locale/fr/LC_MESSAGES/django.po": "",
  "locale/de/LC_MESSAGES/django.po": "",
};

/** Every folder and file of the tree an hour back: older than any doubt about a coarse clock. */
function settleAll(dir = root): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) settleAll(p);
    utimesSync(p, hourAgo, hourAgo);
  }
  if (dir === root) utimesSync(root, hourAgo, hourAgo);
}

const scan = (previous?: Inventory) => scanProject(root, config, indexesLanguageOf, { previous: previous?.snapshot });

/** What a walk lists, without how it learnt it. */
const listed = (inv: Inventory) => ({
  files: inv.files,
  skipped: inv.skipped,
  manifests: inv.manifests,
  folders: inv.folders,
  ignoredFolders: inv.ignoredFolders,
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "codegraph-snapshot-"));
  for (const [p, text] of Object.entries(tree)) {
    mkdirSync(join(root, p, ".."), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  settleAll();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a walk built on a folder snapshot", () => {
  it("reads no folder of an unchanged tree, and lists what a full walk lists", () => {
    const first = scan();
    expect(first.foldersRead).toBe(first.folders.length);
    const again = scan(first);
    expect(again.foldersRead).toBe(0);
    expect(listed(again)).toEqual(listed(scan()));
    expect(again.files.map((f) => f.path)).toEqual(["lib/d.go", "lib/sub/f.go", "src/a.ts", "src/deep/er/c.py"]);
    expect(again.manifests).toEqual(["lib/sub/go.mod"]);
    expect(again.ignoredFolders).toEqual(["lib/skip"]);
  });

  it("reads the folders a file was added to or removed from, and sees an edited file's new size", () => {
    const first = scan();
    writeFileSync(at("locale/fr/LC_MESSAGES/late.py"), "x = 1\n");
    rmSync(at("lib/sub/f.go"));
    writeFileSync(at("src/a.ts"), "export const a = 1;\n");
    const again = scan(first);
    expect(again.foldersRead).toBe(2);
    expect(listed(again)).toEqual(listed(scan()));
    expect(again.files.map((f) => f.path)).toContain("locale/fr/LC_MESSAGES/late.py");
    expect(again.files.map((f) => f.path)).not.toContain("lib/sub/f.go");
    expect(again.files.find((f) => f.path === "src/a.ts")?.size).toBe(20);
  });

  it("trusts a folder's mtime only once it was older than the read by more than a clock tick", () => {
    // A file added in the same tick as the read leaves the folder's mtime as it was: simulated by
    // putting the mtime back. Recorded a second before the read, the folder is read again.
    const folder = at("src/deep/er");
    const recent = new Date(Date.now() - 1000);
    utimesSync(folder, recent, recent);
    const first = scan();
    writeFileSync(join(folder, "late.py"), "");
    utimesSync(folder, recent, recent);
    const again = scan(first);
    expect(again.files.map((f) => f.path)).toContain("src/deep/er/late.py");
    expect(listed(again)).toEqual(listed(scan()));
    // What guards that case is the age of the mtime: one an hour old is believed, put back or not.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(folder, hourAgo, hourAgo);
    const settled = scan();
    writeFileSync(join(folder, "later.py"), "");
    utimesSync(folder, hourAgo, hourAgo);
    const fooled = scan(settled);
    expect(fooled.foldersRead).toBe(0);
    expect(fooled.files.map((f) => f.path)).not.toContain("src/deep/er/later.py");
  });

  it("reads everything below a .gitignore edited in place", () => {
    const first = scan();
    const folderMtime = statSync(at("lib")).mtimeMs;
    writeFileSync(at("lib/.gitignore"), "sub/*.go\n");
    expect(statSync(at("lib")).mtimeMs).toBe(folderMtime); // an edit in place leaves the folder as it was
    const again = scan(first);
    expect(again.files.map((f) => f.path)).not.toContain("lib/sub/f.go");
    expect(again.foldersRead).toBe(3); // lib, and both folders below it: skip/ is no longer ignored
    expect(listed(again)).toEqual(listed(scan()));
  });

  it("reads everything below a folder that gained a .gitignore", () => {
    const first = scan();
    writeFileSync(at("src/.gitignore"), "*.py\n");
    const again = scan(first);
    expect(again.files.map((f) => f.path)).not.toContain("src/deep/er/c.py");
    expect(listed(again)).toEqual(listed(scan()));
  });

  it("is stored as text and read back only under the same rules", () => {
    const first = scan();
    const text = snapshotText(first.snapshot, config);
    expect(parseSnapshot(text, config)).toEqual(first.snapshot);
    expect(parseSnapshot(text, { ...config, exclude: ["lib/**"] })).toBeUndefined();
    expect(parseSnapshot("{not json", config)).toBeUndefined();
    expect(parseSnapshot(null, config)).toBeUndefined();
  });

  it("is kept only where creating an entry moves its folder's mtime", () => {
    expect(folderMtimeTracksEntries(root)).toBe(true);
    expect(folderMtimeTracksEntries(at("no/such/folder"))).toBe(false);
    expect(readdirSync(root).filter((n) => n.startsWith("mtime-probe-"))).toEqual([]);
  });
});
