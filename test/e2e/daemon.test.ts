import { spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, run, tempRepo } from "../helpers/cli.js";
import { removeIndexFolder } from "../helpers/remove-index.js";
import { RawServer, connectClient, initializeParams, textOf, type RawReply } from "../helpers/mcp.js";
import { WORKERS_FROM_BYTES } from "../../src/indexer/pool.js";

// The shared daemon as real processes: started by `serve --mcp`, shared by clients, surviving
// `kill -9` without `unlock`, leaving when idle or when its host dies, one writer per project.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");

/** Pids of live `codegraph daemon --path <dir>` processes. */
function daemonsOf(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (/^\d+ \(.*\) Z/.test(stat)) continue;
      if (args.includes("daemon") && args[args.indexOf("--path") + 1] === dir) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** The processes whose parent is `pid`, with their state ("Z" for a zombie). */
function childrenOf(pid: number): string[] {
  const out: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid)
        out.push(`${name} ${stat.slice(stat.indexOf("("), stat.lastIndexOf(")") + 1)} ${fields[0]}`);
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Polls until `probe` gives a truthy value, and returns it (an empty array is truthy: ask for an element). */
async function until<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kill every daemon of the test's project, and wait until they are gone. */
async function stopDaemons(): Promise<void> {
  for (const pid of daemonsOf(repo.dir)) process.kill(pid, "SIGKILL");
  await until("no daemon", () => daemonsOf(repo.dir).length === 0);
}

let repo: ReturnType<typeof tempRepo>;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  repo = tempRepo(FIXTURE);
  expect((await run(["init", repo.dir])).code).toBe(0);
}, 60_000);
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  for (const pid of daemonsOf(repo.dir)) process.kill(pid, "SIGKILL");
  repo.cleanup();
});

const search = async (c: Awaited<ReturnType<typeof connectClient>>, query: string) =>
  textOf(await c.client.callTool({ name: "codegraph_search", arguments: { query } }));

async function client(env: Record<string, string> = {}, args: string[] = []) {
  const c = await connectClient({ cwd: repo.dir, env, args });
  cleanups.push(c.close);
  return c;
}

describe("one daemon per project", () => {
  it("is started by the first client and shared by the second", async () => {
    const a = await client();
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    const [pid] = await until("a daemon", () => (daemonsOf(repo.dir).length === 1 ? daemonsOf(repo.dir) : null));
    const b = await client();
    expect(await search(b, "greet")).toContain("lib/strings/join.ts:6");
    expect(daemonsOf(repo.dir)).toEqual([pid]);
    const info = JSON.parse(readFileSync(join(repo.dir, ".codegraph", "writer.pid"), "utf8")) as {
      pid: number;
      mode: string;
    };
    expect(info).toMatchObject({ pid, mode: "daemon" });
    expect(existsSync(join(repo.dir, ".codegraph", "daemon.sock"))).toBe(true);
    // Watching, it has no child process left behind (a zombie, as its watcher's probe for watchman was).
    expect(childrenOf(pid!)).toEqual([]);
  });

  it("answers concurrent calls on its read workers as it answers them one by one", async () => {
    const a = await client();
    const calls: [string, Record<string, unknown>][] = [
      ["codegraph_search", { query: "twice" }],
      ["codegraph_search", { query: "greet" }],
      ["codegraph_callers", { symbol: "twice" }],
      ["codegraph_node", { symbol: "greet" }],
      ["codegraph_explore", { query: "how is a greeting joined" }],
      ["codegraph_node", { symbol: "no_such_symbol_anywhere" }],
    ];
    const ask = async ([name, args]: (typeof calls)[number]) =>
      textOf(await a.client.callTool({ name, arguments: args }));
    const alone: string[] = [];
    for (const c of calls) alone.push(await ask(c));
    expect(alone[0]).toContain("src/math.ts:6");
    const together = await Promise.all([...calls, ...calls, ...calls].map(ask));
    expect(together).toEqual([...alone, ...alone, ...alone]);
  });

  it("survives kill -9: the next call is served by a new daemon, with no unlock", async () => {
    const a = await client();
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    const old = await until("a daemon", () => daemonsOf(repo.dir)[0]);
    process.kill(old!, "SIGKILL");
    await until("the daemon to die", () => !daemonsOf(repo.dir).includes(old!));
    // The same session goes on: its proxy starts a new daemon and replays the handshake.
    expect(await search(a, "greet")).toContain("lib/strings/join.ts:6");
    const b = await client();
    expect(await search(b, "twice")).toContain("src/math.ts:6");
    const now = daemonsOf(repo.dir);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(old);
  });

  it("exits after the idle timeout once its clients are gone", async () => {
    await stopDaemons();
    const a = await connectClient({ cwd: repo.dir, env: { CODEGRAPH_DAEMON_IDLE_TIMEOUT_MS: "300" } });
    await search(a, "twice");
    const pid = await until("a daemon", () => daemonsOf(repo.dir)[0]);
    await a.close();
    await until("the idle daemon to exit", () => !daemonsOf(repo.dir).includes(pid!));
    const log = readFileSync(join(repo.dir, ".codegraph", "daemon.log"), "utf8");
    expect(log).toMatch(/exiting: idle/);
  });

  it("exits when its host dies, even with a long idle timeout", async () => {
    await stopDaemons();
    // A host (an agent) that runs `serve --mcp` as its child, talks to it, and is then killed.
    const host = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").spawn(process.execPath, [${JSON.stringify(CLI)}, "serve", "--mcp"], { stdio: ["pipe", "inherit", "inherit"] });
         c.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: ${JSON.stringify(initializeParams("2025-06-18"))} }) + "\\n");
         setInterval(() => {}, 1000);`,
      ],
      {
        cwd: repo.dir,
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, CODEGRAPH_DAEMON_IDLE_TIMEOUT_MS: "600000", CODEGRAPH_HOST_CHECK_MS: "100" },
      },
    );
    cleanups.push(() => host.kill("SIGKILL"));
    await new Promise<void>((resolve) => host.stdout.once("data", () => resolve()));
    const pid = await until("a daemon", () => daemonsOf(repo.dir)[0]);
    // writer.pid names the daemon's host once the daemon holds the lock.
    await until("writer.pid to name the host", () => {
      // The lock creates the file empty, then writes its record: read mid-way, it is not there yet.
      const file = join(repo.dir, ".codegraph", "writer.pid");
      const text = existsSync(file) ? readFileSync(file, "utf8") : "";
      if (!text.trim()) return false;
      const info = JSON.parse(text) as { host: number; pid: number };
      return info.pid === pid && info.host === host.pid;
    });
    host.kill("SIGKILL");
    await until("the daemon to follow its host", () => !daemonsOf(repo.dir).includes(pid!));
  });
});

describe("a daemon started with --no-watch", () => {
  it("starts watching when a client that wants later saves watched attaches", async () => {
    await stopDaemons();
    const quiet = await client({}, ["--no-watch"]);
    expect(await search(quiet, "twice")).toContain("src/math.ts:6");
    const pid = await until("its daemon", () => daemonsOf(repo.dir)[0]);
    expect(textOf(await quiet.client.callTool({ name: "codegraph_status", arguments: {} }))).toMatch(/Auto-sync: off/);
    const watching = await client();
    expect(await search(watching, "twice")).toContain("src/math.ts:6");
    writeFileSync(join(repo.dir, "src", "watched.ts"), "export function seenOnceWatched() {}\n");
    cleanups.push(() => rmSync(join(repo.dir, "src", "watched.ts"), { force: true }));
    await until("the save, in the index", async () =>
      (await search(watching, "seenOnceWatched")).includes("src/watched.ts"),
    );
    expect(daemonsOf(repo.dir)).toEqual([pid]);
    expect(textOf(await watching.client.callTool({ name: "codegraph_status", arguments: {} }))).toMatch(
      /Auto-sync: ok/,
    );
  });
});

describe("writers", () => {
  it("a second direct writer exits non-zero and says what to do", async () => {
    await stopDaemons();
    const first = new RawServer({ cwd: repo.dir, env: { CODEGRAPH_NO_DAEMON: "1" } });
    cleanups.push(() => first.close());
    await first.request(1, "initialize", initializeParams("2025-06-18"));
    const second = new RawServer({ cwd: repo.dir, env: { CODEGRAPH_NO_DAEMON: "1" } });
    const code = await new Promise<number | null>((resolve) => second.child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(second.stderr).toMatch(/already writes .*Unset CODEGRAPH_NO_DAEMON/s);
    // The foreground writer still serves, and no daemon was started.
    const r = await first.request(2, "tools/call", { name: "codegraph_search", arguments: { query: "twice" } });
    expect(JSON.stringify(r.result)).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toEqual([]);
  });

  it("a daemon cannot start while a foreground writer holds the lock", async () => {
    const first = new RawServer({ cwd: repo.dir, env: { CODEGRAPH_NO_DAEMON: "1" } });
    cleanups.push(() => first.close());
    await first.request(1, "initialize", initializeParams("2025-06-18"));
    const r = await run(["daemon", "--path", repo.dir, "--host-pid", String(process.pid)]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo.dir, ".codegraph", "daemon.log"), "utf8")).toMatch(
      /another process holds the writer lock/,
    );
  });
});

describe("beside a foreground writer", () => {
  it("a client in daemon mode is answered from the index that writer keeps, which follows edits", async () => {
    await stopDaemons();
    const writer = new RawServer({
      cwd: repo.dir,
      env: { CODEGRAPH_NO_DAEMON: "1", CODEGRAPH_WATCH_DEBOUNCE_MS: "100" },
    });
    cleanups.push(() => writer.close());
    await writer.request(1, "initialize", initializeParams("2025-06-18"));
    await writer.request(2, "tools/call", { name: "codegraph_search", arguments: { query: "twice" } });

    // As the reference advises, the other client leaves daemon mode on. No daemon can take the lock.
    const reader = new RawServer({ cwd: repo.dir });
    cleanups.push(() => reader.close());
    await reader.request(1, "initialize", initializeParams("2025-06-18"));
    reader.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const listed = await reader.request(2, "tools/list", {});
    expect(JSON.stringify(listed.result)).toContain("codegraph_search");
    const found = await reader.request(3, "tools/call", { name: "codegraph_search", arguments: { query: "twice" } });
    expect(JSON.stringify(found.result)).toContain("src/math.ts:6");
    expect(reader.stderr).toMatch(
      /a foreground codegraph server \(CODEGRAPH_NO_DAEMON=1, pid \d+\) is this project's writer/,
    );
    expect(daemonsOf(repo.dir)).toEqual([]);
    // So is a call naming the project from a session with no project of its own.
    const elsewhere = tempRepo();
    cleanups.push(() => elsewhere.cleanup());
    const c = await connectClient({ cwd: elsewhere.dir });
    cleanups.push(c.close);
    const named = await c.client.callTool({
      name: "codegraph_search",
      arguments: { query: "twice", projectPath: repo.dir },
    });
    expect(textOf(named)).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toEqual([]);

    // The writer's watcher syncs an edit; the reader sees it in the index.
    writeFileSync(join(repo.dir, "src", "late.ts"), "export function lateArrival(): number {\n  return 3;\n}\n");
    cleanups.push(() => rmSync(join(repo.dir, "src", "late.ts")));
    let seen = false;
    for (let id = 10; !seen && id < 200; id++) {
      const r = await reader.request(id, "tools/call", {
        name: "codegraph_search",
        arguments: { query: "lateArrival" },
      });
      seen = JSON.stringify(r.result).includes("src/late.ts:1");
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toBe(true);

    // The writer exits: the reader's session goes to the project's daemon, which watches again.
    expect(await writer.close()).toBe(0);
    await until("the project's daemon", () => daemonsOf(repo.dir)[0]);
    writeFileSync(join(repo.dir, "src", "later.ts"), "export function afterTheWriter(): number {\n  return 4;\n}\n");
    cleanups.push(() => rmSync(join(repo.dir, "src", "later.ts")));
    let id = 300;
    await until("the save after the writer left", async () => {
      const r = await reader.request(id++, "tools/call", {
        name: "codegraph_search",
        arguments: { query: "afterTheWriter" },
      });
      return JSON.stringify(r.result).includes("src/later.ts:1");
    });
    expect(reader.stderr).toMatch(/the foreground server is gone; starting the project's daemon/);
  });
});

describe("the home guard", () => {
  it("never starts a daemon for $HOME, even when it is indexed", async () => {
    await stopDaemons();
    const c = await client({ HOME: repo.dir });
    expect(await search(c, "twice")).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toEqual([]);
  });
});

describe("a daemon that cannot start", () => {
  it("is reported with the reason from its log, not after the start-up timeout", async () => {
    const other = tempRepo(FIXTURE);
    cleanups.push(() => other.cleanup());
    expect((await run(["init", other.dir])).code).toBe(0);
    mkdirSync(join(other.dir, ".codegraph", "writer.pid")); // a folder: the lock's file cannot be made
    const c = await connectClient({ cwd: other.dir });
    cleanups.push(c.close);
    await expect(c.client.callTool({ name: "codegraph_search", arguments: { query: "twice" } })).rejects.toThrow();
    expect(c.stderr()).toMatch(/daemon for .* could not start: .*cannot start: EISDIR.*writer\.pid/);
  });
});

describe("explicit projects", () => {
  it("a call naming a project starts its daemon, keeps it, and re-attaches after a rebuild", async () => {
    await stopDaemons();
    const elsewhere = tempRepo(); // not a project: no default
    cleanups.push(() => elsewhere.cleanup());
    const c = await connectClient({ cwd: elsewhere.dir });
    cleanups.push(c.close);
    const call = async () =>
      textOf(
        await c.client.callTool({ name: "codegraph_search", arguments: { query: "twice", projectPath: repo.dir } }),
      );
    expect(await call()).toContain("src/math.ts:6");
    const pid = await until("the project's daemon", () => daemonsOf(repo.dir)[0]);
    expect(await call()).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toEqual([pid]);
    // A rebuilt index is a new file: the session lets go of the old connection and attaches again.
    expect((await run(["init", "--force", repo.dir])).code).toBe(0);
    expect(await call()).toContain("src/math.ts:6");
  });
});

describe("explicit projects from a project's own session", () => {
  it("a call naming another project is kept live by that project's daemon, with its own health", async () => {
    const other = tempRepo(FIXTURE);
    cleanups.push(() => {
      for (const pid of daemonsOf(other.dir)) process.kill(pid, "SIGKILL");
      other.cleanup();
    });
    expect((await run(["init", other.dir])).code).toBe(0);
    const c = await client(); // in repo: its daemon serves this session
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf(await c.client.callTool({ name, arguments: { ...args, projectPath: other.dir } }));
    expect(await call("codegraph_search", { query: "twice" })).toContain("src/math.ts:6");
    const pid = await until("the other project's daemon", () => daemonsOf(other.dir)[0]);
    writeFileSync(join(other.dir, "src", "late.ts"), "export function savedInTheOtherProject() {}\n");
    await until("the save, through that daemon", async () =>
      (await call("codegraph_search", { query: "savedInTheOtherProject" })).includes("src/late.ts"),
    );
    expect(daemonsOf(other.dir)).toEqual([pid]);
    expect(await call("codegraph_status", {})).toMatch(/Auto-sync: ok/);
    await c.close();
  });
});

describe("sessions on one daemon", () => {
  it("serve clients on different protocol revisions side by side", async () => {
    const legacy = new RawServer({ cwd: repo.dir });
    const modern = new RawServer({ cwd: repo.dir });
    cleanups.push(
      () => legacy.close(),
      () => modern.close(),
    );
    const init = await legacy.request(1, "initialize", initializeParams("2025-03-26"));
    expect(init.result?.protocolVersion).toBe("2025-03-26");
    legacy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const m = await modern.request(1, "tools/call", {
      name: "codegraph_search",
      arguments: { query: "twice" },
      _meta: meta,
    });
    const l = await legacy.request(2, "tools/call", { name: "codegraph_search", arguments: { query: "twice" } });
    expect(m.result?.resultType).toBe("complete");
    expect(l.result).not.toHaveProperty("resultType");
    expect(JSON.stringify(m.result)).toContain("src/math.ts:6");
    expect(JSON.stringify(l.result)).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toHaveLength(1);
  });

  it("a project the client names through roots is served by that project's daemon", async () => {
    await stopDaemons();
    const elsewhere = tempRepo();
    cleanups.push(() => elsewhere.cleanup());
    const c = await connectClient({ cwd: elsewhere.dir, roots: [pathToFileURL(repo.dir).href] });
    cleanups.push(c.close);
    expect(await search(c, "twice")).toContain("src/math.ts:6");
    await until("the project's daemon", () => daemonsOf(repo.dir).length === 1);
  });
});

describe("socket paths", () => {
  it("a project whose path is too long for a Unix socket gets a short one under the temp dir", async () => {
    const outer = tempRepo();
    cleanups.push(() => outer.cleanup());
    const deep = join(
      outer.dir,
      "a-rather-long-folder-name-to-push-the-path",
      "past-the-unix-socket-limit-of-about-100-bytes",
    );
    mkdirSync(deep, { recursive: true });
    cpSync(FIXTURE, deep, { recursive: true });
    expect((await run(["init", deep])).code).toBe(0);
    const c = await connectClient({ cwd: deep });
    cleanups.push(c.close);
    expect(await search(c, "twice")).toContain("src/math.ts:6");
    expect(existsSync(join(deep, ".codegraph", "daemon.sock"))).toBe(false);
    const log = readFileSync(join(deep, ".codegraph", "daemon.log"), "utf8");
    const own = join(tmpdir(), `codegraph-sockets-${process.getuid!()}`);
    expect(log).toContain(`on ${own}/`);
    expect(statSync(own).mode & 0o777).toBe(0o700);
    await c.close(); // else its proxy starts the daemon again
    for (const pid of daemonsOf(deep)) process.kill(pid, "SIGKILL");
    await until("no daemon", () => daemonsOf(deep).length === 0);

    // A folder of that name that others may write to (another user's) is not used: the home's is.
    const scratch = tempRepo();
    cleanups.push(() => scratch.cleanup());
    const shared = join(scratch.dir, "tmp");
    mkdirSync(join(shared, `codegraph-sockets-${process.getuid!()}`), { recursive: true });
    chmodSync(join(shared, `codegraph-sockets-${process.getuid!()}`), 0o777);
    const home = join(scratch.dir, "home");
    mkdirSync(home);
    const d = await connectClient({ cwd: deep, env: { TMPDIR: shared, HOME: home } });
    cleanups.push(d.close);
    expect(await search(d, "twice")).toContain("src/math.ts:6");
    const again = readFileSync(join(deep, ".codegraph", "daemon.log"), "utf8");
    expect(again).toContain(`on ${join(home, ".codegraph", "run")}/`);
    expect(readdirSync(join(shared, `codegraph-sockets-${process.getuid!()}`))).toEqual([]);
    for (const pid of daemonsOf(deep)) process.kill(pid, "SIGKILL");
  });
});

describe("catching up", () => {
  it("parses a large batch of changes on worker threads from the daemon's own bundle", async () => {
    // From WORKERS_FROM_BYTES of changed source the sync uses parse workers; the daemon runs from a
    // bundle one folder below the CLI's, and once looked for the worker beside itself.
    const big = tempRepo(FIXTURE);
    cleanups.push(() => {
      for (const pid of daemonsOf(big.dir)) process.kill(pid, "SIGKILL");
      big.cleanup();
    });
    expect((await run(["init", big.dir])).code).toBe(0);
    mkdirSync(join(big.dir, "src", "many"));
    const padding = `// ${"x".repeat(WORKERS_FROM_BYTES / 50)}\n`;
    for (let i = 0; i < 60; i++) {
      writeFileSync(
        join(big.dir, "src", "many", `m${i}.ts`),
        `${padding}export function caughtUp${i}(): number {\n  return ${i};\n}\n`,
      );
    }
    const c = await connectClient({ cwd: big.dir });
    cleanups.push(c.close);
    const found = textOf(await c.client.callTool({ name: "codegraph_search", arguments: { query: "caughtUp59" } }));
    expect(found).toContain("src/many/m59.ts:2");
    expect(readFileSync(join(big.dir, ".codegraph", "daemon.log"), "utf8")).not.toMatch(/Cannot find module/);
  });
});

describe("the proxy's input", () => {
  it("answers a line past 4 MiB itself, before the line ends, forwards none of it, and the session goes on", async () => {
    const s = new RawServer({ cwd: repo.dir });
    cleanups.push(() => s.close());
    await s.request(1, "initialize", initializeParams("2025-06-18"));
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const tooLarge = (r: RawReply) =>
      r.id === null &&
      r.error?.code === -32600 &&
      r.error.message === "Request too large: a message may be at most 4194304 bytes.";
    // 6 MiB and no newline yet: only a reader that stops at the limit can answer now, not at the line's end.
    s.child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${"x".repeat(6 * 1024 * 1024)}`);
    await s.waitFor(tooLarge);
    s.send(`${"y".repeat(64 * 1024)}"}}`); // the rest of that line, dropped with it
    // One that comes whole, in one write with its newline.
    s.send(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${"z".repeat(6 * 1024 * 1024)}"}}`);
    const found = await s.request(4, "tools/call", { name: "codegraph_search", arguments: { query: "twice" } });
    expect(JSON.stringify(found.result)).toContain("src/math.ts:6");
    expect(s.replies.filter(tooLarge)).toHaveLength(2);
    // Nothing of either line reached the daemon: no answer to their ids, no parse error for a tail.
    expect(s.replies.filter((r) => r.error && !tooLarge(r))).toEqual([]);
    expect(s.replies.map((r) => r.id)).toEqual([1, null, null, 4]);
  });
});

describe("an index folder removed under a running daemon", () => {
  const log = () => readFileSync(join(repo.dir, ".codegraph", "daemon.log"), "utf8");

  it("removed and made again (git clean -fdx, then init): the old daemon exits, and new sessions start one", async () => {
    await stopDaemons();
    const a = await client({ CODEGRAPH_HOST_CHECK_MS: "100" });
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    const old = await until("a daemon", () => daemonsOf(repo.dir)[0]);

    // Held still meanwhile, so that it finds the new folder, not the gap between the two commands.
    process.kill(old!, "SIGSTOP");
    try {
      rmSync(join(repo.dir, ".codegraph"), { recursive: true, force: true });
      expect((await run(["init", repo.dir])).code).toBe(0);
    } finally {
      process.kill(old!, "SIGCONT");
    }
    // It held the writer lock, named after the path the new folder has too: while it ran, no daemon could start.
    await until("the old daemon to exit", () => !daemonsOf(repo.dir).includes(old!));
    expect(log()).toMatch(new RegExp(`\\[${old}\\] exiting: \\S+\\.codegraph was replaced by another folder`));

    const b = await client();
    expect(await search(b, "greet")).toContain("lib/strings/join.ts:6");
    // The session open all along is served too, by the same new daemon.
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    // Its proxy reconnects as soon as the old daemon goes, so it and the new client may each start a
    // daemon; the one that finds the writer lock taken exits by itself, on a loaded machine only after
    // both answers.
    const now = await until("one daemon", () => {
      const pids = daemonsOf(repo.dir);
      return pids.length === 1 && pids;
    });
    expect(now[0]).not.toBe(old);
  });

  it("while there is no index, a session says so and starts no daemon; after init it is served again", async () => {
    await stopDaemons();
    const a = await client({ CODEGRAPH_HOST_CHECK_MS: "100" });
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    const old = await until("a daemon", () => daemonsOf(repo.dir)[0]);

    removeIndexFolder(repo.dir);
    await until("the old daemon to exit", () => !daemonsOf(repo.dir).includes(old!));
    const answer = await a.client.callTool({ name: "codegraph_search", arguments: { query: "twice" } });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(
      /^Error: No index at \S+\/\.codegraph\/graph\.db\. Run `codegraph init` in the project first\.$/,
    );
    expect(a.stderr()).toMatch(/no index at \S+graph\.db \(was \.codegraph removed\?\)/);
    // No daemon was started for it, and nothing made the folder again.
    expect(daemonsOf(repo.dir)).toEqual([]);
    expect(existsSync(join(repo.dir, ".codegraph"))).toBe(false);

    expect((await run(["init", repo.dir])).code).toBe(0);
    await until("the session's daemon", () => daemonsOf(repo.dir)[0]);
    expect(await search(a, "twice")).toContain("src/math.ts:6");
    const b = await client();
    expect(await search(b, "greet")).toContain("lib/strings/join.ts:6");
    expect(daemonsOf(repo.dir)).toHaveLength(1);
  });
});

describe("a daemon on its way out", () => {
  it("holding the lock when a session's new daemon starts, is waited for, and another daemon is started", async () => {
    await stopDaemons();
    // A process that holds the daemon's writer lock and serves no socket, as a daemon that closed its
    // connections and has not yet let go of the lock does, until the test lets it go.
    const kernelLock = join(import.meta.dirname, "..", "..", "dist", "daemon", "kernel-lock.js");
    const script = `import { acquireWriterLock } from ${JSON.stringify(kernelLock)};
      const lock = await acquireWriterLock(${JSON.stringify(repo.dir)}, { version: "test", mode: "daemon", host: null });
      console.log(lock ? "locked" : "not locked");
      process.stdin.resume();
      process.stdin.on("end", () => lock.release().then(() => process.exit(0)));`;
    const holder = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    cleanups.push(() => holder.kill("SIGKILL"));
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const log = join(repo.dir, ".codegraph", "daemon.log");
    const refusals = () => (existsSync(log) ? readFileSync(log, "utf8").split("this daemon is not needed").length : 0);
    const before = refusals();

    const s = new RawServer({ cwd: repo.dir });
    cleanups.push(() => s.close());
    await s.request(1, "initialize", initializeParams("2025-06-18"));
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    s.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "codegraph_search", arguments: { query: "twice" } },
    });
    await until("the session's daemon to find the lock held", () => refusals() > before);
    holder.stdin.end();
    const answer = await s.waitFor((r) => r.id === 2);
    expect(JSON.stringify(answer.result)).toContain("src/math.ts:6");
    expect(daemonsOf(repo.dir)).toHaveLength(1);
  });
});

describe("explicit projects, when their daemon dies", () => {
  it("a call waiting on a daemon that is killed is answered through a new one", async () => {
    await stopDaemons();
    const elsewhere = tempRepo(); // not a project: no default
    cleanups.push(() => elsewhere.cleanup());
    const c = await connectClient({ cwd: elsewhere.dir });
    cleanups.push(c.close);
    const call = () =>
      c.client.callTool({ name: "codegraph_search", arguments: { query: "twice", projectPath: repo.dir } });
    expect(textOf(await call())).toContain("src/math.ts:6");
    const pid = await until("the project's daemon", () => daemonsOf(repo.dir)[0]);
    // A save makes the daemon say its last answer no longer holds, so the next call must ask it.
    writeFileSync(join(repo.dir, "src", "touched.ts"), "export const touched = 1;\n");
    cleanups.push(() => rmSync(join(repo.dir, "src", "touched.ts"), { force: true }));
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(pid, "SIGSTOP"); // it cannot answer: the call waits on it
    const pending = call();
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, "SIGKILL");
    const answer = await pending;
    expect(answer.isError ?? false).toBe(false);
    expect(textOf(answer)).toContain("src/math.ts:6");
    const next = await until("a new daemon", () => daemonsOf(repo.dir).find((p) => p !== pid));
    expect(next).not.toBe(pid);
  });
});

describe("explicit projects, when the client leaves", () => {
  it("the session exits once stdin ends, and lets go of the daemons it attached, which then idle out", async () => {
    await stopDaemons();
    const elsewhere = tempRepo(); // not a project: no default
    cleanups.push(() => elsewhere.cleanup());
    const s = new RawServer({ cwd: elsewhere.dir, env: { CODEGRAPH_DAEMON_IDLE_TIMEOUT_MS: "300" } });
    await s.request(1, "initialize", initializeParams("2025-06-18"));
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const reply = await s.request(2, "tools/call", {
      name: "codegraph_search",
      arguments: { query: "twice", projectPath: repo.dir },
    });
    expect(JSON.stringify(reply.result)).toContain("src/math.ts:6");
    const pid = await until("the project's daemon", () => daemonsOf(repo.dir)[0]);
    expect(await s.close()).toBe(0); // a held daemon connection kept it alive until killed (null)
    await until("the idle daemon to exit", () => !daemonsOf(repo.dir).includes(pid));
  });
});
