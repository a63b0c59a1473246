import Database from "better-sqlite3";
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { run, tempRepo } from "../helpers/cli.js";
import { holdLock } from "../helpers/lock-holder.js";
import { connectClient, textOf } from "../helpers/mcp.js";

// Freshness through the MCP surface: the daemon's watcher keeps answers current while files change,
// drifted bytes are flagged, and an unhealthy auto-sync says so instead of answering from a frozen graph.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");
const repos: ReturnType<typeof tempRepo>[] = [];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const r of repos) {
    for (const pid of daemonsOf(r.dir)) process.kill(pid, "SIGKILL");
    r.cleanup();
  }
});

function daemonsOf(dir: string): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const args = readFileSync(`/proc/${n}/cmdline`, "utf8").split("\0");
        return args.includes("daemon") && args[args.indexOf("--path") + 1] === dir;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function indexedRepo() {
  const r = tempRepo(FIXTURE);
  repos.push(r);
  expect((await run(["init", r.dir])).code).toBe(0);
  return r.dir;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function client(dir: string, env: Record<string, string> = {}, args: string[] = []) {
  const c = await connectClient({
    cwd: dir,
    args,
    env: { CODEGRAPH_WATCH_DEBOUNCE_MS: "100", CODEGRAPH_MCP_TOOLS: "search,node,status", ...env },
  });
  cleanups.push(c.close);
  const call = async (name: string, a: Record<string, unknown>) =>
    textOf(await c.client.callTool({ name: `codegraph_${name}`, arguments: a }));
  return { ...c, call };
}

describe("while files change", () => {
  it("answers follow adds, edits and deletes", async () => {
    const dir = await indexedRepo();
    const { call } = await client(dir);
    expect(await call("search", { query: "twice" })).toContain("src/math.ts:6");
    expect(await call("status", {})).toMatch(/^Auto-sync: ok/m);

    writeFileSync(join(dir, "src", "fresh.ts"), "export function brandNewHelper(): number {\n  return 7;\n}\n");
    await until("the new file", async () =>
      (await call("search", { query: "brandNewHelper" })).includes("src/fresh.ts:1"),
    );

    writeFileSync(join(dir, "src", "fresh.ts"), "\n\nexport function renamedHelper(): number {\n  return 8;\n}\n");
    await until("the edit", async () => (await call("search", { query: "renamedHelper" })).includes("src/fresh.ts:3"));
    expect(await call("search", { query: "brandNewHelper" })).not.toMatch(/function\s+brandNewHelper/);

    rmSync(join(dir, "src", "fresh.ts"));
    await until("the delete", async () => !/src\/fresh\.ts/.test(await call("search", { query: "renamedHelper" })));
  });

  it("a sync commits while a reader is mid-read, and the reader keeps the graph it started with", async () => {
    const dir = await indexedRepo();
    const reader = new Database(join(dir, ".codegraph", "graph.db"), { readonly: true, fileMustExist: true });
    cleanups.push(() => reader.close());
    const count = reader.prepare("SELECT count(*) AS n FROM nodes");
    reader.exec("BEGIN");
    const before = (count.get() as { n: number }).n;
    writeFileSync(join(dir, "src", "fresh.ts"), "export function brandNewHelper(): number {\n  return 7;\n}\n");
    // Under a rollback journal the reader's lock would hold the commit until the writer gave up.
    const sync = await run(["sync", dir]);
    expect(sync.stderr).toBe("");
    expect(sync.code).toBe(0);
    expect((count.get() as { n: number }).n).toBe(before);
    reader.exec("COMMIT");
    expect((count.get() as { n: number }).n).toBeGreaterThan(before);
  });
});

describe("honest freshness", () => {
  it("flags a file edited since the last sync and ships it whole", async () => {
    const dir = await indexedRepo();
    const { call } = await client(dir, {}, ["--no-watch"]);
    expect(await call("node", { symbol: "twice" })).not.toContain("⚠️");
    appendFileSync(join(dir, "src", "math.ts"), "\nexport const LATE = 1;\n");
    const text = await call("node", { symbol: "twice" });
    expect(text).toMatch(
      /^⚠️ Some files referenced below were edited since the last index sync — their codegraph entries may be stale:\n {2}- src\/math\.ts$/m,
    );
    expect(text).toContain("export const LATE = 1;");
  });

  it("says RECOVERING while another process holds the index, and names changed files instead of answering", async () => {
    const dir = await indexedRepo();
    const { call } = await client(dir, { CODEGRAPH_RECOVER_INTERVAL_MS: "300" });
    expect(await call("status", {})).toMatch(/^Auto-sync: ok/m);
    const holder = await holdLock(dir);
    cleanups.push(() => holder.kill());
    appendFileSync(join(dir, "src", "math.ts"), "\nexport const HELD = 2;\n");
    // The watcher retries for its contention budget (10 s), then reports RECOVERING.
    await until("RECOVERING", async () => /^Auto-sync: RECOVERING/m.test(await call("status", {})), 25_000);
    const answer = await call("search", { query: "twice" });
    expect(answer).toMatch(/^⚠️ CodeGraph auto-sync is RECOVERING/);
    expect(answer).toMatch(/files this answer would name changed since the last index sync:\n {2}- src\/math\.ts/);
    // So do callers, callees and impact, whether the changed file holds the definition or a row.
    const frozenAnswer = /files this answer would name changed since the last index sync:\n {2}- src\/math\.ts$/m;
    expect(await call("callers", { symbol: "add" })).toMatch(frozenAnswer);
    expect(await call("callees", { symbol: "Calculator.double" })).toMatch(frozenAnswer);
    expect(await call("callers", { symbol: "twice" })).toMatch(frozenAnswer);
    expect(await call("impact", { symbol: "add" })).toMatch(frozenAnswer);
    // An answer naming only unchanged files stands.
    const plus = await call("callers", { symbol: "plus" });
    expect(plus).not.toMatch(/would name changed/);
    expect(plus).toMatch(/main/);
    holder.stdin!.end();
    await until("recovery", async () => /^Auto-sync: ok/m.test(await call("status", {})), 20_000);
    expect(await call("search", { query: "HELD" })).toContain("src/math.ts");
  }, 60_000);
});
