#!/usr/bin/env node
// codegraph benchmark harness: `npm run bench` (= node bench/run.mjs). See bench/README.md.
//
//   node bench/run.mjs [--tier T | --tiers a,b] [--runs N] [--repos a,b] [--tools list]
//                      [--no-fetch] [--label NAME] [--timeout SECONDS] [--keep] [--ours-live]
//   node bench/run.mjs --render bench/results/<date>.json      (rewrite the .md from the .json)
//
// Exit status is non-zero only when the harness itself fails (bad arguments, corpora that
// cannot be fetched, an exception); a missing or failing indexer is reported, not fatal.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem, release } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { listRepos, listFiles, summarize, pickEditTarget } from "./lib/corpus.mjs";
import { ensureGnuTime, measure, measureSeq, measuredEnv, median } from "./lib/measure.mjs";
import { oursTool, colbyTool, optaveTool, parsePeersOutput } from "./lib/tools.mjs";
import { renderMarkdown } from "./lib/report.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");
const SHARED = "/work/shared/bench";
const ALL_TOOLS = ["floor", "floor-liftoff", "ours", "colby", "optave", "optave-wasm"];
// The floor under V8's default wasm tiering, and with --liftoff-only (baseline compiler only,
// no TurboFan tier-up: the tier-up of the big TypeScript grammar costs about a second of CPU).
const FLOORS = [
  ["floor", []],
  ["floor-liftoff", ["--liftoff-only"]],
];
const TIERS = ["small", "medium", "large"];

function usage(msg) {
  if (msg) console.error(`bench: ${msg}`);
  console.error(
    "usage: node bench/run.mjs [--tier T | --tiers a,b] [--runs N] [--repos a,b] [--tools " +
      ALL_TOOLS.join(",") +
      "] [--no-fetch] [--label NAME] [--timeout SECONDS] [--keep] [--ours-live]",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const o = {
    tiers: ["small", "medium"],
    runs: 3,
    repos: null,
    tools: ALL_TOOLS,
    fetch: true,
    label: null,
    timeoutS: 1800,
    keep: false,
  };
  const list = (v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const eq = a.indexOf("=");
      if (eq >= 0) return a.slice(eq + 1);
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    const key = a.split("=")[0];
    if (key === "--tier" || key === "--tiers") o.tiers = list(val());
    else if (key === "--runs") o.runs = Number(val());
    else if (key === "--repos") o.repos = list(val());
    else if (key === "--tools") o.tools = list(val());
    else if (key === "--label") o.label = val();
    else if (key === "--timeout") o.timeoutS = Number(val());
    else if (a === "--no-fetch") o.fetch = false;
    else if (a === "--keep") o.keep = true;
    else if (a === "--ours-live") o.oursLive = true;
    else if (a === "-h" || a === "--help") usage();
    else usage(`unknown argument ${a}`);
  }
  if (!o.tiers.length || o.tiers.some((t) => !TIERS.includes(t))) usage(`tiers are ${TIERS.join(", ")}`);
  if (!Number.isInteger(o.runs) || o.runs < 1) usage("--runs must be a positive integer");
  if (o.tools.some((t) => !ALL_TOOLS.includes(t))) usage(`tools are ${ALL_TOOLS.join(", ")}`);
  if (!(o.timeoutS > 0)) usage("--timeout must be positive");
  return o;
}

const LOG = join(WORK, "logs", "bench.log");
function log(msg) {
  const line = `[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`;
  console.error(line);
  try {
    appendFileSync(LOG, line + "\n");
  } catch {
    /* log folder not there yet */
  }
}

/** Run a helper script, stream its stderr to ours, return { code, stdout }. */
function runScript(cmd, args, logName) {
  return new Promise((res) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => res({ code: -1, stdout: out, stderr: String(e) }));
    child.on("close", (code) => {
      writeFileSync(join(WORK, "logs", logName), `$ ${cmd} ${args.join(" ")}\n${err}\n${out}`);
      res({ code, stdout: out, stderr: err });
    });
  });
}

function machineInfo() {
  let cpu = cpus()[0]?.model ?? "?";
  const git = (args) => spawnSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).stdout?.trim() ?? "";
  const nproc = Number(spawnSync("nproc", { encoding: "utf8" }).stdout?.trim()) || cpus().length;
  return {
    nproc,
    cpu,
    memGiB: +(totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    kernel: release(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    dirty: git(["status", "--porcelain", "--untracked-files=no"]).length > 0,
    loadStart: loadavg().map((x) => +x.toFixed(2)),
  };
}

function brief(r) {
  if (!r) return null;
  const o = {
    ok: r.ok,
    ms: +r.ms.toFixed(1),
    rssKb: r.rssKb,
    timeRssKb: r.timeRssKb,
    treeRssKb: r.treeRssKb,
    procs: r.procs,
  };
  if (r.stepsMs && r.stepsMs.length > 1) o.stepsMs = r.stepsMs.map((x) => +x.toFixed(1));
  if (!r.ok) {
    o.code = r.code;
    o.timedOut = r.timedOut || undefined;
    o.tail = ((r.stderr || "") + (r.stdout || "")).trim().slice(-1500);
  }
  return o;
}

function summarizeRuns(runs) {
  const ok = runs.filter((r) => r && r.ok);
  return {
    ms: median(ok.map((r) => r.ms)),
    rssKb: median(ok.map((r) => r.rssKb)),
    ok: ok.length,
    failed: runs.length - ok.length,
  };
}

async function benchRepo(opts, tier, repo, corpusDir, tools) {
  const listing = listFiles(corpusDir);
  const corpus = summarize(listing);
  const edit = pickEditTarget(listing);
  const result = {
    repo,
    corpus,
    editTarget: edit,
    loadStart: loadavg().map((x) => +x.toFixed(2)),
    floor: null,
    tools: {},
  };
  const timeoutMs = opts.timeoutS * 1000;
  log(
    `${tier}/${repo}: ${corpus.files} files, ${(corpus.bytes / 2 ** 20).toFixed(1)} MiB; ` +
      `${corpus.parseFiles} in the floor's languages (${(corpus.parseBytes / 2 ** 20).toFixed(1)} MiB)`,
  );

  // Each tool gets its own copy of the repo: ours, colby and optave all keep their index in
  // <repo>/.codegraph/, and the edit benchmark writes to a source file.
  const scratch = {};
  for (const t of tools) {
    const dir = join(WORK, "scratch", tier, t.name, repo);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    cpSync(corpusDir, dir, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    scratch[t.name] = dir;
    result.tools[t.name] = { full: [], rebuild: [], sync: [], edit: [], stats: null };
  }

  // Full index, interleaved: in each round the floor and every tool once, so that drift in the
  // machine's load spreads over all of them.
  const floorRuns = Object.fromEntries(FLOORS.map(([name]) => [name, []]));
  for (let r = 0; r < opts.runs; r++) {
    for (const [name, flags] of FLOORS) {
      if (!opts.tools.includes(name)) continue;
      const m = await measure(process.execPath, [...flags, join(BENCH, "floor-worker.mjs"), corpusDir], {
        env: measuredEnv(),
        timeoutMs,
      });
      let detail = null;
      try {
        detail = JSON.parse(m.stdout.trim().split("\n").pop());
      } catch {
        m.ok = false;
      }
      floorRuns[name].push({ ...brief(m), detail });
      log(`  ${name.padEnd(7)} full  run ${r + 1}: ${m.ok ? (m.ms / 1000).toFixed(2) + " s" : "FAILED"}`);
    }
    for (const t of tools) {
      rmSync(t.indexDir(scratch[t.name]), { recursive: true, force: true });
      const m = await measureSeq(t.full(scratch[t.name]), { env: t.env, timeoutMs });
      result.tools[t.name].full.push(brief(m));
      log(
        `  ${t.name.padEnd(7)} full  run ${r + 1}: ${m.ok ? (m.ms / 1000).toFixed(2) + " s, " + (m.rssKb / 1024).toFixed(0) + " MiB" : "FAILED (exit " + m.code + ")"}`,
      );
    }
  }
  for (const [name] of FLOORS) {
    const runs = floorRuns[name];
    if (!runs.length) continue;
    const ok = runs.filter((r) => r.ok);
    result[name === "floor" ? "floor" : "floorLiftoff"] = {
      runs,
      ...summarizeRuns(runs),
      files: ok[0]?.detail?.files ?? null,
      bytes: ok[0]?.detail?.bytes ?? null,
      parseMs: median(ok.map((r) => r.detail?.parseMs)),
      listMs: median(ok.map((r) => r.detail?.listMs)),
    };
  }

  const live = tools.filter((t) => result.tools[t.name].full.some((m) => m.ok));
  // The index as the last full run left it.
  for (const t of live) result.tools[t.name].stats = t.stats(scratch[t.name]);

  // A rebuild inside an initialised project (colby's `index`), where the tool has one.
  for (let r = 0; r < opts.runs; r++)
    for (const t of live.filter((t) => t.rebuild)) {
      const m = await measureSeq(t.rebuild(scratch[t.name]), { env: t.env, timeoutMs });
      result.tools[t.name].rebuild.push(brief(m));
    }

  // Sync with nothing changed.
  for (let r = 0; r < opts.runs; r++)
    for (const t of live) {
      const m = await measureSeq(t.sync(scratch[t.name]), { env: t.env, timeoutMs });
      result.tools[t.name].sync.push(brief(m));
    }
  log(
    `  sync (no change): ` +
      live.map((t) => `${t.name} ${fmtS(summarizeRuns(result.tools[t.name].sync).ms)}`).join(", "),
  );

  // Sync after appending a comment line to one source file; the file is restored and synced
  // again (not measured) before the next round.
  if (edit)
    for (let r = 0; r < opts.runs; r++)
      for (const t of live) {
        const file = join(scratch[t.name], edit.path);
        const original = readFileSync(file);
        const nl = original.length && original[original.length - 1] !== 0x0a ? "\n" : "";
        writeFileSync(
          file,
          Buffer.concat([original, Buffer.from(`${nl}${edit.comment} codegraph-bench edit ${r + 1}\n`)]),
        );
        let m;
        try {
          m = await measureSeq(t.sync(scratch[t.name]), { env: t.env, timeoutMs });
        } finally {
          writeFileSync(file, original);
        }
        result.tools[t.name].edit.push(brief(m));
        await measureSeq(t.sync(scratch[t.name]), { env: t.env, timeoutMs });
      }
  if (edit)
    log(
      `  sync (1 edit, ${edit.path}): ` +
        live.map((t) => `${t.name} ${fmtS(summarizeRuns(result.tools[t.name].edit).ms)}`).join(", "),
    );

  for (const t of tools) {
    const tr = result.tools[t.name];
    for (const k of ["full", "rebuild", "sync", "edit"]) tr[k + "Median"] = summarizeRuns(tr[k]);
    if (!opts.keep) rmSync(scratch[t.name], { recursive: true, force: true });
  }
  result.loadEnd = loadavg().map((x) => +x.toFixed(2));
  return result;
}

/**
 * The CLI ours is run from. By default a snapshot of dist/ (with package.json, which the CLI
 * reads for its version) in bench/.work/ours/, so a rebuild of dist/ during a long run cannot
 * change or break ours halfway; modules still resolve from /work/main/node_modules. With
 * --ours-live, or when the snapshot does not start, dist/cli/main.js itself.
 */
function oursMain(opts) {
  const live = join(ROOT, "dist", "cli", "main.js");
  if (opts.oursLive || !existsSync(live)) return live;
  const snap = join(WORK, "ours");
  rmSync(snap, { recursive: true, force: true });
  mkdirSync(snap, { recursive: true });
  cpSync(join(ROOT, "dist"), join(snap, "dist"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(snap, "package.json"));
  const main = join(snap, "dist", "cli", "main.js");
  const probe = spawnSync(process.execPath, [main, "--help"], { env: measuredEnv(), encoding: "utf8" });
  if (probe.status === 0 && /\binit\b/.test(probe.stdout)) {
    log(`ours: running a snapshot of dist/ in ${snap}`);
    return main;
  }
  log(`ours: the snapshot of dist/ does not start; running ${live} in place`);
  return live;
}

function fmtS(ms) {
  return ms == null ? "-" : (ms / 1000).toFixed(2) + " s";
}

async function main() {
  // --render FILE.json: rewrite FILE.md from a saved run (after a change to the report layout).
  if (process.argv[2] === "--render" && process.argv[3]) {
    const file = resolve(process.argv[3]);
    const md = renderMarkdown(JSON.parse(readFileSync(file, "utf8")));
    writeFileSync(file.replace(/\.json$/, ".md"), md);
    process.stdout.write(md);
    return;
  }
  // --mcp: the MCP server's start-up and tool latency against the peer (bench/mcp.mjs).
  // --daemon: save-to-query latency, idle cost and second-client attach against the peer (bench/daemon.mjs).
  // --load: serve --http under 50 concurrent clients, latency, throughput and RSS (bench/load.mjs).
  // --hook: the prompt hook, spawn to exit, per tier, cold and with a daemon (bench/hook.mjs).
  const dispatched = { "--mcp": "mcp.mjs", "--daemon": "daemon.mjs", "--load": "load.mjs", "--hook": "hook.mjs" };
  if (Object.hasOwn(dispatched, process.argv[2] ?? "")) {
    const script = dispatched[process.argv[2]];
    const r = spawnSync(process.execPath, [join(BENCH, script), ...process.argv.slice(3)], { stdio: "inherit" });
    process.exit(r.status ?? 1);
  }
  const opts = parseArgs(process.argv.slice(2));
  mkdirSync(join(WORK, "logs"), { recursive: true });
  mkdirSync(join(WORK, "corpora"), { recursive: true });
  log(
    `tiers ${opts.tiers.join(",")}, runs ${opts.runs}, tools ${opts.tools.join(",")}${opts.repos ? ", repos " + opts.repos.join(",") : ""}`,
  );
  if (!ensureGnuTime(log)) log("no /usr/bin/time: peak RSS comes from polling /proc only");

  // Peers and corpora: start both, wait for both.
  const wantPeers = opts.tools.some((t) => t === "colby" || t.startsWith("optave"));
  const peersP = wantPeers
    ? runScript(join(SHARED, "peers.sh"), [join(WORK, "peers")], "peers.log")
    : Promise.resolve({ code: 0, stdout: "" });
  const fetchP = (async () => {
    const out = {};
    for (const tier of opts.tiers) {
      const dest = join(WORK, "corpora", tier);
      if (!opts.fetch) {
        out[tier] = { code: existsSync(dest) ? 0 : 1, stderr: existsSync(dest) ? "" : `${dest} missing (--no-fetch)` };
        continue;
      }
      log(`fetching tier ${tier} into ${dest}`);
      out[tier] = await runScript(join(SHARED, "fetch-corpora.sh"), [tier, dest], `fetch-${tier}.log`);
    }
    return out;
  })();
  const [peersR, fetched] = await Promise.all([peersP, fetchP]);
  let harnessFailed = false;
  for (const [tier, r] of Object.entries(fetched))
    if (r.code !== 0) {
      log(
        `fetching tier ${tier} failed (see bench/.work/logs/fetch-${tier}.log): ${r.stderr.trim().split("\n").pop()}`,
      );
      harnessFailed = true;
    }
  const peers = parsePeersOutput(peersR.stdout);
  if (wantPeers && peersR.code !== 0)
    log(`peers.sh failed (see bench/.work/logs/peers.log); running without the peers it could not install`);

  const home = join(WORK, "peers", "home");
  const oursMainJs = opts.tools.includes("ours") ? oursMain(opts) : join(ROOT, "dist", "cli", "main.js");
  const candidates = {
    ours: oursTool(oursMainJs),
    colby: colbyTool(peers.colby, home),
    optave: optaveTool(peers.optave, home, null),
    "optave-wasm": optaveTool(peers.optave, home, "wasm"),
  };
  const tools = [];
  const missing = {};
  for (const name of opts.tools) {
    if (name.startsWith("floor")) continue;
    const t = candidates[name];
    if (t.available) tools.push(t);
    else {
      missing[name] = t.why;
      log(`${name}: not measured (${t.why})`);
    }
  }

  const machine = machineInfo();
  const report = {
    date: new Date().toISOString(),
    machine,
    oursMain: relative(ROOT, oursMainJs),
    options: { runs: opts.runs, tiers: opts.tiers, repos: opts.repos, tools: opts.tools },
    tools: Object.fromEntries(
      Object.values(candidates).map((t) => [
        t.name,
        { version: t.version, available: t.available && opts.tools.includes(t.name), why: missing[t.name] ?? null },
      ]),
    ),
    tiers: {},
  };

  for (const tier of opts.tiers) {
    if (fetched[tier]?.code !== 0) continue;
    const dir = join(WORK, "corpora", tier);
    let repos = listRepos(dir);
    if (opts.repos) {
      const unknown = opts.repos.filter((r) => !repos.includes(r));
      if (unknown.length) log(`tier ${tier}: no repo ${unknown.join(", ")} (has ${repos.join(", ")})`);
      repos = repos.filter((r) => opts.repos.includes(r));
    }
    report.tiers[tier] = { repos: {} };
    for (const repo of repos)
      report.tiers[tier].repos[repo] = await benchRepo(opts, tier, repo, join(dir, repo), tools);
  }
  machine.loadEnd = loadavg().map((x) => +x.toFixed(2));

  const md = renderMarkdown(report);
  const resultsDir = join(BENCH, "results");
  mkdirSync(resultsDir, { recursive: true });
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const base = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}${opts.label ? "-" + opts.label : ""}`;
  writeFileSync(join(resultsDir, base + ".md"), md);
  writeFileSync(join(resultsDir, base + ".json"), JSON.stringify(report, null, 2) + "\n");
  process.stdout.write(md);
  log(`wrote bench/results/${base}.md and .json`);
  if (harnessFailed) process.exit(1);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
