#!/usr/bin/env node
// Daemon benchmark: `npm run bench -- --daemon` (or node bench/daemon.mjs).
//
//   node bench/daemon.mjs [--repo django] [--tier medium] [--saves 5] [--idle 60] [--no-peer]
//
// On one corpus repo, ours and @colbymchenry/codegraph side by side, each through its own
// `serve --mcp` (and the daemon that starts):
//   - save → query: append a new function to a source file, then ask codegraph_search for it until
//     an answer names it; the time from the write (median of --saves). Ours at the default debounce
//     and at CODEGRAPH_WATCH_DEBOUNCE_MS=200; the peer at its default.
//   - idle: the daemon's CPU over --idle seconds with one client attached and nothing happening, and
//     its RSS next to the size of the index.
//   - first client: with no daemon running, a new `serve --mcp` from spawn to its first search answer
//     (the daemon's start and catch-up included), median of 5, the tools interleaved;
//   - second client: with the daemon running, a new `serve --mcp` from spawn to its first search answer.
// Writes bench/results/<date>-daemon-<repo>.md.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { INIT, prepareCopy, startServer } from "./lib/mcp-session.mjs";
import { measuredEnv, median } from "./lib/measure.mjs";
import { stopColbyDaemon } from "./lib/peer-daemon.mjs";
import { parsePeersOutput, peerEnv } from "./lib/tools.mjs";
import { optionReader } from "./lib/args.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");
const MAIN = join(ROOT, "dist", "cli", "main.js");

const args = process.argv.slice(2);
const opt = optionReader(args);
const repo = opt("repo", "django");
const tier = opt("tier", "medium");
const saves = Number(opt("saves", "5"));
const idleSeconds = Number(opt("idle", "60"));
const withPeer = !args.includes("--no-peer");
/** The file edited in each save, and a symbol that exists from the start (for the attach timing). */
const TARGETS = {
  django: { file: "django/utils/text.py", known: "capfirst" },
  "go-stdlib": { file: "src/strings/strings.go", known: "TrimSpace" },
};
/** A new function in the target file's language. */
const probe = (file, name, i) =>
  file.endsWith(".go") ? `\n\nfunc ${name}() int {\n\treturn ${i}\n}\n` : `\n\ndef ${name}():\n    return ${i}\n`;
const target = TARGETS[repo] ?? { file: null, known: "main" };

const log = (m) => process.stderr.write(`[bench:daemon] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** Pids of processes whose command line mentions `dir` and looks like a daemon (ours or the peer's). */
function daemonPids(dir) {
  const out = [];
  for (const n of readdirSync("/proc")) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const argv = readFileSync(`/proc/${n}/cmdline`, "utf8").split("\0");
      if (argv.includes(dir) && argv.some((a) => /daemon/.test(a))) out.push(Number(n));
    } catch {
      // gone
    }
  }
  return out;
}

function cpuTicks(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(f[11]) + Number(f[12]); // utime + stime, after the command name
}
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

function indexMiB(dir) {
  let total = 0;
  for (const f of ["graph.db", "graph.db-wal", "codegraph.db", "codegraph.db-wal"]) {
    const p = join(dir, ".codegraph", f);
    if (existsSync(p)) total += statSync(p).size;
  }
  return total / 1024 / 1024;
}

async function session(tool, env) {
  const s = startServer(tool.cmd, tool.args, tool.dir, env);
  await s.request("initialize", INIT);
  s.notify("notifications/initialized");
  const search = async (query) => {
    const r = await s.request("tools/call", { name: "codegraph_search", arguments: { query } });
    return JSON.stringify(r.result?.content ?? r.error ?? "");
  };
  return { s, search };
}

async function saveToQuery(tool, env, label) {
  const { s, search } = await session(tool, env);
  await search(target.known); // the catch-up is done before the first answer
  const file = join(tool.dir, target.file);
  const original = readFileSync(file, "utf8");
  const times = [];
  try {
    for (let i = 0; i < saves; i++) {
      const name = `codegraph_probe_${label.replace(/\W/g, "_")}_${i}_${Date.now() % 100000}`;
      appendFileSync(file, probe(target.file, name, i));
      const t0 = performance.now();
      for (;;) {
        const answer = await search(name);
        if (answer.includes(name) && answer.includes(target.file)) break;
        if (performance.now() - t0 > 30_000) break;
        await sleep(20);
      }
      times.push(performance.now() - t0);
      await sleep(500);
    }
  } finally {
    writeFileSync(file, original);
  }
  s.stop();
  return times;
}

/** A new `serve --mcp`, from its spawn to its first search answer. */
async function spawnToAnswer(tool, env) {
  const t0 = performance.now();
  const { s, search } = await session(tool, env);
  await search(target.known);
  const ms = performance.now() - t0;
  s.stop();
  return ms;
}

function stopDaemons(dir) {
  for (const pid of daemonPids(dir)) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

/** Stop the daemon the tool started for its copy, and wait until it is gone. */
async function stopDaemon(t) {
  if (t.name !== "ours") return stopColbyDaemon(t.dir);
  stopDaemons(t.dir);
  for (let waited = 0; daemonPids(t.dir).length && waited < 5000; waited += 20) await sleep(20);
}

/** With no daemon running: spawn to the first answer, the daemon's start and catch-up included. */
async function firstClient(t) {
  await stopDaemon(t);
  const ms = await spawnToAnswer(t, t.env);
  await stopDaemon(t);
  return ms;
}

async function main() {
  if (!target.file) throw new Error(`no edit target for ${repo}; add it to TARGETS in bench/daemon.mjs`);
  const env = measuredEnv();
  const tools = [];
  const ours = prepareCopy({
    work: WORK,
    tier,
    repo,
    name: "daemon-ours",
    initCmd: (d) => [process.execPath, [MAIN, "init", d]],
    env,
    log,
  });
  tools.push({ name: "ours", cmd: process.execPath, args: [MAIN, "serve", "--mcp"], dir: ours, env });
  if (withPeer) {
    const peers = parsePeersOutput(
      spawnSync("/work/shared/bench/peers.sh", [join(WORK, "peers")], { encoding: "utf8" }).stdout ?? "",
    );
    if (peers.colby) {
      const penv = peerEnv(join(WORK, "peers", "home"));
      const dir = prepareCopy({
        work: WORK,
        tier,
        repo,
        name: "daemon-colby",
        initCmd: (d) => [peers.colby.cli, ["init", "-y", d]],
        env: penv,
        log,
      });
      tools.push({
        name: "colby",
        cmd: peers.colby.cli,
        args: ["serve", "--mcp"],
        dir,
        env: penv,
        version: peers.colby.version,
      });
    }
  }
  const results = Object.fromEntries(tools.map((t) => [t.name, {}]));
  log("first client, no daemon running");
  const first = Object.fromEntries(tools.map((t) => [t.name, []]));
  for (let i = 0; i < 5; i++) for (const t of tools) first[t.name].push(await firstClient(t));
  for (const t of tools) results[t.name].first = median(first[t.name]);
  for (const t of tools) {
    const runs =
      t.name === "ours"
        ? [
            ["default", {}],
            ["200 ms", { CODEGRAPH_WATCH_DEBOUNCE_MS: "200" }],
          ]
        : [["default", {}]];
    for (const [label, extra] of runs) {
      log(`${t.name}: save → query, debounce ${label}`);
      results[t.name][`save ${label}`] = median(await saveToQuery(t, { ...t.env, ...extra }, `${t.name}${label}`));
      await stopDaemon(t);
      await sleep(500);
    }
  }
  // Idle: one client each, attached, nothing happening, both measured over the same window.
  log(`idle for ${idleSeconds} s`);
  const idle = [];
  for (const t of tools) {
    const sess = await session(t, t.env);
    await sess.search(target.known);
    await sleep(1000);
    const pid = daemonPids(t.dir)[0] ?? sess.s.child.pid;
    idle.push({ t, sess, pid, ticks: cpuTicks(pid) });
  }
  await sleep(idleSeconds * 1000);
  for (const x of idle) {
    results[x.t.name].idleCpu = ((cpuTicks(x.pid) - x.ticks) / TICKS / idleSeconds) * 100;
    results[x.t.name].rss = rssMiB(x.pid);
    results[x.t.name].index = indexMiB(x.t.dir);
    results[x.t.name].attach = median([
      await spawnToAnswer(x.t, x.t.env),
      await spawnToAnswer(x.t, x.t.env),
      await spawnToAnswer(x.t, x.t.env),
    ]);
    x.sess.s.stop();
  }
  for (const t of tools) await stopDaemon(t);

  const fmt = (v, d = 0) => (v == null ? "—" : v.toFixed(d));
  const o = results.ours;
  const c = results.colby ?? {};
  const md = [
    `# Daemon benchmark — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Repo: ${tier}/${repo}. Machine: ${cpus().length} cores, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(
        " / ",
      )}. Peer: ${tools[1] ? `@colbymchenry/codegraph ${tools[1].version}` : "none"}. NODE_EXTRA_CA_CERTS unset.`,
    `Saves: ${saves} each (median), appending a new function to \`${target.file}\`; idle over ${idleSeconds} s with one client attached; first client: median of 5; second client: median of 3.`,
    "",
    "| measure | ours | colby | ours/colby |",
    "|---|---:|---:|---:|",
    `| save → query sees it, default debounce (ms) | ${fmt(o["save default"])} | ${fmt(c["save default"])} | ${c["save default"] ? (o["save default"] / c["save default"]).toFixed(2) + "×" : "—"} |`,
    `| save → query sees it, debounce 200 ms (ms) | ${fmt(o["save 200 ms"])} | — | |`,
    `| idle daemon CPU (% of a core) | ${fmt(o.idleCpu, 2)} | ${fmt(c.idleCpu, 2)} | |`,
    `| idle daemon RSS (MiB) | ${fmt(o.rss, 1)} | ${fmt(c.rss, 1)} | ${c.rss ? (o.rss / c.rss).toFixed(2) + "×" : "—"} |`,
    `| index on disk (MiB) | ${fmt(o.index, 1)} | ${fmt(c.index, 1)} | |`,
    `| RSS / index size | ${fmt(o.rss / o.index, 2)} | ${c.rss && c.index ? fmt(c.rss / c.index, 2) : "—"} | |`,
    `| first client, no daemon running: spawn → first answer (ms) | ${fmt(o.first)} | ${fmt(c.first)} | ${c.first ? (o.first / c.first).toFixed(2) + "×" : "—"} |`,
    `| second client: spawn → first answer (ms) | ${fmt(o.attach)} | ${fmt(c.attach)} | ${c.attach ? (o.attach / c.attach).toFixed(2) + "×" : "—"} |`,
    "",
  ].join("\n");
  mkdirSync(join(BENCH, "results"), { recursive: true });
  const out = join(BENCH, "results", `${new Date().toISOString().slice(0, 10)}-daemon-${repo}.md`);
  writeFileSync(out, md);
  process.stdout.write(md);
  log(`wrote ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
