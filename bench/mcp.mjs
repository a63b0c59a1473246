#!/usr/bin/env node
// MCP server benchmark: `npm run bench -- --mcp` (or node bench/mcp.mjs).
//
//   node bench/mcp.mjs [--repo django] [--tier medium] [--runs 9] [--calls 21] [--no-peer]
//
// On one corpus repo, for ours and @colbymchenry/codegraph side by side:
//   - start-up: spawn `serve --mcp` in the indexed repo, write `initialize`, time until its answer
//     (median of --runs spawns, Node start included, NODE_EXTRA_CA_CERTS unset);
//   - tool latency: one server, then --calls round trips of each of search, callers, node and
//     status over stdio (median), the same arguments for both;
//   - ours in-process: the same queries as direct function calls on an open index (median).
// Writes bench/results/<date>-mcp.md and prints it.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { measuredEnv, median } from "./lib/measure.mjs";
import { stopColbyDaemon } from "./lib/peer-daemon.mjs";
import { INIT, prepareCopy, startServer } from "./lib/mcp-session.mjs";
import { parsePeersOutput, peerEnv } from "./lib/tools.mjs";
import { optionReader } from "./lib/args.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");
const MAIN = join(ROOT, "dist", "cli", "main.js");

const args = process.argv.slice(2);
const opt = optionReader(args);
const repoName = opt("repo", "django");
const tier = opt("tier", "medium");
const runs = Number(opt("runs", "9"));
const calls = Number(opt("calls", "21"));
const withPeer = !args.includes("--no-peer");

/** Arguments that find something in Django; other repos get the same shapes with their own names. */
const QUERIES = {
  django: { search: "QuerySet", callers: "get_queryset", node: "QuerySet.filter" },
};
const q = QUERIES[repoName] ?? { search: "main", callers: "main", node: "main" };

const log = (m) => process.stderr.write(`[bench:mcp] ${m}\n`);
const prepare = (name, initCmd, env) =>
  prepareCopy({ work: WORK, tier, repo: repoName, name: `mcp-${name}`, initCmd, env, log });

async function startupMs(cmd, cmdArgs, cwd, env) {
  const t = performance.now();
  const s = startServer(cmd, cmdArgs, cwd, env);
  await s.request("initialize", INIT);
  const ms = performance.now() - t;
  s.stop();
  await new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once("exit", r)));
  return ms;
}

async function toolLatencies(cmd, cmdArgs, cwd, env) {
  const s = startServer(cmd, cmdArgs, cwd, env);
  await s.request("initialize", INIT);
  s.notify("notifications/initialized");
  const plan = {
    search: ["codegraph_search", { query: q.search }],
    callers: ["codegraph_callers", { symbol: q.callers }],
    node: ["codegraph_node", { symbol: q.node }],
    status: ["codegraph_status", {}],
  };
  const out = {};
  for (const [label, [name, a]] of Object.entries(plan)) {
    const times = [];
    let error = null;
    let chars = 0;
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      const r = await s.request("tools/call", { name, arguments: a });
      times.push(performance.now() - t);
      if (r.error || r.result?.isError) error = (r.error?.message ?? r.result?.content?.[0]?.text ?? "").slice(0, 80);
      chars = JSON.stringify(r.result?.content ?? "").length;
    }
    // The first call pays for opening the index and warming caches: report it apart.
    out[label] = { first: times[0], median: median(times.slice(1)), error, chars };
  }
  s.stop();
  return out;
}

async function inProcess(dir) {
  const api = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
  const db = api.openDatabase(join(dir, ".codegraph", "graph.db"), { readonly: true });
  const { languageForPath } = await import(pathToFileURL(join(ROOT, "dist", "extract", "language.js")).href);
  const plan = {
    search: () => api.searchSymbols(db, q.search, { limit: 10 }),
    callers: () => api.relations(db, q.callers, "callers", { limit: 20 }),
    node: () => api.nodeView(db, dir, { symbol: q.node }),
    status: () => api.status(db, dir, languageForPath),
  };
  const out = {};
  for (const [label, fn] of Object.entries(plan)) {
    const times = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      fn();
      times.push(performance.now() - t);
    }
    out[label] = median(times.slice(1));
  }
  db.close();
  return out;
}

const fmt = (ms) => (ms == null ? "—" : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const ratio = (a, b) => (a == null || b == null ? "—" : `${(a / b).toFixed(2)}×`);

async function main() {
  const env = measuredEnv();
  const oursDir = prepare("ours", (d) => [process.execPath, [MAIN, "init", d]], env);
  const ours = { cmd: process.execPath, args: [MAIN, "serve", "--mcp"], dir: oursDir, env };
  let peer = null;
  if (withPeer) {
    const peers = parsePeersOutput(
      spawnSync("/work/shared/bench/peers.sh", [join(WORK, "peers")], { encoding: "utf8" }).stdout ?? "",
    );
    if (peers.colby) {
      const penv = peerEnv(join(WORK, "peers", "home"));
      const dir = prepare("colby", (d) => [peers.colby.cli, ["init", "-y", d]], penv);
      peer = { cmd: peers.colby.cli, args: ["serve", "--mcp"], dir, env: penv, version: peers.colby.version };
    } else log("colby is not installed; measuring ours only");
  }
  const tools = peer
    ? [
        ["ours", ours],
        ["colby", peer],
      ]
    : [["ours", ours]];
  const startup = Object.fromEntries(tools.map(([n]) => [n, []]));
  // Interleaved, so drift in machine load hits both alike.
  for (let i = 0; i < runs; i++) {
    for (const [name, t] of tools) startup[name].push(await startupMs(t.cmd, t.args, t.dir, t.env));
  }
  const latency = {};
  for (const [name, t] of tools) latency[name] = await toolLatencies(t.cmd, t.args, t.dir, t.env);
  const local = await inProcess(oursDir);
  if (peer) await stopColbyDaemon(peer.dir);

  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `# MCP server benchmark — ${date}`,
    "",
    `Repo: ${tier}/${repoName}. Machine: ${cpus().length} cores, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" / ")}. Node ${process.version}. Peer: ${peer ? `@colbymchenry/codegraph ${peer.version}` : "none"}.`,
    `Start-up: median of ${runs} spawns each, interleaved. Tools: median of ${calls - 1} round trips over stdio after a first call (shown apart). NODE_EXTRA_CA_CERTS unset for both.`,
    "",
    "## From spawn to the initialize answer (ms)",
    "",
    "| | ours | colby | ours/colby |",
    "|---|---:|---:|---:|",
    `| median | ${fmt(median(startup.ours))} | ${fmt(peer ? median(startup.colby) : null)} | ${ratio(median(startup.ours), peer ? median(startup.colby) : null)} |`,
    `| min | ${fmt(Math.min(...startup.ours))} | ${fmt(peer ? Math.min(...startup.colby) : null)} | |`,
    "",
    "## Tool calls (ms)",
    "",
    "| tool | arguments | ours in-process | ours stdio | ours first call | colby stdio | colby first call | ours/colby | answer chars ours / colby | notes |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  const argText = { search: `query ${q.search}`, callers: `symbol ${q.callers}`, node: `symbol ${q.node}`, status: "" };
  for (const label of ["search", "callers", "node", "status"]) {
    const o = latency.ours[label];
    const c = peer ? latency.colby[label] : null;
    const notes = [o.error && `ours error: ${o.error}`, c?.error && `colby error: ${c.error}`]
      .filter(Boolean)
      .join("; ");
    lines.push(
      `| ${label} | ${argText[label]} | ${fmt(local[label])} | ${fmt(o.median)} | ${fmt(o.first)} | ${fmt(c?.median)} | ${fmt(c?.first)} | ${ratio(o.median, c?.median)} | ${o.chars} / ${c?.chars ?? "—"} | ${notes} |`,
    );
  }
  const md = `${lines.join("\n")}\n`;
  mkdirSync(join(BENCH, "results"), { recursive: true });
  const out = join(BENCH, "results", `${date}-mcp.md`);
  writeFileSync(out, md);
  process.stdout.write(md);
  log(`wrote ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
