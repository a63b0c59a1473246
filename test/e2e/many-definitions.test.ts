import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { relations } from "../../src/query/callers.js";
import { listFiles } from "../../src/query/files.js";
import { impact } from "../../src/query/impact.js";
import { renderFiles, renderImpact, renderRelations } from "../../src/render/text.js";
import { openDatabase, type Db } from "../../src/store/database.js";
import { run, runJson, tempRepo } from "../helpers/cli.js";

// 55 files each define `run`; mods/m0.ts has 12 callers, m1 11, … m11 one, the rest none. 310 more
// files in 31 folders make the project too large to list file by file.
const DEFINITIONS = 55;
const callersOf = (i: number) => Math.max(0, 12 - i);

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < DEFINITIONS; i++) {
    out[`mods/m${i}.ts`] = `export function run(): number {\n  return ${i};\n}\n`;
    const n = callersOf(i);
    if (!n) continue;
    const fns = Array.from({ length: n }, (_, k) => `export function use${i}_${k}() {\n  return run();\n}\n`);
    out[`callers/c${i}.ts`] = `import { run } from "../mods/m${i}";\n${fns.join("")}`;
  }
  for (let d = 0; d < 31; d++) for (let f = 0; f < 10; f++) out[`pad/a${d}/f${f}.ts`] = `export const v${f} = ${d};\n`;
  return out;
}

describe("a name with many definitions, and a project with many files", () => {
  let repo: { dir: string; cleanup: () => void };
  const p = {} as { db: Db };
  beforeAll(async () => {
    repo = tempRepo();
    for (const [path, text] of Object.entries(files())) {
      mkdirSync(dirname(join(repo.dir, path)), { recursive: true });
      writeFileSync(join(repo.dir, path), text);
    }
    await runJson(["init", repo.dir]);
    p.db = openDatabase(dbPath(repo.dir), { readonly: true });
  });
  afterAll(() => {
    p.db?.close();
    repo.cleanup();
  });

  it("callers show the ten definitions with the most callers, list forty more and count the rest", () => {
    const r = relations(p.db, "run", "callers");
    expect(r.groups.map((g) => g.definition.file)).toEqual(Array.from({ length: 10 }, (_, i) => `mods/m${i}.ts`));
    expect(r.groups.map((g) => g.total)).toEqual(Array.from({ length: 10 }, (_, i) => callersOf(i)));
    expect(r.groups[0]!.rows).toHaveLength(12);
    expect(r.others).toHaveLength(40);
    expect(r.others.slice(0, 3).map((o) => o.total)).toEqual([2, 1, 0]);
    expect(r.omitted).toBe(DEFINITIONS - 50);
    const text = renderRelations(r);
    expect(text).toContain(`${DEFINITIONS} definitions share this name; the 10 with the most callers are shown above.`);
    expect(text).toMatch(/^ {2}run \(function, mods\/m10\.ts:1\): 2$/m);
    expect(text).toContain(`… and ${DEFINITIONS - 50} more.`);
    expect(text.match(/^Callers of /gm)).toHaveLength(10);
  });

  it("a file filter still picks one definition", () => {
    const r = relations(p.db, "run", "callers", { file: "mods/m30.ts" });
    expect(r.groups).toHaveLength(1);
    expect(r.others).toEqual([]);
    expect(r.omitted).toBe(0);
  });

  it("impact shows the blast radii of the definitions with the most dependents, sharing the limit", () => {
    const r = impact(p.db, "run", { limit: 300 });
    expect(r.sections.map((s) => s.roots[0]!.file)).toEqual(Array.from({ length: 10 }, (_, i) => `mods/m${i}.ts`));
    expect(r.sections[0]!.hits).toHaveLength(12);
    expect(r.others.slice(0, 2).map((o) => o.direct)).toEqual([2, 1]);
    expect(r.omitted).toBe(DEFINITIONS - 50);
    const narrow = impact(p.db, "run", { limit: 100 });
    // 100 hits shared by ten definitions, at least 20 each: m0's 12 fit, nothing is cut.
    expect(narrow.sections[0]!.hits).toHaveLength(12);
    expect(narrow.sections[0]!.truncated).toBe(false);
    expect(renderImpact(r)).toContain(
      `${DEFINITIONS} definitions share this name; the 10 with the most direct dependents`,
    );
  });

  it("files too many to list are summarised by folder, as deep as fits", () => {
    const all = listFiles(p.db);
    expect(all.length).toBeGreaterThan(300);
    const tree = renderFiles(all, true);
    expect(tree.split("\n")[0]).toMatch(
      new RegExp(`^${all.length} files \\(typescript ${all.length}\\): too many to list`),
    );
    expect(tree).toMatch(/^pad\/ {2}\(310 files, 310 symbols\)$/m);
    expect(tree).toMatch(/^ {2}a7\/ {2}\(10 files, 10 symbols\)$/m);
    expect(tree).toMatch(/^mods\/ {2}\(55 files, 55 symbols\)$/m);
    expect(tree).not.toContain("f3.ts");
    const list = renderFiles(all, false).split("\n");
    expect(list).toHaveLength(301);
    expect(list.at(-1)).toBe(
      `… ${all.length - 300} more files (${all.length} in all); pass a folder path to list its files.`,
    );
    // The files' common folder heads the summary, so each line reads as a path from the root.
    const pad = renderFiles(listFiles(p.db, "pad"), true).split("\n");
    expect(pad.slice(1, 3)).toEqual(["pad/  (310 files, 310 symbols)", "  a0/  (10 files, 10 symbols)"]);
    // One folder is few enough to list file by file.
    expect(renderFiles(listFiles(p.db, "pad/a7"), true)).toContain("f3.ts");
  });

  it("the CLI answers with the same summaries", async () => {
    const callers = await run(["callers", "run", "-p", repo.dir]);
    expect(callers.stdout).toContain(`${DEFINITIONS} definitions share this name`);
    expect(callers.stdout.match(/^Callers of /gm)).toHaveLength(10);
    const tree = await run(["files", "-p", repo.dir]);
    expect(tree.stdout).toMatch(/too many to list/);
  });
});
