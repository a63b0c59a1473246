import { spawn, spawnSync } from "node:child_process";
import { holdLock } from "../helpers/lock-holder.js";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexSummary } from "../../dist/indexer/progress.js";
import { healthBanner } from "../../dist/render/health-banner.js";
import { watchDisabledReason, watchProject, type ProjectWatcher, type WatchOptions } from "../../dist/watch/index.js";
import { graphSnapshot } from "../helpers/graph-snapshot.js";
import { runJson, tempRepo } from "../helpers/cli.js";

/**
 * The live watcher against real file events: a temporary indexed repo, a short debounce, and polling
 * (with a timeout) until the index shows each change. Nothing here asserts wall time.
 */
const dist = join(import.meta.dirname, "..", "..", "dist");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000, pollMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}

/** Files of the index that declare a symbol called `name` (read-only, so the watcher's writes go on). */
function filesDefining(root: string, name: string): string[] {
  const db = new Database(join(root, ".codegraph", "graph.db"), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        "SELECT DISTINCT f.path AS p FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.name = ? AND n.kind != 'import' ORDER BY 1",
      )
      .all(name) as { p: string }[];
    return rows.map((r) => r.p);
  } finally {
    db.close();
  }
}

function indexedFiles(root: string): string[] {
  const db = new Database(join(root, ".codegraph", "graph.db"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT path FROM files ORDER BY path").all() as { path: string }[]).map((r) => r.path);
  } finally {
    db.close();
  }
}

function git(dir: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

interface Harness {
  dir: string;
  watcher: ProjectWatcher;
  synced: IndexSummary[];
  errors: Error[];
  at: (p: string) => string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function indexedRepo(files: Record<string, string>): Promise<{ dir: string; at: (p: string) => string }> {
  const repo = tempRepo();
  cleanups.push(repo.cleanup);
  const at = (p: string) => join(repo.dir, p);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(at(p), ".."), { recursive: true });
    writeFileSync(at(p), text);
  }
  await runJson(["init", repo.dir]);
  return { dir: repo.dir, at };
}

async function watch(dir: string, options: WatchOptions = {}): Promise<Harness> {
  const synced: IndexSummary[] = [];
  const errors: Error[] = [];
  const watcher = await watchProject(dir, {
    debounceMs: 150,
    onSynced: (s) => synced.push(s),
    onError: (e) => errors.push(e),
    ...options,
  });
  cleanups.push(() => watcher.close());
  return { dir, watcher, synced, errors, at: (p) => join(dir, p) };
}

const BASE = {
  "src/app.ts": 'import { helper } from "./util";\nexport function main() {\n  return helper();\n}\n',
  "src/util.ts": "export function helper() {\n  return 1;\n}\n",
  "legacy/old.ts": "export function oldThing() {\n  return 2;\n}\n",
};

describe("live watch", () => {
  it("adds, edits and deletes reach the index", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    expect(h.watcher.health()).toEqual({ state: "ok" });

    writeFileSync(h.at("src/added.ts"), "export function addedLater() {\n  return 3;\n}\n");
    await waitFor("the added file", () => filesDefining(h.dir, "addedLater").length === 1);

    writeFileSync(h.at("src/util.ts"), "export function helperRenamed() {\n  return 10;\n}\n");
    await waitFor("the edit", () => filesDefining(h.dir, "helperRenamed").length === 1);
    expect(filesDefining(h.dir, "helper")).not.toContain("src/util.ts");

    rmSync(h.at("src/added.ts"));
    await waitFor("the deletion", () => filesDefining(h.dir, "addedLater").length === 0);

    // A folder renamed away sends one event, for the folder; its files must still leave the index.
    renameSync(h.at("legacy"), join(h.dir, "..", `${h.dir.split("/").pop()}-moved-away`));
    cleanups.push(() => rmSync(join(h.dir, "..", `${h.dir.split("/").pop()}-moved-away`), { recursive: true }));
    await waitFor("the folder moved away", () => filesDefining(h.dir, "oldThing").length === 0);
    expect(h.errors).toEqual([]);
    expect(h.watcher.health()).toEqual({ state: "ok" });
  });

  it("a folder made while no one watched is known: moved away, its files leave the index", async () => {
    // The watcher reads its scope from the folder snapshot the last sync stored; a folder that came
    // after it must still be found (its parent's mtime moved), or its one event would be ignored.
    const repo = await indexedRepo(BASE);
    mkdirSync(repo.at("legacy/inner"));
    writeFileSync(repo.at("legacy/inner/deep.ts"), "export function deepThing() {\n  return 4;\n}\n");
    const h = await watch(repo.dir, { initialSync: true });
    await h.watcher.flush();
    expect(filesDefining(h.dir, "deepThing")).toEqual(["legacy/inner/deep.ts"]);

    const away = join(h.dir, "..", `${h.dir.split("/").pop()}-inner-away`);
    renameSync(h.at("legacy/inner"), away);
    cleanups.push(() => rmSync(away, { recursive: true }));
    await waitFor("the folder moved away", () => filesDefining(h.dir, "deepThing").length === 0);
    expect(filesDefining(h.dir, "oldThing")).toEqual(["legacy/old.ts"]);
    expect(h.errors).toEqual([]);
  });

  it("a folder tree renamed inside the project: later edits in its subfolders reach the index", async () => {
    // inotify watches follow inodes: the renamed folder's subfolders keep watches named by their old
    // paths, and the watch library adds one only for the folder itself.
    const repo = await indexedRepo({ ...BASE, "pkg/sub/deep/leaf.ts": "export function leafBefore() {}\n" });
    const h = await watch(repo.dir);
    renameSync(h.at("pkg"), h.at("pkg_rn"));
    await waitFor("the rename", () => filesDefining(h.dir, "leafBefore").join() === "pkg_rn/sub/deep/leaf.ts");
    writeFileSync(h.at("pkg_rn/sub/deep/leaf.ts"), "export function leafAfter() {}\n");
    await waitFor("the edit below the renamed folder", () => filesDefining(h.dir, "leafAfter").length === 1);
    writeFileSync(h.at("pkg_rn/sub/added.ts"), "export function addedBelow() {}\n");
    await waitFor("a file added below it", () => filesDefining(h.dir, "addedBelow").length === 1);
    expect(h.errors).toEqual([]);
  });

  it("a folder tree made at once (mkdir -p, an unpacked archive): later edits deep inside reach the index", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    mkdirSync(h.at("gen/a/b/c"), { recursive: true });
    writeFileSync(h.at("gen/a/b/c/made.ts"), "export function madeDeep() {}\n");
    await waitFor("the new tree", () => filesDefining(h.dir, "madeDeep").length === 1);
    writeFileSync(h.at("gen/a/b/c/made.ts"), "export function editedDeep() {}\n");
    await waitFor("the edit deep inside", () => filesDefining(h.dir, "editedDeep").length === 1);
    expect(h.errors).toEqual([]);
  });

  it("the catch-up is one sync, and waiting for it starts no other", async () => {
    const repo = await indexedRepo(BASE);
    writeFileSync(repo.at("src/before.ts"), "export function madeBefore() {\n  return 6;\n}\n");
    const h = await watch(repo.dir, { initialSync: true, debounceMs: 60_000 });
    await h.watcher.caughtUp();
    expect(h.synced).toHaveLength(1);
    expect(filesDefining(h.dir, "madeBefore")).toEqual(["src/before.ts"]);
  });

  it("saves made while the watch starts reach the index before the next answer, and it goes live", async () => {
    // The OS watch comes up while the catch-up sync runs: until it is up, every flush syncs afresh.
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir, { initialSync: true });
    for (let i = 0; i < 3; i++) {
      writeFileSync(h.at(`src/early${i}.ts`), `export function earlySave${i}() {\n  return ${i};\n}\n`);
      await h.watcher.flush();
      expect(filesDefining(h.dir, `earlySave${i}`)).toEqual([`src/early${i}.ts`]);
    }
    await waitFor("the watch", () => h.watcher.live());
    writeFileSync(h.at("src/later.ts"), "export function savedLater() {\n  return 5;\n}\n");
    await waitFor("the watched save", () => filesDefining(h.dir, "savedLater").length === 1);
    expect(h.errors).toEqual([]);
  });

  it("events outside the scope start no sync", async () => {
    const repo = await indexedRepo({ ...BASE, ".gitignore": "generated/\n" });
    const h = await watch(repo.dir);
    mkdirSync(h.at("node_modules/pkg"), { recursive: true });
    writeFileSync(h.at("node_modules/pkg/index.ts"), "export const x = 1;\n");
    mkdirSync(h.at("generated"), { recursive: true });
    writeFileSync(h.at("generated/out.ts"), "export const y = 1;\n");
    writeFileSync(h.at("README.md"), "# notes\n");
    await sleep(1000); // several debounce windows: a sync would have started by now
    await h.watcher.flush();
    expect(h.synced).toHaveLength(0);
    // …and one in scope does.
    writeFileSync(h.at("src/more.ts"), "export function more() {}\n");
    await waitFor("the sync", () => h.synced.length === 1);
    expect(indexedFiles(h.dir)).not.toContain("generated/out.ts");
  });

  it("a branch checkout of 1000 files is one sync whose graph equals init --force", async () => {
    const repo = await indexedRepo(BASE);
    git(repo.dir, "add", "-A");
    git(repo.dir, "commit", "-qm", "base");
    git(repo.dir, "checkout", "-qb", "burst");
    for (let i = 0; i < 1000; i++) {
      const dir = `pkg${Math.floor(i / 100)}`;
      mkdirSync(repo.at(dir), { recursive: true });
      const next = i + 1 < 1000 ? `mod${i + 1}` : null;
      const body = next
        ? `import { fn${i + 1} } from "${Math.floor((i + 1) / 100) === Math.floor(i / 100) ? "." : `../pkg${Math.floor((i + 1) / 100)}`}/${next}";\n` +
          `export function fn${i}() {\n  return fn${i + 1}() + ${i};\n}\n`
        : `export function fn${i}() {\n  return ${i};\n}\n`;
      writeFileSync(repo.at(`${dir}/mod${i}.ts`), body);
    }
    writeFileSync(repo.at("src/util.ts"), "export function helper() {\n  return 2;\n}\nexport function extra() {}\n");
    git(repo.dir, "add", "-A");
    git(repo.dir, "commit", "-qm", "burst");
    git(repo.dir, "checkout", "-q", "-"); // back to the base tree, which is what the index holds
    await runJson(["init", "--force", repo.dir]);
    expect(filesDefining(repo.dir, "fn0")).toEqual([]);

    const h = await watch(repo.dir, { debounceMs: 1000, log: (l) => process.env.WATCH_DEBUG && console.log(l) });
    git(repo.dir, "checkout", "-q", "burst");
    await waitFor("the checkout", () => filesDefining(h.dir, "fn999").length === 1, 60_000);
    await sleep(3000); // three more debounce windows: no second sync may follow
    await h.watcher.flush();
    expect(h.synced).toHaveLength(1);
    expect(h.synced[0]!.added).toBe(1000);
    const afterWatch = graphSnapshot(h.dir);
    await h.watcher.close();

    const rebuilt = await runJson<{ nodes: number; edges: number }>(["init", "--force", h.dir]);
    const afterInit = graphSnapshot(h.dir);
    expect(afterWatch.nodes).toEqual(afterInit.nodes);
    expect(afterWatch.edges).toEqual(afterInit.edges);
    expect(afterWatch.unresolved).toEqual(afterInit.unresolved);
    expect(h.synced[0]!.nodes).toBe(rebuilt.nodes);
    expect(h.synced[0]!.edges).toBe(rebuilt.edges);
  }, 120_000);

  it("an edit made while a sync runs brings exactly one more sync after it", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    for (let i = 0; i < 600; i++) {
      mkdirSync(h.at(`many/d${i % 20}`), { recursive: true });
      writeFileSync(h.at(`many/d${i % 20}/m${i}.ts`), `export function many${i}() {\n  return ${i};\n}\n`);
    }
    // A sync holds the writer lock from start to end: its lock file says one is running.
    const lock = h.at(".codegraph/writer.lock");
    await waitFor("the first sync to start", () => existsSync(lock), 20_000, 5);
    writeFileSync(h.at("src/late.ts"), "export function editedDuringSync() {}\n");
    await waitFor("the late edit", () => filesDefining(h.dir, "editedDuringSync").length === 1);
    await sleep(600);
    await h.watcher.flush();
    expect(h.synced).toHaveLength(2);
    expect(h.synced[0]!.added + h.synced[1]!.added).toBe(601);
    expect(h.errors).toEqual([]);
  });

  it("config.toml is live: an exclude drops a folder, invalid TOML keeps the last scope and is reported", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    expect(filesDefining(h.dir, "oldThing")).toEqual(["legacy/old.ts"]);

    writeFileSync(h.at(".codegraph/config.toml"), '[indexing]\nexclude = ["legacy/**"]\n');
    await waitFor("the exclude", () => filesDefining(h.dir, "oldThing").length === 0);

    writeFileSync(h.at(".codegraph/config.toml"), '[indexing\nexclude = ["legacy/**"]\n');
    await waitFor("the config error", () => h.errors.some((e) => /not valid TOML/.test(e.message)));
    // The last valid scope holds: an excluded folder stays out, in-scope edits still sync.
    writeFileSync(h.at("legacy/new.ts"), "export function stillExcluded() {}\n");
    writeFileSync(h.at("src/fresh.ts"), "export function freshAfterTypo() {}\n");
    await waitFor("the in-scope edit", () => filesDefining(h.dir, "freshAfterTypo").length === 1);
    await h.watcher.flush();
    expect(filesDefining(h.dir, "stillExcluded")).toEqual([]);
    expect(h.watcher.health()).toEqual({ state: "ok" });

    // Fixed, and the exclude removed: the folder comes back in one full scan.
    writeFileSync(h.at(".codegraph/config.toml"), "[indexing]\n");
    await waitFor("the folder back", () => filesDefining(h.dir, "stillExcluded").length === 1);
    expect(filesDefining(h.dir, "oldThing")).toEqual(["legacy/old.ts"]);
  });

  it("the root .gitignore and codegraph.json are live control files too", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    writeFileSync(h.at(".gitignore"), "legacy/\n");
    await waitFor("gitignored folder gone", () => filesDefining(h.dir, "oldThing").length === 0);
    writeFileSync(h.at("codegraph.json"), JSON.stringify({ indexing: { exclude: ["src/util.ts"] } }));
    await waitFor("excluded file gone", () => !indexedFiles(h.dir).includes("src/util.ts"));
    rmSync(h.at(".gitignore"));
    rmSync(h.at("codegraph.json"));
    await waitFor("both back", () => ["legacy/old.ts", "src/util.ts"].every((f) => indexedFiles(h.dir).includes(f)));
  });

  it("a folder ignored when the watch began, let in later: its edits reach the index", async () => {
    const repo = await indexedRepo({ ...BASE, ".gitignore": "legacy/\n" });
    const h = await watch(repo.dir);
    expect(indexedFiles(h.dir)).not.toContain("legacy/old.ts");
    rmSync(h.at(".gitignore"));
    await waitFor("the folder let in", () => indexedFiles(h.dir).includes("legacy/old.ts"));
    writeFileSync(h.at("legacy/old.ts"), "export function oldEdited() {}\n");
    await waitFor("an edit in the folder let in", () => filesDefining(h.dir, "oldEdited").length === 1);
    expect(h.errors).toEqual([]);
  });

  it("RECOVERING while another process holds the index lock, ok again once it commits", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir, { lockBudgetMs: 500, recoverIntervalMs: 300 });
    const holder = await holdLock(repo.dir);
    cleanups.push(() => void holder.kill());

    writeFileSync(repo.at("src/during.ts"), "export function writtenDuringLock() {}\n");
    await waitFor("recovering", () => h.watcher.health().state === "recovering");
    const health = h.watcher.health();
    expect(health.state === "recovering" && health.reason).toMatch(/writer lock/);
    expect(healthBanner(health)).toMatch(/^⚠️ CodeGraph auto-sync is RECOVERING/);
    expect(filesDefining(repo.dir, "writtenDuringLock")).toEqual([]);
    // Changes keep being collected while recovering.
    writeFileSync(repo.at("src/during2.ts"), "export function alsoDuringLock() {}\n");
    await sleep(700);
    expect(h.watcher.health().state).toBe("recovering");

    holder.stdin!.end(); // release
    await waitFor("ok again", () => h.watcher.health().state === "ok");
    expect(filesDefining(repo.dir, "writtenDuringLock")).toEqual(["src/during.ts"]);
    expect(filesDefining(repo.dir, "alsoDuringLock")).toEqual(["src/during2.ts"]);
  });

  it("DISABLED when syncs keep failing, with the reason", async () => {
    const repo = await indexedRepo(BASE);
    const h = await watch(repo.dir);
    rmSync(repo.at(".codegraph/graph.db"));
    writeFileSync(repo.at("src/x.ts"), "export function x() {}\n");
    await waitFor("disabled", () => h.watcher.health().state === "disabled");
    const health = h.watcher.health();
    expect(health.state === "disabled" && health.reason).toMatch(/5 syncs in a row failed.*codegraph init/);
    expect(healthBanner(health)).toMatch(/^⚠️ CodeGraph auto-sync is DISABLED/);
    await h.watcher.flush(); // resolves: nothing left to wait for
  });

  it("DISABLED when the OS watch cannot start", async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const w = await watchProject(join(repo.dir, "no-such-folder"), { debounceMs: 150 });
    expect(w.live()).toBe(false);
    const health = w.health();
    expect(health.state).toBe("disabled");
    expect(health.state === "disabled" && health.reason).toMatch(/OS file watch failed/);
    await w.close();
  });

  it("close() leaves nothing behind: the process exits on its own", async () => {
    const repo = await indexedRepo(BASE);
    const script = `
      import { writeFileSync } from "node:fs";
      import { watchProject } from ${JSON.stringify(join(dist, "watch", "index.js"))};
      const w = await watchProject(${JSON.stringify(repo.dir)}, { debounceMs: 5000 });
      writeFileSync(${JSON.stringify(repo.at("src/late.ts"))}, "export function late() {}\\n");
      await new Promise((r) => setTimeout(r, 300));
      await w.close();
      console.log("closed");`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`the process did not exit after close(): ${out}`));
      }, 15_000);
      child.on("close", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out.trim()).toBe("closed");
    expect(code).toBe(0);
  });

  it("off on WSL2 /mnt/ drives unless CODEGRAPH_FORCE_WATCH=1", () => {
    const wsl = { WSL_DISTRO_NAME: "Ubuntu" };
    expect(watchDisabledReason("/mnt/c/work/app", wsl)).toMatch(/WSL2 \/mnt\/.*CODEGRAPH_FORCE_WATCH=1/);
    expect(watchDisabledReason("/mnt/c/work/app", { ...wsl, CODEGRAPH_FORCE_WATCH: "1" })).toBeNull();
    expect(watchDisabledReason("/home/me/app", wsl)).toBeNull();
    expect(watchDisabledReason("/mntx/app", wsl)).toBeNull();
  });
});
