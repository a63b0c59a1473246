import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, run, tempRepo } from "../helpers/cli.js";

// The CLI's compile cache (src/cli/compile-cache.ts), each test with a temporary folder of its own
// as the system's temporary folder, so that the cache starts empty and nothing else writes to it.
const FIXTURE = join(import.meta.dirname, "fixtures", "node-explore");

let tmp: string;
let cacheDir: string;
let repo: { dir: string; cleanup: () => void };

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "codegraph-cc-"));
  cacheDir = join(tmp, `codegraph-v8-cache-${process.getuid!()}`);
  repo = tempRepo(FIXTURE);
});
afterEach(() => {
  repo.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, TMPDIR: tmp, NO_COLOR: "1", ...extra });
const debugEnv = () => env({ CODEGRAPH_DEBUG_COMPILE_CACHE: "1" });
/** What CODEGRAPH_DEBUG_COMPILE_CACHE says each bundle's cached code did: "used", "refused" or "none". */
const states = (stderr: string) =>
  Object.fromEntries([...stderr.matchAll(/compile cache: (\S+) (\w+)/g)].map((m) => [m[1], m[2]]));
const files = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);

describe("compile cache", () => {
  it("keeps the program's compiled code from one run for the next, in a folder only the user may use", async () => {
    const first = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(first.code).not.toBe(0); // no index yet: a clear error, and the program still ran
    expect(states(first.stderr)).toEqual({ program: "none" });
    const [written] = files();
    expect(written).toMatch(/^program\.status-[0-9a-f]{16}\.v8$/);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir, written!)).mode & 0o777).toBe(0o600);
    const before = readFileSync(join(cacheDir, written!));

    const second = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(states(second.stderr)).toEqual({ program: "used" });
    expect(second.stdout + second.code).toBe(first.stdout + first.code);
    // Used as it is: not written again.
    expect(files()).toEqual([written]);
    expect(readFileSync(join(cacheDir, written!)).equals(before)).toBe(true);
  });

  it("caches the parser's bundle through an index and a sync that change V8 flags, with the same results", async () => {
    const init = await run(["init", repo.dir], { env: debugEnv() });
    expect(init.code).toBe(0);
    expect(states(init.stderr)).toEqual({ program: "none", "in-process": "none" });
    expect(files().map((f) => f.replace(/-[0-9a-f]{16}\.v8$/, ""))).toEqual(["in-process.init", "program.init"]);

    const again = await run(["init", "--force", repo.dir], { env: debugEnv() });
    expect(states(again.stderr)).toEqual({ program: "used", "in-process": "used" });
    const counts = (out: string) => out.split("\n").filter((l) => /symbols:|edges:/.test(l));
    expect(counts(again.stdout)).toEqual(counts(init.stdout));

    const uncached = await run(["init", "--force", repo.dir], { env: env({ NODE_DISABLE_COMPILE_CACHE: "1" }) });
    expect(counts(uncached.stdout)).toEqual(counts(init.stdout));
    expect(counts(init.stdout)).toHaveLength(2);
  });

  it("keeps each command's compiled code apart, so one command's never stands in for another's", async () => {
    // V8 writes the functions compiled so far, and a file is written once: one made by `status`
    // would leave `search` compiling its own functions on every start.
    await run(["status", "--path", repo.dir], { env: env() });
    const search = await run(["search", "x", "--path", repo.dir], { env: debugEnv() });
    expect(states(search.stderr)).toEqual({ program: "none" });
    expect(files().map((f) => f.replace(/-[0-9a-f]{16}\.v8$/, ""))).toEqual(["program.search", "program.status"]);
    const status = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(states(status.stderr)).toEqual({ program: "used" });
    const again = await run(["search", "x", "--path", repo.dir], { env: debugEnv() });
    expect(states(again.stderr)).toEqual({ program: "used" });
    expect(again.stdout + again.code).toBe(search.stdout + search.code);
    // Options first: no command to name the file by.
    const version = await run(["--version"], { env: debugEnv() });
    expect(states(version.stderr)).toEqual({ program: "none" });
    expect(files().filter((f) => /^program-[0-9a-f]{16}\.v8$/.test(f))).toHaveLength(1);
  });

  it("removes the bundle's files no run has written for a day, whatever command made them", async () => {
    mkdirSync(cacheDir, { mode: 0o700 });
    const stale = [
      "program.serach-0123456789abcdef.v8",
      "program-0123456789abcdef.v8",
      "program.files-0123456789abcdef.v8",
    ];
    const recent = "program.node-0123456789abcdef.v8";
    const other = "in-process.sync-0123456789abcdef.v8";
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const f of [...stale, recent, other]) {
      writeFileSync(join(cacheDir, f), "x", { mode: 0o600 });
      if (f !== recent) utimesSync(join(cacheDir, f), twoDaysAgo, twoDaysAgo);
    }
    const first = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(states(first.stderr)).toEqual({ program: "none" });
    const left = files();
    for (const f of stale) expect(left).not.toContain(f);
    // A day has not passed for this one; the parser's bundle was not written, so its files stand.
    expect(left).toContain(recent);
    expect(left).toContain(other);
    expect(left.filter((f) => /^program\.status-[0-9a-f]{16}\.v8$/.test(f))).toHaveLength(1);
  });

  it("writes a long-running server's compiled code while it runs, since a signal may end it", async () => {
    // An MCP client may stop `serve` with SIGTERM, and a process killed so runs no exit handler.
    expect((await run(["init", repo.dir], { env: env() })).code).toBe(0);
    const server = spawn(process.execPath, [CLI, "serve", "--mcp", "--path", repo.dir], {
      env: env({ CODEGRAPH_NO_DAEMON: "1" }),
      stdio: ["pipe", "ignore", "ignore"],
    });
    const closed = new Promise((resolve) => server.on("close", resolve));
    try {
      const written = () => files().filter((f) => /^program\.serve-[0-9a-f]{16}\.v8$/.test(f));
      const deadline = Date.now() + 30_000;
      while (!written().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(written()).toHaveLength(1);
      expect(server.exitCode).toBeNull();
    } finally {
      server.kill("SIGTERM");
      await closed;
    }
  }, 60_000);

  it("compiles a bundle rewritten at the same length afresh, never with the old one's code", () => {
    // V8 checks only the length of the text it is given cached code for: the cache's own key must
    // tell the two apart. A copy of the build, outside the package, answers --version with its fallback.
    const build = join(tmp, "build");
    cpSync(join(import.meta.dirname, "..", "..", "dist"), join(build, "dist"), { recursive: true });
    symlinkSync(join(import.meta.dirname, "..", "..", "node_modules"), join(build, "node_modules"));
    const version = () => {
      const r = spawnSync(process.execPath, [join(build, "dist", "cli", "main.js"), "--version"], {
        env: debugEnv(),
        encoding: "utf8",
        timeout: 30_000,
      });
      return { out: r.stdout.trim(), ...states(r.stderr) };
    };
    expect(version()).toEqual({ out: "0.0.0", program: "none" });
    expect(version()).toEqual({ out: "0.0.0", program: "used" });
    const program = join(build, "dist", "cli", "program.js");
    const text = readFileSync(program, "utf8");
    expect(text.split('version = "0.0.0";')).toHaveLength(2);
    writeFileSync(program, text.replace('version = "0.0.0";', 'version = "9.9.9";'));
    expect(version()).toEqual({ out: "9.9.9", program: "none" });
  });

  it("refuses cached code that is not V8's, rewrites it, and answers as without", async () => {
    await run(["status", "--path", repo.dir], { env: env() });
    const [written] = files();
    writeFileSync(join(cacheDir, written!), Buffer.alloc(4096, 7));

    const refused = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(states(refused.stderr)).toEqual({ program: "refused" });
    expect(refused.stderr).toContain("No index");
    const next = await run(["status", "--path", repo.dir], { env: debugEnv() });
    expect(states(next.stderr)).toEqual({ program: "used" });
  });

  it("runs uncached where the folder cannot be made or is not a folder of ours", async () => {
    // A temporary folder that does not exist, under /proc (where Node's recursive mkdir never returns).
    const missing = await run(["--version"], {
      env: env({ TMPDIR: "/proc/codegraph-no-such-folder", CODEGRAPH_DEBUG_COMPILE_CACHE: "1" }),
      timeoutMs: 20_000,
    });
    expect(missing.code).toBe(0);
    expect(states(missing.stderr)).toEqual({});
    // A symbolic link in its place, to a folder that is ours: not followed.
    const elsewhere = join(tmp, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, cacheDir);
    const linked = await run(["--version"], { env: debugEnv() });
    expect(linked.code).toBe(0);
    expect(states(linked.stderr)).toEqual({});
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("caches nothing in a folder others may write to, or when NODE_DISABLE_COMPILE_CACHE is set", async () => {
    mkdirSync(cacheDir, { mode: 0o700 });
    chmodSync(cacheDir, 0o777);
    const shared = await run(["--version"], { env: debugEnv() });
    expect(shared.code).toBe(0);
    expect(states(shared.stderr)).toEqual({});
    expect(files()).toEqual([]);

    rmSync(cacheDir, { recursive: true });
    const disabled = await run(["--version"], {
      env: env({ NODE_DISABLE_COMPILE_CACHE: "1", CODEGRAPH_DEBUG_COMPILE_CACHE: "1" }),
    });
    expect(disabled.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(states(disabled.stderr)).toEqual({});
    expect(existsSync(cacheDir)).toBe(false);
  });
});
