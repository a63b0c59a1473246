import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig, type IndexingConfig } from "../../src/config/config.js";
import { indexesLanguageOf, PathScope } from "../../src/indexer/scope.js";
import { scanProject } from "../../src/scan/inventory.js";

/**
 * The watcher asks the scope one path at a time; the indexer walks the tree. Both must agree on every
 * file, or a watched event would be dropped (or a sync started) for a file the index sees otherwise.
 */
const root = mkdtempSync(join(tmpdir(), "codegraph-scope-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tree: Record<string, string> = {
  ".gitignore": "*.gen.ts\nbuild-out/\n/top-only.ts\n",
  "src/a.ts": "",
  "src/a.gen.ts": "",
  "src/nested/.gitignore": "secret/\n!keep.gen.ts\nlocal.py\n",
  "src/nested/local.py": "",
  "src/nested/keep.gen.ts": "",
  "src/nested/secret/x.ts": "",
  "src/nested/ok.go": "",
  "src/nested/top-only.ts": "",
  "top-only.ts": "",
  "build-out/b.ts": "",
  "node_modules/pkg/index.js": "",
  "dist/x.js": "",
  "deep/node_modules/y.ts": "",
  "legacy/old.java": "",
  "legacy/keep/k.java": "",
  "docs/readme.md": "",
  "tsconfig.json": "{}",
  "legacy/go.mod": "module x\n",
  "build-out/go.mod": "module y\n",
  "lib/tool.py": "",
  "lib/tool_test.py": "",
  // Names the walk skips (see src/scan/control-names.ts): a file's, and a folder's.
  "src/bad\nname.ts": "",
  "odd\u001b[0mdir/x.ts": "",
};
for (const [p, text] of Object.entries(tree)) {
  mkdirSync(join(root, p, ".."), { recursive: true });
  writeFileSync(join(root, p), text);
}

function allFiles(dir: string, rel = ""): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? allFiles(dir, r) : [r];
  });
}

const configs: [string, Partial<IndexingConfig>][] = [
  ["defaults", {}],
  ["exclude", { exclude: ["legacy/**", "**/*_test.py"] }],
  ["include", { include: ["src/**", "lib/**"] }],
  ["no gitignore", { gitignore: false }],
];

describe("PathScope agrees with the indexer's walk", () => {
  for (const [label, override] of configs) {
    it(label, () => {
      const config = { ...defaultConfig().indexing, ...override };
      const inventory = scanProject(root, config, indexesLanguageOf);
      const scope = new PathScope(root, config, indexesLanguageOf);
      const sources = allFiles(root).filter((f) => scope.classify(f) === "source");
      const manifests = allFiles(root).filter((f) => scope.classify(f) === "manifest");
      expect(sources.sort()).toEqual(inventory.files.map((f) => f.path).sort());
      expect(manifests.sort()).toEqual([...inventory.manifests].sort());
      for (const folder of inventory.folders.filter(Boolean)) expect(scope.entersFolder(folder), folder).toBe(true);
      for (const folder of inventory.ignoredFolders) expect(scope.entersFolder(folder), folder).toBe(false);
      expect(scope.entersFolder("odd\u001b[0mdir")).toBe(false);
    });
  }

  it("a changed .gitignore is seen after forgetGitignores()", () => {
    const config = defaultConfig().indexing;
    const scope = new PathScope(root, config, indexesLanguageOf);
    expect(scope.classify("src/a.ts")).toBe("source");
    writeFileSync(join(root, "src", ".gitignore"), "a.ts\n");
    expect(scope.classify("src/a.ts")).toBe("source"); // cached
    scope.forgetGitignores();
    expect(scope.classify("src/a.ts")).toBe("other");
    rmSync(join(root, "src", ".gitignore"));
  });
});
