#!/usr/bin/env node
// HTTP load benchmark: `npm run bench -- --load` (or node bench/load.mjs). Issue 6.
//
//   node bench/load.mjs [--repo django] [--tier medium] [--clients 50] [--requests 200] [--runs 3]
//                       [--warmup 50] [--settle 400] [--modern] [--cpu-prof DIR] [--no-reindex]
//
// --cpu-prof DIR: V8 CPU profiles of the server and the daemon over the two measured phases
// (bench/lib/cpu-prof-preload.mjs through NODE_OPTIONS; one .cpuprofile per process in DIR).
// --no-reindex: reuse the indexed copy of a previous run.
// --warmup N: mixed calls per client before the measured phases (see WARMUP below).
// --settle N: mixed calls per client after the warm-up and before the measured phases (see SETTLE_CALLS).
//
// On the medium-tier Django copy (indexed with our CLI), `serve --http --path <copy>` on a free
// loopback port (NODE_EXTRA_CA_CERTS unset, HOME a scratch folder), warmed up and settled (both reported
// apart), then per run:
//   - mixed: --clients concurrent closed-loop clients × --requests tool calls each, 40% search,
//     30% callers, 20% node, 10% explore, with rotating real arguments;
//   - search only: the same shape with codegraph_search alone.
// Clients are node:http with a keep-alive Agent (one socket per client). Every answer must be
// HTTP 200, JSON, a JSON-RPC result for our id with no isError; anything else is an error, a
// request that never gets an answer (socket error, 30 s timeout) is dropped. Latency is from the
// request's write to its last body byte. RSS is summed over the server's process tree and the
// project daemon it started (found by /proc cmdline `daemon … --path <copy>`): before the load,
// right after, 10 s after, and 70 s after (once the daemon's read workers stopped). CPU seconds of
// the server, the daemon and this load generator are read from /proc around each phase (all three
// share the machine's cores).
// Each run starts a fresh server; the report gives the per-run numbers and their medians.
// Writes bench/results/<date>-load.md and prints it.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measuredEnv, median } from "./lib/measure.mjs";
import { prepareCopy } from "./lib/mcp-session.mjs";
import { optionReader } from "./lib/args.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");

const args = process.argv.slice(2);
const opt = optionReader(args);
const repoName = opt("repo", "django");
const tier = opt("tier", "medium");
const CLIENTS = Number(opt("clients", "50"));
const REQUESTS = Number(opt("requests", "200"));
const RUNS = Number(opt("runs", "3"));
/**
 * Mixed calls per client before the measured phases, at full concurrency. A fresh server's first
 * 2,000 mixed calls cost it 1.2-1.5 times the CPU of the next ones (its read workers are new V8
 * isolates, whose code is optimised only after many calls; measured in five segments of 2,000 calls
 * after 500 warm-up calls, three fresh servers), so 500 warm-up calls left the first fifth of the
 * mixed phase cold. The targets are for a server under sustained load; the warm-up phase's own
 * figures are reported as the cold start.
 */
const WARMUP = Number(opt("warmup", "50"));
/**
 * Mixed calls per client after the warm-up, before the measured phases, reported apart as well. A
 * server keeps optimising, and deoptimising, its read workers' code for many more calls than the
 * warm-up's: three fresh servers (session 44) spent 11.2-12.5 s of CPU on their first 10,000 mixed
 * calls after the 2,500 of the warm-up, 10.2-11.4 on the next 10,000, and 9.9-10.7 on each 10,000
 * after that, whose p99 fell from 58-67 ms to 44-51. TurboFan was still compiling 170-610 ms a
 * 10,000 calls there, in bursts that stall the other threads on two cores (the slowest calls of a
 * run cluster in the 250 ms windows where a V8 background thread is busy). The targets are for a
 * server under sustained load, so the measured phases start after 22,500 calls.
 */
const SETTLE_CALLS = Number(opt("settle", "400"));
const MODERN = args.includes("--modern");
const CPU_PROF = opt("cpu-prof", null);
const REINDEX = !args.includes("--no-reindex");
const TIMEOUT_MS = 30_000;
const SETTLE_MS = 10_000;
/** Past the daemon's read-worker idle stop (a minute without calls; src/mcp/read-pool.ts). */
const IDLE_MS = 70_000;

/** The targets of issue 6. */
const TARGET_P99_MS = 50; // search and callers
const TARGET_SEARCH_RPS = 1000; // search only, on 2 cores

/** Rotating real arguments per tool (Django); other repos get a generic set. */
const ARGS = {
  django: {
    search: [
      "QuerySet",
      "get_queryset",
      "HttpRequest",
      "Model.save",
      "render template",
      "middleware",
      "Field",
      "reverse url",
      "cache get",
      "kind:class Form",
    ],
    callers: [
      "get_queryset",
      "QuerySet.filter",
      "Model.save",
      "reverse",
      "render",
      "get_object_or_404",
      "full_clean",
      "as_sql",
      "HttpResponse",
      "get_host",
    ],
    node: [
      "QuerySet.filter",
      "Model.save",
      "HttpRequest",
      "get_object_or_404",
      "HttpRequest.get_host",
      "QuerySet.get",
      "Field.clean",
      "reverse",
    ],
    explore: [
      "how does QuerySet.filter build a query",
      "Model.save",
      "HttpRequest.get_host",
      "how are middleware called",
    ],
  },
};
const argSet = ARGS[repoName] ?? {
  search: ["main"],
  callers: ["main"],
  node: ["main"],
  explore: ["main"],
};
const TOOL_ARGS = {
  search: (v) => ({ name: "codegraph_search", arguments: { query: v } }),
  callers: (v) => ({ name: "codegraph_callers", arguments: { symbol: v } }),
  node: (v) => ({ name: "codegraph_node", arguments: { symbol: v } }),
  explore: (v) => ({ name: "codegraph_explore", arguments: { query: v } }),
};
/** 40% search, 30% callers, 20% node, 10% explore: a 10-slot wheel each client starts at its own slot. */
const MIX = ["search", "callers", "search", "node", "callers", "search", "explore", "callers", "search", "node"];

const log = (m) => process.stderr.write(`[bench:load] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

// ---------------------------------------------------------------------------------------------
// Processes

/** A snapshot of dist/ (and package.json), so a rebuild by someone else mid-run changes nothing. */
function snapshotMain() {
  const snap = join(WORK, "load-ours");
  rmSync(snap, { recursive: true, force: true });
  mkdirSync(snap, { recursive: true });
  cpSync(join(ROOT, "dist"), join(snap, "dist"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(snap, "package.json"));
  return join(snap, "dist", "cli", "main.js");
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

function procTable() {
  const t = new Map();
  for (const n of readdirSync("/proc")) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const status = readFileSync(`/proc/${n}/status`, "latin1");
      const ppid = Number(/\nPPid:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const rss = Number(/\nVmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      const state = /\nState:\s+(\S+)/.exec(status)?.[1] ?? "?";
      const argv = readFileSync(`/proc/${n}/cmdline`, "utf8").split("\0");
      t.set(Number(n), { ppid, rssKb: rss, argv, state });
    } catch {
      // gone
    }
  }
  return t;
}

/** Our daemon for `dir`: a process whose argv has `daemon` and `--path <dir>`. */
function daemonPids(dir, table = procTable()) {
  const out = [];
  for (const [pid, p] of table) {
    const i = p.argv.indexOf("--path");
    if (p.argv.includes("daemon") && i >= 0 && p.argv[i + 1] === dir) out.push(pid);
  }
  return out;
}

/** The server, its descendants and the project's daemon(s) (and theirs): pid -> rssKb. */
function tree(serverPid, dir) {
  const table = procTable();
  const kids = new Map();
  for (const [pid, p] of table) {
    if (!kids.has(p.ppid)) kids.set(p.ppid, []);
    kids.get(p.ppid).push(pid);
  }
  const seen = new Map();
  const stack = [serverPid, ...daemonPids(dir, table)];
  while (stack.length) {
    const pid = stack.pop();
    if (seen.has(pid) || !table.has(pid)) continue;
    seen.set(pid, table.get(pid).rssKb);
    for (const c of kids.get(pid) ?? []) stack.push(c);
  }
  return seen;
}
/** RSS in MiB: the whole tree, the server alone and the daemon(s) alone. */
function treeRssMiB(serverPid, dir) {
  const t = tree(serverPid, dir);
  const daemons = new Set(daemonPids(dir));
  let total = 0;
  let daemon = 0;
  for (const [pid, kb] of t) {
    total += kb;
    if (daemons.has(pid)) daemon += kb;
  }
  return { total: total / 1024, server: (t.get(serverPid) ?? 0) / 1024, daemon: daemon / 1024 };
}

function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / TICKS; // utime + stime, after the command name
  } catch {
    return null;
  }
}

async function startServer(main, dir, env) {
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const child = spawn(process.execPath, [main, "serve", "--http", "--http-addr", addr, "--path", dir], {
    cwd: dir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`serve --http did not start in 120 s:\n${stderr}`)), 120_000);
    child.stderr.on("data", (d) => {
      stderr += d.toString();
      if (stderr.includes("MCP over HTTP at")) {
        clearTimeout(timer);
        res();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      rej(new Error(`serve --http exited ${code}:\n${stderr}`));
    });
  });
  return { child, port, stderr: () => stderr };
}

/** SIGTERM the server by pid, wait for it and for the daemon to leave; SIGTERM a daemon that stays. */
async function stopServer(server, dir) {
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(child.pid, "SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(t);
  }
  const deadline = Date.now() + 20_000;
  let left = daemonPids(dir);
  while (left.length && Date.now() < deadline) {
    await sleep(250);
    left = daemonPids(dir);
  }
  const note = left.length ? `daemon ${left.join(",")} still running 20 s after the server exited; SIGTERM` : null;
  for (const pid of left) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // gone
    }
  }
  if (left.length) await sleep(2000);
  return { note, remaining: daemonPids(dir) };
}

// ---------------------------------------------------------------------------------------------
// Requests

const PROTOCOL = MODERN ? "2026-07-28" : "2025-06-18";
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function body(id, params) {
  const p = MODERN ? { ...params, _meta: MODERN_META } : params;
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: p });
}

function headers(params, len) {
  const h = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": PROTOCOL,
    "Content-Length": len,
  };
  if (MODERN) {
    h["Mcp-Method"] = "tools/call";
    h["Mcp-Name"] = params.name;
  }
  return h;
}

let nextId = 1;

/** One tool call: { ms, ok, dropped, why, chars }. Never throws. */
function call(agent, port, params) {
  const id = nextId++;
  const payload = body(id, params);
  const len = Buffer.byteLength(payload);
  return new Promise((done) => {
    const t0 = performance.now();
    let settled = false;
    const finish = (r) => {
      if (settled) return;
      settled = true;
      done({ ms: performance.now() - t0, ...r });
    };
    const req = http.request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: headers(params, len) },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("error", (e) => finish({ ok: false, dropped: true, why: `response: ${e.code ?? e.message}` }));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 200)
            return finish({ ok: false, why: `HTTP ${res.statusCode}: ${text.slice(0, 200)}` });
          let msg;
          try {
            msg = JSON.parse(text);
          } catch {
            return finish({ ok: false, why: `not JSON (${res.headers["content-type"]}): ${text.slice(0, 200)}` });
          }
          if (msg.id !== id) return finish({ ok: false, why: `id ${msg.id}, expected ${id}` });
          if (!msg.result)
            return finish({ ok: false, why: `no result: ${JSON.stringify(msg.error ?? msg).slice(0, 200)}` });
          if (msg.result.isError) {
            const t = msg.result.content?.[0]?.text ?? "";
            return finish({ ok: false, why: `isError: ${t.slice(0, 200)}` });
          }
          finish({ ok: true, chars: (msg.result.content ?? []).reduce((a, c) => a + (c.text?.length ?? 0), 0) });
        });
      },
    );
    req.setTimeout(TIMEOUT_MS, () => {
      req.destroy(new Error("timeout"));
    });
    req.on("error", (e) => finish({ ok: false, dropped: true, why: `request: ${e.code ?? e.message}` }));
    req.end(payload);
  });
}

/**
 * `clients` closed-loop clients, each with its own keep-alive socket, `requests` calls each.
 * pick(client, i) -> tool short name. Returns per-tool latencies, errors, wall time.
 */
async function phase(port, clients, requests, pick) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
  const counters = {};
  const lat = {};
  const errors = [];
  let dropped = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < requests; i++) {
        const tool = pick(c, i);
        const k = (counters[tool] = (counters[tool] ?? c) + 1);
        const values = argSet[tool];
        const r = await call(agent, port, TOOL_ARGS[tool](values[k % values.length]));
        if (r.ok) {
          ok++;
          (lat[tool] ??= []).push(r.ms);
        } else {
          if (r.dropped) dropped++;
          errors.push(`${tool}: ${r.why}`);
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  agent.destroy();
  return { lat, ok, errors, dropped, wallMs, total: clients * requests };
}

const quantile = (xs, q) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

function summarize(p) {
  const all = Object.values(p.lat).flat();
  const per = {};
  for (const [tool, xs] of Object.entries(p.lat))
    per[tool] = { n: xs.length, p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) };
  return {
    per,
    overall: { n: all.length, p50: quantile(all, 0.5), p99: quantile(all, 0.99) },
    rps: p.ok / (p.wallMs / 1000),
    wallMs: p.wallMs,
    errors: p.errors.length,
    dropped: p.dropped,
    total: p.total,
    firstErrors: [...new Set(p.errors)].slice(0, 5),
  };
}

/** Every argument of every tool once, sequentially: all must answer without isError. */
async function preflight(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out = [];
  for (const [tool, values] of Object.entries(argSet))
    for (const v of values) {
      const r = await call(agent, port, TOOL_ARGS[tool](v));
      out.push({ tool, v, ...r });
    }
  agent.destroy();
  return out;
}

// ---------------------------------------------------------------------------------------------

async function oneRun(main, dir, env, runNo) {
  log(`run ${runNo}: starting serve --http`);
  const server = await startServer(main, dir, env);
  const pid = server.child.pid;
  const r = { run: runNo };
  try {
    // The first request brings the daemon up; wait for it before measuring anything.
    const pre = await preflight(server.port);
    const bad = pre.filter((x) => !x.ok);
    if (bad.length) throw new Error(`preflight: ${bad.map((x) => `${x.tool} ${x.v}: ${x.why}`).join("; ")}`);
    r.preflight = pre;
    // Warm-up: the cold start, reported apart from the measured phases.
    log(`run ${runNo}: warm-up, ${CLIENTS} clients × ${WARMUP} mixed`);
    r.warmup = summarize(await phase(server.port, CLIENTS, WARMUP, (c, i) => MIX[(c + i) % MIX.length]));
    const daemons = daemonPids(dir);
    r.daemonPids = daemons;
    r.procs = tree(pid, dir).size;
    const table = procTable();
    r.procList = [...tree(pid, dir).keys()].map((p) => {
      const role = p === pid ? "server" : daemons.includes(p) ? "daemon" : "other";
      const e = table.get(p);
      return `${p} ${role} (ppid ${e?.ppid}, state ${e?.state}): ${(e?.argv ?? []).join(" ").trim().slice(0, 160)}`;
    });
    log(`  processes:\n    ${r.procList.join("\n    ")}`);
    await sleep(1000);
    r.rssBefore = treeRssMiB(pid, dir);

    const cpu = () => ({
      server: cpuSeconds(pid),
      daemon: daemons.reduce((a, d) => a + (cpuSeconds(d) ?? 0), 0),
      self: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
    });
    const cpuDelta = (a, b) => ({ server: b.server - a.server, daemon: b.daemon - a.daemon, self: b.self - a.self });

    const profiled = [pid, ...daemons];
    const usr2 = () => profiled.forEach((p) => process.kill(p, "SIGUSR2"));
    log(`run ${runNo}: settling, ${CLIENTS} clients × ${SETTLE_CALLS} mixed`);
    let c0 = cpu();
    r.settle = summarize(await phase(server.port, CLIENTS, SETTLE_CALLS, (c, i) => MIX[(c + i) % MIX.length]));
    r.settleCpu = cpuDelta(c0, cpu());
    log(
      `  ${r.settle.rps.toFixed(0)} req/s, p50 ${r.settle.overall.p50?.toFixed(1)} ms, p99 ${r.settle.overall.p99?.toFixed(1)} ms`,
    );

    if (CPU_PROF) usr2(); // start the profilers for both measured phases

    log(`run ${runNo}: mixed, ${CLIENTS} clients × ${REQUESTS}`);
    c0 = cpu();
    const mixed = await phase(server.port, CLIENTS, REQUESTS, (c, i) => MIX[(c + i) % MIX.length]);
    r.mixedCpu = cpuDelta(c0, cpu());
    r.mixed = summarize(mixed);
    r.rssMid = treeRssMiB(pid, dir); // between the phases: a plateau or still climbing?
    log(
      `  ${r.mixed.rps.toFixed(0)} req/s, p50 ${r.mixed.overall.p50?.toFixed(1)} ms, p99 ${r.mixed.overall.p99?.toFixed(1)} ms, errors ${r.mixed.errors}, dropped ${r.mixed.dropped}`,
    );

    log(`run ${runNo}: search only, ${CLIENTS} clients × ${REQUESTS}`);
    c0 = cpu();
    const search = await phase(server.port, CLIENTS, REQUESTS, () => "search");
    r.searchCpu = cpuDelta(c0, cpu());
    r.search = summarize(search);
    log(
      `  ${r.search.rps.toFixed(0)} req/s, p50 ${r.search.overall.p50?.toFixed(1)} ms, p99 ${r.search.overall.p99?.toFixed(1)} ms, errors ${r.search.errors}, dropped ${r.search.dropped}`,
    );

    if (CPU_PROF) usr2(); // stop them and write the profiles

    r.rssAfter = treeRssMiB(pid, dir);
    await sleep(SETTLE_MS);
    r.rssSettled = treeRssMiB(pid, dir);
    await sleep(IDLE_MS - SETTLE_MS);
    r.rssIdle = treeRssMiB(pid, dir);
    log(
      `  RSS ${r.rssBefore.total.toFixed(0)} → ${r.rssAfter.total.toFixed(0)} → ${r.rssSettled.total.toFixed(0)} → ${r.rssIdle.total.toFixed(0)} MiB (${r.procs} processes)`,
    );
  } finally {
    const stopped = await stopServer(server, dir);
    r.stopNote = stopped.note;
    r.leftOver = stopped.remaining;
    if (server.child.exitCode !== 0 && server.child.exitCode !== null)
      r.stopNote = `${r.stopNote ?? ""} server exit ${server.child.exitCode}`.trim();
  }
  return r;
}

const fmt = (ms) => (ms == null ? "—" : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const pf = (ok) => (ok ? "**pass**" : "**FAIL**");

function report(runs, meta) {
  const med = (f) => median(runs.map(f).filter((x) => x != null));
  const date = new Date().toISOString().slice(0, 10);
  const mixedTools = ["search", "callers", "node", "explore"];
  const L = [
    `# HTTP load benchmark — ${date}`,
    "",
    `Repo: ${tier}/${repoName} (indexed with our CLI). Machine: ${meta.cores} cores (${meta.cpu}), load average ${meta.loadStart} at the start, ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" / ")} at the end. Node ${process.version}. Commit ${meta.commit}.`,
    `\`serve --http --path <copy>\` on 127.0.0.1, NODE_EXTRA_CA_CERTS unset; ${MODERN ? "2026-07-28 stateless requests (SEP-2243 headers)" : "legacy 2025-06-18 tool calls (plain JSON answers), no initialize"}. ` +
      `${CLIENTS} concurrent closed-loop clients × ${REQUESTS} requests each per phase, node:http keep-alive (one socket per client); ` +
      `the load generator runs on the same machine as the server and its daemon. ${runs.length} runs, a fresh server each; tables show the median over runs ` +
      `(per-run values at the end). Warm-up before each run: every argument once, then ${CLIENTS} clients × ${WARMUP} mixed calls ` +
      `(a fresh server's first 2,000 or so cost it more CPU a call: its read workers' code is not optimised yet), reported below as the cold start, not held to the targets; ` +
      `then ${CLIENTS} clients × ${SETTLE_CALLS} more mixed calls while its code settles (reported as settling, not held to the targets either).`,
    `Mix: 40% search, 30% callers, 20% node, 10% explore; arguments rotate over ${Object.entries(argSet)
      .map(([t, v]) => `${t} ${v.length}`)
      .join(", ")} real ${repoName} names.`,
    "",
    "## Mixed load (ms)",
    "",
    "| tool | requests | p50 | p99 | target p99 < 50 ms |",
    "|---|---:|---:|---:|---|",
  ];
  for (const t of mixedTools) {
    const p99 = med((r) => r.mixed.per[t]?.p99);
    const target = t === "search" || t === "callers" ? pf(p99 < TARGET_P99_MS) : "";
    L.push(
      `| ${t} | ${med((r) => r.mixed.per[t]?.n)} | ${fmt(med((r) => r.mixed.per[t]?.p50))} | ${fmt(p99)} | ${target} |`,
    );
  }
  L.push(
    `| **overall** | ${med((r) => r.mixed.overall.n)} | ${fmt(med((r) => r.mixed.overall.p50))} | ${fmt(med((r) => r.mixed.overall.p99))} | |`,
  );
  const searchRps = med((r) => r.search.rps);
  const searchP99 = med((r) => r.search.overall.p99);
  L.push(
    "",
    "## Throughput",
    "",
    "| phase | requests/s | p50 ms | p99 ms | errors | dropped | target |",
    "|---|---:|---:|---:|---:|---:|---|",
    `| mixed | ${med((r) => r.mixed.rps).toFixed(0)} | ${fmt(med((r) => r.mixed.overall.p50))} | ${fmt(med((r) => r.mixed.overall.p99))} | ${runs.reduce((a, r) => a + r.mixed.errors, 0)} | ${runs.reduce((a, r) => a + r.mixed.dropped, 0)} | |`,
    `| cold start (warm-up, mixed) | ${med((r) => r.warmup.rps).toFixed(0)} | ${fmt(med((r) => r.warmup.overall.p50))} | ${fmt(med((r) => r.warmup.overall.p99))} | ${runs.reduce((a, r) => a + r.warmup.errors, 0)} | ${runs.reduce((a, r) => a + r.warmup.dropped, 0)} | |`,
    `| settling (the next ${CLIENTS * SETTLE_CALLS} mixed) | ${med((r) => r.settle.rps).toFixed(0)} | ${fmt(med((r) => r.settle.overall.p50))} | ${fmt(med((r) => r.settle.overall.p99))} | ${runs.reduce((a, r) => a + r.settle.errors, 0)} | ${runs.reduce((a, r) => a + r.settle.dropped, 0)} | |`,
    `| search only | ${searchRps.toFixed(0)} | ${fmt(med((r) => r.search.overall.p50))} | ${fmt(searchP99)} | ${runs.reduce((a, r) => a + r.search.errors, 0)} | ${runs.reduce((a, r) => a + r.search.dropped, 0)} | > ${TARGET_SEARCH_RPS} req/s ${pf(searchRps > TARGET_SEARCH_RPS)}; p99 < ${TARGET_P99_MS} ms ${pf(searchP99 < TARGET_P99_MS)} |`,
    "",
    "Errors and dropped are totals over all runs (every answer must be HTTP 200 with a JSON-RPC result and no isError).",
    `With ${CLIENTS} closed-loop clients the mean latency is ${CLIENTS} / throughput (Little's law): a p99 under ${TARGET_P99_MS} ms at this concurrency needs well over ${Math.round((CLIENTS / TARGET_P99_MS) * 1000)} req/s.`,
    "",
    "## CPU seconds per phase (median)",
    "",
    "| phase | calls | http server | daemon | load generator | wall s | server ms a call |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  const phaseNames = { settle: "settling", mixed: "mixed", search: "search only" };
  for (const [ph, name] of Object.entries(phaseNames)) {
    const calls = med((r) => r[ph].overall.n);
    const server = med((r) => r[ph + "Cpu"].server);
    L.push(
      `| ${name} | ${calls} | ${server.toFixed(1)} | ${med((r) => r[ph + "Cpu"].daemon).toFixed(1)} | ${med((r) => r[ph + "Cpu"].self).toFixed(1)} | ${(med((r) => r[ph].wallMs) / 1000).toFixed(1)} | ${((server * 1000) / calls).toFixed(2)} |`,
    );
  }
  L.push(
    "",
    "## Memory (RSS of the server + its daemon, MiB)",
    "",
    "Server / daemon in parentheses; the total also counts any other process in the server's tree.",
    "",
    `| run | processes | before | after the mixed phase | right after (both phases) | 10 s after | ${IDLE_MS / 1000} s after (read workers stopped) | growth (${IDLE_MS / 1000} s after − before) |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  const mem = (m) => `${m.total.toFixed(0)} (${m.server.toFixed(0)} / ${m.daemon.toFixed(0)})`;
  const grow = (a, b) => `${b - a >= 0 ? "+" : ""}${(b - a).toFixed(0)}`;
  for (const r of runs)
    L.push(
      `| ${r.run} | ${r.procs} | ${mem(r.rssBefore)} | ${mem(r.rssMid)} | ${mem(r.rssAfter)} | ${mem(r.rssSettled)} | ${mem(r.rssIdle)} | ${grow(r.rssBefore.total, r.rssIdle.total)} (${grow(r.rssBefore.server, r.rssIdle.server)} / ${grow(r.rssBefore.daemon, r.rssIdle.daemon)}) |`,
    );
  L.push("", "Processes measured (first run):", "", ...(runs[0].procList ?? []).map((p) => `- ${p}`));
  L.push(
    "",
    "## Per run",
    "",
    "| run | mixed req/s | mixed p50 / p99 | search req/s | search p50 / p99 | search-in-mix p99 | callers-in-mix p99 | errors | dropped | shutdown |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  );
  for (const r of runs)
    L.push(
      `| ${r.run} | ${r.mixed.rps.toFixed(0)} | ${fmt(r.mixed.overall.p50)} / ${fmt(r.mixed.overall.p99)} | ${r.search.rps.toFixed(0)} | ${fmt(r.search.overall.p50)} / ${fmt(r.search.overall.p99)} | ${fmt(r.mixed.per.search?.p99)} | ${fmt(r.mixed.per.callers?.p99)} | ${r.warmup.errors + r.settle.errors + r.mixed.errors + r.search.errors} | ${r.warmup.dropped + r.settle.dropped + r.mixed.dropped + r.search.dropped} | ${r.stopNote ?? "server and daemon exited"}${r.leftOver?.length ? `; LEFT ${r.leftOver.join(",")}` : ""} |`,
    );
  const errs = runs.flatMap((r) => [
    ...r.warmup.firstErrors,
    ...r.settle.firstErrors,
    ...r.mixed.firstErrors,
    ...r.search.firstErrors,
  ]);
  if (errs.length) L.push("", "First errors:", "", ...[...new Set(errs)].slice(0, 10).map((e) => `- ${e}`));
  return { md: `${L.join("\n")}\n`, date };
}

async function main() {
  if (!(CLIENTS > 0 && REQUESTS > 0 && RUNS > 0 && WARMUP > 0 && SETTLE_CALLS > 0))
    throw new Error("--clients, --requests, --runs, --warmup and --settle must be positive");
  const home = join(WORK, "load-home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const extra = { HOME: home, NO_COLOR: "1" };
  if (CPU_PROF) {
    mkdirSync(resolve(CPU_PROF), { recursive: true });
    // --cpu-prof is refused in NODE_OPTIONS; a preload that profiles between two SIGUSR2s is not.
    extra.NODE_OPTIONS = `--import=${join(BENCH, "lib", "cpu-prof-preload.mjs")}`;
    extra.CODEGRAPH_BENCH_PROF_DIR = resolve(CPU_PROF);
  }
  const env = measuredEnv(extra);
  delete env.CODEGRAPH_HTTP_TOKEN;
  const main = snapshotMain();
  const copy = join(WORK, "scratch", "load-ours", repoName);
  if (daemonPids(copy).length) throw new Error(`a daemon for ${copy} is already running (pids ${daemonPids(copy)})`);
  let dir = copy;
  if (REINDEX || !existsSync(join(copy, ".codegraph"))) {
    const initEnv = measuredEnv({ HOME: home, NO_COLOR: "1" });
    dir = prepareCopy({
      work: WORK,
      tier,
      repo: repoName,
      name: "load-ours",
      initCmd: (d) => [process.execPath, [main, "init", d]],
      env: initEnv,
      log,
    });
  }
  const meta = {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? "?",
    loadStart: loadavg()
      .map((x) => x.toFixed(2))
      .join(" / "),
    commit: spawnSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim(),
  };
  const runs = [];
  for (let i = 1; i <= RUNS; i++) runs.push(await oneRun(main, dir, env, i));
  const { md, date } = report(runs, meta);
  mkdirSync(join(BENCH, "results"), { recursive: true });
  const out = join(BENCH, "results", `${date}-load${MODERN ? "-modern" : ""}.md`);
  writeFileSync(out, md);
  process.stdout.write(md);
  log(`wrote ${out}`);
  if (CPU_PROF) log(`CPU profiles in ${resolve(CPU_PROF)}`);
  const left = runs.flatMap((r) => r.leftOver ?? []);
  const failed = runs.some((r) => r.mixed.errors || r.search.errors) || left.length;
  if (failed) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
