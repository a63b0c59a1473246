#!/usr/bin/env node
// MCP conformance: `npm run conformance` (or node bench/conformance.mjs).
//
//   node bench/conformance.mjs [--suite stable|alpha] [--baseline FILE] [--keep] [--verbose]
//
// Runs the official server conformance suite (@modelcontextprotocol/conformance) against
// `serve --http`, twice: the stable release at its newest revision (2025-11-25) and the alpha at
// 2026-07-28. The suites, and a Node 22 runtime from npm when this Node is older (the suite needs
// 22 or later), are installed into bench/.work/conformance/, once; re-runs install nothing. The
// package versions and the failures we excuse live in bench/conformance-baseline.json.
//
// Per run: copy test/e2e/fixtures/mcp to a temp dir, `init` it with the built CLI, start
// `serve --http --http-addr 127.0.0.1:0 --path <copy>` (the server prints the port it bound), wait
// for it to answer, run each suite with `server --url <url> --suite all --spec-version <revision>
// -o <dir>`, and read the per-scenario checks.json files it writes. Exit 1 on any failing check the
// baseline does not excuse; baseline entries that no longer fail are reported so the list can
// shrink. The server (and the daemon it started for the project) is stopped by pid and the temp dir
// removed, on failure too.
/* global fetch, AbortSignal */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work", "conformance");
const MAIN = join(ROOT, "dist", "cli", "main.js");
const FIXTURE = join(ROOT, "test", "e2e", "fixtures", "mcp");
const BASELINE_DEFAULT = join(BENCH, "conformance-baseline.json");
const PKG = "@modelcontextprotocol/conformance";

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const keep = args.includes("--keep");
const verbose = args.includes("--verbose");
const onlySuite = opt("suite");
const BASELINE = resolve(opt("baseline") ?? BASELINE_DEFAULT);

const log = (msg) => process.stderr.write(`[conformance] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A sleep that does not keep the process alive once whatever it races against has won. */
const deadline = (ms) => new Promise((r) => setTimeout(r, ms).unref());

function fail(msg) {
  log(msg);
  process.exitCode = 1;
}

// ---------------------------------------------------------------- installs

/** `npm install` one package spec into its own folder under bench/.work/conformance, unless it is there. */
function ensurePackage(dir, name, spec, isCurrent) {
  const pkgJson = join(dir, "node_modules", name, "package.json");
  if (existsSync(pkgJson) && isCurrent(JSON.parse(readFileSync(pkgJson, "utf8")))) return;
  log(`installing ${spec} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", spec], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`npm install ${spec} failed (exit ${r.status ?? r.signal})`);
}

/** A Node 22+ binary: this one if it is new enough, else `node-<platform>-<arch>@22` from npm. */
function ensureNode22() {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const name = `node-${process.platform}-${process.arch}`;
  const dir = join(WORK, "node22");
  ensurePackage(dir, name, `${name}@22`, (p) => Number(String(p.version).split(".")[0]) === 22);
  const bin = join(dir, "node_modules", name, "bin", "node");
  if (!existsSync(bin)) throw new Error(`${name}@22 installed no bin/node at ${bin}`);
  return bin;
}

function ensureSuite(key, spec) {
  const version = spec.slice(spec.lastIndexOf("@") + 1);
  const dir = join(WORK, key);
  ensurePackage(dir, PKG, spec, (p) => p.version === version);
  return join(dir, "node_modules", PKG, "dist", "index.js");
}

// ---------------------------------------------------------------- server

/** Start `serve --http` on an ephemeral loopback port; resolve with its pid, URL and output. */
async function startServer(project) {
  const child = spawn(process.execPath, [MAIN, "serve", "--http", "--http-addr", "127.0.0.1:0", "--path", project], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((r) => child.once("exit", (code, signal) => r(code ?? signal)));
  const server = { child, exited, url: null, output: () => output };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    const m = /MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(output);
    if (m && !server.url) server.url = m[1];
    if (server.url && (await answers(server.url))) return server;
    await sleep(100);
  }
  return Object.assign(server, { error: child.exitCode !== null ? "exited" : "did not answer within 20 s" });
}

/** One legacy `ping` POST; true on HTTP 200. */
async function answers(url) {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      signal: AbortSignal.timeout(2000),
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitGone(pid, ms) {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  return !alive(pid);
}

/** SIGTERM the server by pid (SIGKILL after 10 s), then make sure the daemon it started has gone too. */
async function stopServer(server, project) {
  const pid = server.child.pid;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGTERM");
    const done = await Promise.race([server.exited.then(() => true), deadline(10_000).then(() => false)]);
    if (!done) {
      log(`server ${pid} ignored SIGTERM for 10 s; sending SIGKILL`);
      server.child.kill("SIGKILL");
      await server.exited;
    }
  }
  // The project's daemon exits by itself once its host is gone; only ever signal the one whose
  // writer.pid names our server as its host.
  let writer = null;
  try {
    writer = JSON.parse(readFileSync(join(project, ".codegraph", "writer.pid"), "utf8"));
  } catch {
    return;
  }
  if (writer?.host !== pid || typeof writer.pid !== "number" || !alive(writer.pid)) return;
  if (await waitGone(writer.pid, 5000)) return;
  log(`daemon ${writer.pid} still running 5 s after its host stopped; sending SIGTERM`);
  process.kill(writer.pid, "SIGTERM");
  await waitGone(writer.pid, 5000);
}

// ---------------------------------------------------------------- suites

/** Run one suite; resolve with its exit code, its output, and checks per scenario from its -o dir. */
function runSuite(node, cli, url, revision, outDir) {
  const argv = [cli, "server", "--url", url, "--suite", "all", "--spec-version", revision, "-o", outDir];
  return new Promise((resolveRun) => {
    const child = spawn(node, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (d) => {
      output += d;
      if (verbose) process.stderr.write(d);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGTERM"), 10 * 60_000);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const scenarios = new Map();
      for (const entry of existsSync(outDir) ? readdirSync(outDir) : []) {
        const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry);
        const file = join(outDir, entry, "checks.json");
        if (m && existsSync(file)) scenarios.set(m[1], JSON.parse(readFileSync(file, "utf8")));
      }
      resolveRun({ code: code ?? signal, output, scenarios, argv });
    });
  });
}

/** Judge a suite's checks against its baseline entries. */
function judge(scenarios, excused) {
  const rows = { passed: 0, failed: 0, excused: 0 };
  const unexcused = [];
  const warnings = [];
  for (const [name, checks] of [...scenarios].sort(([a], [b]) => a.localeCompare(b))) {
    const failing = checks.filter((c) => c.status === "FAILURE");
    for (const c of checks.filter((c) => c.status === "WARNING")) warnings.push({ key: `${name}:${c.id}`, c });
    const bad = failing.filter((c) => !(`${name}:${c.id}` in excused) && !(name in excused));
    unexcused.push(...bad.map((c) => ({ key: `${name}:${c.id}`, c })));
    if (failing.length === 0) rows.passed++;
    else if (bad.length === 0) rows.excused++;
    else rows.failed++;
  }
  // Baseline entries that did not fail this time: the list can shrink.
  const stale = [];
  for (const key of Object.keys(excused)) {
    const [name, id] = key.includes(":") ? [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)] : [key];
    const checks = scenarios.get(name);
    if (!checks) {
      stale.push(`${key} (scenario not run)`);
      continue;
    }
    const mine = id === undefined ? checks : checks.filter((c) => c.id === id);
    if (mine.length === 0) stale.push(`${key} (check not reported)`);
    else if (!mine.some((c) => c.status === "FAILURE"))
      stale.push(`${key} (now ${[...new Set(mine.map((c) => c.status))].join("/")})`);
  }
  return { ...rows, unexcused, warnings, stale };
}

function table(rows) {
  const head = ["suite", "package", "revision", "scenarios", "passed", "failed", "excused"];
  const body = rows.map((r) => [r.suite, r.pkg, r.revision, r.total, r.passed, r.failed, r.excused].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

// ---------------------------------------------------------------- main

async function main() {
  const started = Date.now();
  if (!existsSync(MAIN)) {
    fail(`${MAIN} is missing: run \`npm run build\` first (this script builds nothing).`);
    return;
  }
  const baseline = JSON.parse(readFileSync(BASELINE, "utf8"));
  const suites = Object.entries(baseline.suites).filter(([key]) => !onlySuite || key === onlySuite);
  if (suites.length === 0) {
    fail(`no suite named ${onlySuite} in ${BASELINE} (have: ${Object.keys(baseline.suites).join(", ")})`);
    return;
  }
  const node = ensureNode22();
  const clis = new Map(suites.map(([key, s]) => [key, ensureSuite(key, s.package)]));

  const tmp = mkdtempSync(join(tmpdir(), "codegraph-conformance-"));
  const project = join(tmp, "project");
  let server = null;
  const stop = async () => {
    if (server) await stopServer(server, project).catch((e) => log(`stopping the server: ${e.message}`));
    server = null;
    if (keep) log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  };
  const onSignal = (sig) => {
    log(`${sig}: stopping`);
    void stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    cpSync(FIXTURE, project, { recursive: true });
    const init = spawnSync(process.execPath, [MAIN, "init", project], { encoding: "utf8" });
    if (init.status !== 0) {
      fail(`init ${project} failed (exit ${init.status}):\n${init.stdout}${init.stderr}`);
      return;
    }
    server = await startServer(project);
    if (server.error) {
      fail(`serve --http ${server.error}:\n${server.output()}`);
      return;
    }
    log(`server ${server.child.pid} at ${server.url}, node ${spawnSync(node, ["--version"]).stdout}`.trim());

    const rows = [];
    for (const [key, suite] of suites) {
      const t0 = Date.now();
      const run = await runSuite(node, clis.get(key), server.url, suite.revision, join(tmp, `results-${key}`));
      if (run.scenarios.size === 0) {
        fail(`${key}: the suite wrote no results (exit ${run.code}); its output:\n${run.output.slice(-4000)}`);
        continue;
      }
      const verdict = judge(run.scenarios, suite.excused);
      rows.push({
        suite: key,
        pkg: suite.package.replace(`${PKG}@`, ""),
        revision: suite.revision,
        total: run.scenarios.size,
        ...verdict,
      });
      log(
        `${key}: ${run.scenarios.size} scenarios in ${((Date.now() - t0) / 1000).toFixed(1)} s (node ${run.argv.slice(1).join(" ")})`,
      );
      for (const { key: k, c } of verdict.unexcused)
        fail(`${key}: FAILED ${k}: ${c.errorMessage ?? c.description ?? ""}`.trim());
      for (const s of verdict.stale) log(`${key}: baseline entry no longer fails, remove it: ${s}`);
      if (verbose)
        for (const { key: k, c } of verdict.warnings) log(`${key}: warning ${k}: ${c.errorMessage ?? ""}`.trim());
    }
    if (rows.length) console.log(table(rows));
    const warned = rows.reduce((n, r) => n + r.warnings.length, 0);
    if (warned && !verbose) log(`${warned} SHOULD-level warnings (not scored); --verbose lists them`);
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${process.exitCode ? "FAILED" : "ok"}`);
  } finally {
    await stop();
  }
}

main().catch((e) => {
  fail(e instanceof Error ? (e.stack ?? e.message) : String(e));
});
