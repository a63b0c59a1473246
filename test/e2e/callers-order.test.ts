import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

/**
 * Callers are listed by the path of the file that calls, then line, however the index numbered its
 * files: a full index numbers them as its parsers finish, a sync numbers a new file after all others.
 * So the same code gives the same list, and a limit shows the same rows, after a sync as after a rebuild.
 */
interface Relations {
  groups: { rows: { symbol: { file: string }; line: number }[]; total: number }[];
}

const CALLERS = ["src/a.ts", "src/m.ts", "src/z.ts"];
const caller = (name: string) =>
  `import { target } from "./lib";\n\nexport function ${name}() {\n  return target();\n}\n`;

describe("the order of callers", () => {
  let repo: { dir: string; cleanup: () => void };
  const p = () => ["-p", repo.dir];
  const files = (r: Relations) => r.groups[0]!.rows.map((row) => row.symbol.file);

  beforeAll(async () => {
    repo = tempRepo();
    mkdirSync(join(repo.dir, "src"));
    writeFileSync(join(repo.dir, "src/lib.ts"), "export function target() {\n  return 1;\n}\n");
    for (const f of CALLERS) writeFileSync(join(repo.dir, f), caller(`from_${f.slice(4, 5)}`));
    expect((await run(["init", repo.dir])).code).toBe(0);
    // src/a.ts removed, then back: a sync gives it the highest file number.
    rmSync(join(repo.dir, "src/a.ts"));
    expect((await run(["sync", repo.dir])).code).toBe(0);
    writeFileSync(join(repo.dir, "src/a.ts"), caller("from_a"));
    expect((await run(["sync", repo.dir])).code).toBe(0);
  });
  afterAll(() => repo.cleanup());

  it("is by path and line, after a sync that numbered a file last as after a rebuild", async () => {
    const synced = await runJson<Relations>(["callers", "target", ...p()]);
    expect(files(synced)).toEqual(CALLERS);
    const syncedText = (await run(["callers", "target", ...p()])).stdout;
    const syncedFirst = await runJson<Relations>(["callers", "target", "--limit", "1", ...p()]);
    expect(files(syncedFirst)).toEqual(["src/a.ts"]);
    expect(syncedFirst.groups[0]!.total).toBe(3);

    expect((await run(["init", "--force", repo.dir])).code).toBe(0);
    expect((await run(["callers", "target", ...p()])).stdout).toBe(syncedText);
    expect(files(await runJson<Relations>(["callers", "target", "--limit", "1", ...p()]))).toEqual(["src/a.ts"]);
  });
});
