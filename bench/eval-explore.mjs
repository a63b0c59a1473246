#!/usr/bin/env node
// npm run eval:explore [-- options]     (npm run eval runs this after the call-edge eval)
//
// Retrieval quality of `codegraph_explore` over MCP, ours vs @colbymchenry/codegraph, on questions
// kept as data in bench/eval/explore-questions/<repo>.json (each with the files, symbols and
// defining lines a good answer must show, hand-checked against the corpus).
//
// Per repo: copy the corpus to bench/.work/scratch/eval-explore-<tool>/<repo>, index it with each
// tool, start one MCP server per tool (cwd = the repo, NODE_EXTRA_CA_CERTS unset), `initialize`,
// one unmeasured warm-up call, then --runs rounds over the questions (tools interleaved) calling
// codegraph_explore {query}. The first round's answers are scored (bench/eval/explore-score.mjs);
// latency is the median of the rounds.
//
//   --repos a,b         question files to run (default: every file in bench/eval/explore-questions)
//   --tools ours,colby  tools to compare (default both; colby is skipped when not installed)
//   --runs <n>          calls per question per tool, for the latency median (default 3)
//   --max-files <n>     pass maxFiles to both tools (default: unset, each tool's own default)
//   --no-index          reuse the scratch copies and their indexes from an earlier run
//   --ours-live         run dist/cli/main.js in place instead of a snapshot of dist/
//   --timeout <s>       per call (default 120)
//   --out <file>        Markdown report (default bench/results/eval-explore-<date>.md; JSON beside it)
//   --check             only validate the questions against the corpora, then exit
//   --self-test         check the answer parser and matcher on synthetic answers, then exit
//
// Raw answers go to bench/.work/eval-explore/answers/<repo>/<id>.<tool>.txt for reading by eye
// (never committed). Exit 0 whatever the scores; 1 on harness failure.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scoreAnswer, selfTestScorer } from "./eval/explore-score.mjs";
import { stopColbyDaemon as stopDaemon } from "./lib/peer-daemon.mjs";
import { measuredEnv, median } from "./lib/measure.mjs";
import { parsePeersOutput, peerEnv } from "./lib/tools.mjs";
import { onJsonLines } from "./lib/mcp-session.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");
const QUESTIONS = join(BENCH, "eval", "explore-questions");
const SHARED = "/work/shared/bench";
const ALL_TOOLS = ["ours", "colby"];

const log = (m) => process.stderr.write(`[eval:explore] ${m}\n`);

function parseArgs(argv) {
  const o = {
    repos: null,
    tools: ALL_TOOLS,
    runs: 3,
    maxFiles: null,
    index: true,
    oursLive: false,
    timeoutMs: 120_000,
    out: null,
    check: false,
    selfTest: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case "--repos":
        o.repos = val().split(",").filter(Boolean);
        break;
      case "--tools":
        o.tools = val().split(",").filter(Boolean);
        for (const t of o.tools) if (!ALL_TOOLS.includes(t)) throw new Error(`unknown tool ${t}`);
        break;
      case "--runs":
        o.runs = Math.max(1, Number(val()));
        break;
      case "--max-files":
        o.maxFiles = Number(val());
        break;
      case "--no-index":
        o.index = false;
        break;
      case "--ours-live":
        o.oursLive = true;
        break;
      case "--timeout":
        o.timeoutMs = Number(val()) * 1000;
        break;
      case "--out":
        o.out = resolve(val());
        break;
      case "--check":
        o.check = true;
        break;
      case "--self-test":
        o.selfTest = true;
        break;
      case "-h":
      case "--help":
        console.log(
          readFileSync(fileURLToPath(import.meta.url), "utf8")
            .split("\n")
            .filter((l) => l.startsWith("//"))
            .map((l) => l.slice(3))
            .join("\n"),
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${a}`);
    }
  }
  return o;
}

function localDate() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

const git = (dir, ...args) => {
  const r = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
};

// ---------------------------------------------------------------------------------------------
// Questions and corpora

function loadQuestionSets(only) {
  const files = readdirSync(QUESTIONS)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const sets = files.map((f) => {
    const set = JSON.parse(readFileSync(join(QUESTIONS, f), "utf8"));
    if (!set.repo || !set.tier || !Array.isArray(set.questions)) throw new Error(`${f}: needs repo, tier, questions`);
    return set;
  });
  if (!only) return sets;
  for (const r of only) if (!sets.some((s) => s.repo === r)) throw new Error(`no question file for repo ${r}`);
  return sets.filter((s) => only.includes(s.repo));
}

function corpusDir(set) {
  return join(WORK, "corpora", set.tier, set.repo);
}

function ensureCorpus(set) {
  const dir = corpusDir(set);
  if (existsSync(dir)) return dir;
  const fetch = join(SHARED, "fetch-corpora.sh");
  if (!existsSync(fetch)) throw new Error(`corpus missing (${dir}) and no ${fetch}`);
  log(`corpus missing; fetching: ${fetch} ${set.tier} ${dirname(dir)}`);
  const r = spawnSync("bash", [fetch, set.tier, dirname(dir)], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0 || !existsSync(dir)) throw new Error(`fetching the ${set.tier} tier failed`);
  return dir;
}

/** Reads repo files once; gives `isFile` and `fileLine` for the scorer. */
function repoReader(dir) {
  const cache = new Map();
  const lines = (p) => {
    if (!cache.has(p)) {
      let v = null;
      try {
        const full = join(dir, p);
        if (!relative(dir, full).startsWith("..") && statSync(full).isFile()) {
          v = readFileSync(full, "utf8").split("\n");
        }
      } catch {
        v = null;
      }
      cache.set(p, v);
    }
    return cache.get(p);
  };
  return {
    isFile: (p) => lines(p) !== null,
    fileLine: (p, n) => lines(p)?.[n - 1] ?? null,
  };
}

/** Each expected symbol's file must exist and its line must contain the symbol's last name part. */
function validate(set, reader) {
  const problems = [];
  const ids = new Set();
  for (const q of set.questions) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    if (!q.query || !Array.isArray(q.expect) || !q.expect.length) problems.push(`${q.id}: needs query and expect`);
    for (const e of q.expect ?? []) {
      const text = reader.fileLine(e.file, e.line);
      const name = e.symbol.split(".").pop();
      if (text === null) problems.push(`${q.id}: ${e.file}:${e.line} does not exist`);
      else if (!text.includes(name))
        problems.push(`${q.id}: ${e.file}:${e.line} does not mention ${name}: ${text.trim()}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Tools

/** Newest modification time of the files under dir (ms), 0 when empty. */
function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * A snapshot of dist/ so a rebuild by someone else during the run cannot change ours halfway.
 * Taken only from a quiet dist/ (nothing written in the last 3 s, nothing written during the
 * copy), so it is never half old build, half new. Returns the CLI and the build's time.
 */
function oursMain(live) {
  const dist = join(ROOT, "dist");
  const main = join(dist, "cli", "main.js");
  if (!existsSync(main)) throw new Error(`${main} not built (npm run build)`);
  if (live) return { main, built: newestMtime(dist) };
  const snap = join(WORK, "ours-eval-explore");
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = newestMtime(dist);
    if (Date.now() - before < 3000) {
      spawnSync("sleep", ["1"]);
      continue;
    }
    rmSync(snap, { recursive: true, force: true });
    mkdirSync(snap, { recursive: true });
    cpSync(dist, join(snap, "dist"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(snap, "package.json"));
    if (newestMtime(dist) !== before) continue;
    const copy = join(snap, "dist", "cli", "main.js");
    const probe = spawnSync(process.execPath, [copy, "--help"], { env: measuredEnv(), encoding: "utf8" });
    if (probe.status === 0 && /\bserve\b/.test(probe.stdout)) return { main: copy, built: before };
    break;
  }
  log("no quiet, working snapshot of dist/; running dist/cli/main.js in place");
  return { main, built: newestMtime(dist) };
}

function toolSpecs(opts) {
  const specs = {};
  if (opts.tools.includes("ours")) {
    const { main, built } = oursMain(opts.oursLive);
    const env = measuredEnv();
    const v = spawnSync(process.execPath, [main, "--version"], { env, encoding: "utf8" });
    specs.ours = {
      name: "ours",
      version: v.status === 0 ? v.stdout.trim() : null,
      built: new Date(built).toISOString().replace(/\.\d+Z$/, "Z"),
      env,
      init: (dir) => [process.execPath, [main, "init", dir]],
      serve: [process.execPath, [main, "serve", "--mcp"]],
    };
  }
  if (opts.tools.includes("colby")) {
    const peersSh = join(SHARED, "peers.sh");
    const out = existsSync(peersSh)
      ? (spawnSync(peersSh, [join(WORK, "peers")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).stdout ??
        "")
      : "";
    const colby = parsePeersOutput(out).colby;
    if (colby && existsSync(colby.cli)) {
      specs.colby = {
        name: "colby",
        version: colby.version,
        env: peerEnv(join(WORK, "peers", "home")),
        init: (dir) => [colby.cli, ["init", "-y", dir]],
        serve: [colby.cli, ["serve", "--mcp"]],
      };
    } else log("colby is not installed (peers.sh); measuring ours only");
  }
  return specs;
}

function prepareRepo(spec, set, src, index) {
  const dir = join(WORK, "scratch", `eval-explore-${spec.name}`, set.repo);
  if (!index) {
    if (!existsSync(join(dir, ".codegraph"))) throw new Error(`--no-index: ${dir} has no index`);
    return { dir, indexMs: null };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  cpSync(src, dir, { recursive: true });
  const [cmd, args] = spec.init(dir);
  log(`${spec.name}: indexing ${relative(ROOT, dir)}`);
  const t = performance.now();
  const r = spawnSync(cmd, args, { env: spec.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const indexMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`${spec.name} init failed: ${(r.stderr || r.stdout || "").slice(-600)}`);
  return { dir, indexMs };
}

/** One MCP server over newline-delimited JSON-RPC on stdio. */
function startServer(spec, cwd, timeoutMs) {
  const [cmd, args] = spec.serve;
  // Its own process group: colby's npm bin is a launcher whose child (the real server) outlives
  // both the end of stdin and a signal to the launcher alone.
  const child = spawn(cmd, args, { cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  live.add(child.pid);
  let errTail = "";
  const pending = new Map();
  let exited = false;
  onJsonLines(child.stdout, (msg) => {
    const p = pending.get(msg.id);
    if (p) {
      pending.delete(msg.id);
      p.resolve(msg);
    }
  });
  child.stderr.on("data", (d) => {
    errTail = (errTail + d.toString()).slice(-2000);
  });
  child.on("exit", (code, signal) => {
    exited = true;
    for (const p of pending.values()) p.reject(new Error(`server exited (${code ?? signal}): ${errTail.slice(-300)}`));
    pending.clear();
  });
  let next = 1;
  return {
    child,
    request(method, params) {
      if (exited) return Promise.reject(new Error(`server has exited: ${errTail.slice(-300)}`));
      const id = next++;
      return new Promise((res, rej) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          rej(new Error(`${method} timed out after ${timeoutMs / 1000} s`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (m) => {
            clearTimeout(timer);
            res(m);
          },
          reject: (e) => {
            clearTimeout(timer);
            rej(e);
          },
        });
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
    },
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once("exit", r));
        child.stdin.end();
        await Promise.race([gone, sleep(2000)]);
      }
      await stopGroup(child.pid);
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Process groups of the servers this run started (each led by the spawned command's pid). */
const live = new Set();

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a server's process group: SIGTERM, then SIGKILL after 5 s. */
async function stopGroup(pgid) {
  for (const [signal, wait] of [
    ["SIGTERM", 5000],
    ["SIGKILL", 2000],
  ]) {
    if (!groupAlive(pgid)) break;
    try {
      process.kill(-pgid, signal);
    } catch {
      break;
    }
    for (let t = 0; t < wait && groupAlive(pgid); t += 50) await sleep(50);
  }
  live.delete(pgid);
}

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    for (const pgid of live) {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "eval-explore", version: "1" } };

async function openSession(spec, dir, timeoutMs) {
  const s = startServer(spec, dir, timeoutMs);
  const init = await s.request("initialize", INIT);
  if (init.error) throw new Error(`${spec.name} initialize: ${init.error.message}`);
  s.notify("notifications/initialized");
  const list = await s.request("tools/list", {});
  const tool = list.result?.tools?.find((t) => t.name === "codegraph_explore");
  if (!tool) throw new Error(`${spec.name} lists no codegraph_explore tool`);
  if (!tool.inputSchema?.properties?.query) throw new Error(`${spec.name}'s codegraph_explore takes no query`);
  const maxFilesDefault = tool.inputSchema.properties.maxFiles?.default ?? null;
  return { s, maxFilesDefault, serverInfo: init.result?.serverInfo ?? null };
}

async function explore(session, query, maxFiles) {
  const args = maxFiles ? { query, maxFiles } : { query };
  const t = performance.now();
  let text;
  let error = null;
  try {
    const r = await session.s.request("tools/call", { name: "codegraph_explore", arguments: args });
    if (r.error) error = r.error.message ?? "JSON-RPC error";
    text = (r.result?.content ?? [])
      .filter((c) => c.type === "text")
      .map((c) => c.text)
      .join("\n");
    if (r.result?.isError) error = text.slice(0, 200) || "isError";
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    text = "";
  }
  return { ms: performance.now() - t, text, error };
}

// ---------------------------------------------------------------------------------------------
// Run

async function runRepo(set, specs, opts, answersDir) {
  const src = ensureCorpus(set);
  const reader = repoReader(src);
  const tools = Object.values(specs);
  const prepared = {};
  for (const spec of tools) prepared[spec.name] = prepareRepo(spec, set, src, opts.index);
  const sessions = {};
  const warmMs = {};
  try {
    for (const spec of tools) {
      sessions[spec.name] = await openSession(spec, prepared[spec.name].dir, opts.timeoutMs);
      // Opening the index and warming caches is paid once per session: measured apart.
      warmMs[spec.name] = (await explore(sessions[spec.name], set.questions[0].query, opts.maxFiles)).ms;
    }
    const calls = Object.fromEntries(
      set.questions.map((q) => [q.id, Object.fromEntries(tools.map((t) => [t.name, []]))]),
    );
    for (let run = 0; run < opts.runs; run++) {
      log(`${set.repo}: round ${run + 1}/${opts.runs}`);
      for (const q of set.questions) {
        // Alternate which tool goes first so load drift hits both alike.
        const order = (run + set.questions.indexOf(q)) % 2 ? [...tools].reverse() : tools;
        for (const spec of order)
          calls[q.id][spec.name].push(await explore(sessions[spec.name], q.query, opts.maxFiles));
      }
    }
    rmSync(join(answersDir, set.repo), { recursive: true, force: true });
    mkdirSync(join(answersDir, set.repo), { recursive: true });
    const questions = set.questions.map((q) => {
      const per = {};
      for (const spec of tools) {
        const runs = calls[q.id][spec.name];
        const first = runs[0];
        writeFileSync(join(answersDir, set.repo, `${q.id}.${spec.name}.txt`), first.text);
        const score = scoreAnswer(first.text, q.expect, reader.isFile, reader.fileLine);
        per[spec.name] = {
          ...score,
          error: first.error,
          msMedian: median(runs.map((r) => r.ms)),
          ms: runs.map((r) => +r.ms.toFixed(1)),
          stable: runs.every((r) => r.text === first.text),
        };
      }
      return { id: q.id, kind: q.kind, query: q.query, expect: q.expect, tools: per };
    });
    return {
      repo: set.repo,
      tier: set.tier,
      corpus: set.corpus ?? null,
      corpusRev: git(src, "rev-parse", "HEAD"),
      index: Object.fromEntries(tools.map((t) => [t.name, { ms: prepared[t.name].indexMs }])),
      warmMs,
      maxFilesDefault: Object.fromEntries(tools.map((t) => [t.name, sessions[t.name].maxFilesDefault])),
      questions,
    };
  } finally {
    for (const s of Object.values(sessions)) await s.s.stop();
    for (const spec of tools) if (prepared[spec.name]) await stopDaemon(prepared[spec.name].dir);
  }
}

// ---------------------------------------------------------------------------------------------
// Summary and report

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

function summarize(questions, tool) {
  const per = questions.map((q) => q.tools[tool]).filter(Boolean);
  if (!per.length) return null;
  return {
    questions: per.length,
    symbolRecall: mean(per.map((p) => p.symbolRecall)),
    namedRecall: mean(per.map((p) => p.namedRecall)),
    fileRecall: mean(per.map((p) => p.fileRecall)),
    fullyAnswered: per.filter((p) => p.symbolRecall === 1).length,
    relevantShare: mean(per.map((p) => p.relevantShare)),
    tokensMean: mean(per.map((p) => p.tokens)),
    tokensMedian: median(per.map((p) => p.tokens)),
    msMedian: median(per.map((p) => p.msMedian)),
    errors: per.filter((p) => p.error).length,
  };
}

const pct = (x) => (x == null ? "—" : `${(100 * x).toFixed(0)}%`);
const num = (x) => (x == null ? "—" : Math.round(x).toLocaleString("en-US"));
const ms = (x) => (x == null ? "—" : x < 10 ? x.toFixed(1) : x.toFixed(0));
const ratio = (a, b) => (a == null || b == null || !b ? "—" : `${(a / b).toFixed(2)}×`);
const pts = (a, b) => (a == null || b == null ? "—" : `${a >= b ? "+" : ""}${(100 * (a - b)).toFixed(0)}`);
const cell = (s, max = 80) => {
  const one = s.replace(/\s*\n\s*/g, " ⏎ ").replace(/\|/g, "\\|");
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

function renderMarkdown(result) {
  const { ctx, repos, overall } = result;
  const tools = ctx.tools;
  const both = tools.includes("ours") && tools.includes("colby");
  const L = [];
  L.push(`# Explore retrieval evaluation — ${ctx.date}`, "");
  L.push(
    `\`codegraph_explore\` over MCP, ${both ? "ours vs @colbymchenry/codegraph" : tools.join(", ")}, on ${overall.ours?.questions ?? overall.colby?.questions} hand-checked questions ` +
      `(bench/eval/explore-questions/). Command: \`${ctx.command}\`.`,
    "",
  );
  L.push(
    `- ours: codegraph ${ctx.versions.ours ?? "?"} at ${ctx.codegraphRev?.slice(0, 10) ?? "?"}${ctx.dirty ? " (src/ had uncommitted changes)" : ""}, dist/ built ${ctx.oursBuilt ?? "?"}` +
      `; colby: ${ctx.versions.colby ? `@colbymchenry/codegraph ${ctx.versions.colby}` : "not run"}.`,
    `- Corpora: ${repos.map((r) => `${r.tier}/${r.repo} (${r.corpus ?? "?"})`).join("; ")}.`,
    `- Arguments: \`{query}\`${ctx.maxFiles ? ` and maxFiles ${ctx.maxFiles}` : ""} only, so each tool uses its own defaults (maxFiles ours ${repos[0]?.maxFilesDefault.ours ?? "—"}, colby ${repos[0]?.maxFilesDefault.colby ?? "—"}).`,
    `- Latency: round trip over stdio, median of ${ctx.runs} calls per question (rounds interleaved across questions and tools, after one unmeasured warm-up call per server); a repo's figure is the median of its questions' medians. NODE_EXTRA_CA_CERTS unset. Machine: ${ctx.machine}.`,
    "- Scores come from the first round's answer (the rules are at the end).",
    "",
  );

  if (both) {
    const o = overall.ours;
    const c = overall.colby;
    const medium = result.mediumMs;
    L.push("## Targets (ours)", "");
    L.push("| target | measured | met |", "|---|---|:-:|");
    L.push(
      `| symbol recall ≥ colby + 10 points | ${pct(o.symbolRecall)} vs ${pct(c.symbolRecall)} (${pts(o.symbolRecall, c.symbolRecall)} points) | ${o.symbolRecall - c.symbolRecall >= 0.1 ? "yes" : "no"} |`,
      `| output ≤ 70% of colby's on average | ${num(o.tokensMean)} vs ${num(c.tokensMean)} tokens (${ratio(o.tokensMean, c.tokensMean)}) | ${o.tokensMean <= 0.7 * c.tokensMean ? "yes" : "no"} |`,
      `| median explore < 100 ms on the medium tier | ${ms(medium)} ms | ${medium != null && medium < 100 ? "yes" : "no"} |`,
      "",
    );
  }

  L.push("## Overall and per repo", "");
  const head = [
    "repo",
    "questions",
    ...tools.flatMap((t) => [`symbol recall ${t}`]),
    ...(both ? ["Δ points"] : []),
    ...tools.map((t) => `fully answered ${t}`),
    ...tools.map((t) => `named ${t}`),
    ...tools.map((t) => `file recall ${t}`),
    ...tools.map((t) => `relevant share ${t}`),
    ...tools.map((t) => `tokens mean ${t}`),
    ...(both ? ["tokens ours/colby"] : []),
    ...tools.map((t) => `ms median ${t}`),
    ...(both ? ["ms ours/colby"] : []),
  ];
  L.push(`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
  const row = (name, s) => {
    const cells = [
      name,
      String(s[tools[0]].questions),
      ...tools.map((t) => pct(s[t].symbolRecall)),
      ...(both ? [pts(s.ours.symbolRecall, s.colby.symbolRecall)] : []),
      ...tools.map((t) => `${s[t].fullyAnswered}/${s[t].questions}`),
      ...tools.map((t) => pct(s[t].namedRecall)),
      ...tools.map((t) => pct(s[t].fileRecall)),
      ...tools.map((t) => pct(s[t].relevantShare)),
      ...tools.map((t) => num(s[t].tokensMean)),
      ...(both ? [ratio(s.ours.tokensMean, s.colby.tokensMean)] : []),
      ...tools.map((t) => ms(s[t].msMedian)),
      ...(both ? [ratio(s.ours.msMedian, s.colby.msMedian)] : []),
    ];
    L.push(`| ${cells.join(" | ")} |`);
  };
  for (const r of repos) row(r.repo, r.summary);
  row("**all**", overall);
  L.push("");
  const errs = tools.filter((t) => overall[t].errors);
  if (errs.length)
    L.push(`Errors: ${errs.map((t) => `${t} ${overall[t].errors}`).join(", ")} (scored as empty answers).`, "");

  L.push("## Index and warm-up", "");
  L.push(
    `| repo | ${tools.map((t) => `index ${t} (s)`).join(" | ")} | ${tools.map((t) => `first call ${t} (ms)`).join(" | ")} |`,
    `|---|${tools.map(() => "---:").join("|")}|${tools.map(() => "---:").join("|")}|`,
  );
  for (const r of repos) {
    L.push(
      `| ${r.repo} | ${tools.map((t) => (r.index[t].ms == null ? "reused" : (r.index[t].ms / 1000).toFixed(1))).join(" | ")} | ${tools.map((t) => ms(r.warmMs[t])).join(" | ")} |`,
    );
  }
  L.push("");

  L.push("## Per question", "");
  L.push(
    "Symbol and file recall as found/expected; tokens = characters / 4; ms = median.",
    "",
    `| id | kind | question | ${tools.map((t) => `symbols ${t}`).join(" | ")} | ${tools.map((t) => `files ${t}`).join(" | ")} | ${tools.map((t) => `tokens ${t}`).join(" | ")} | ${tools.map((t) => `ms ${t}`).join(" | ")} |`,
    `|---|---|---|${tools.map(() => ":-:").join("|")}|${tools.map(() => ":-:").join("|")}|${tools.map(() => "---:").join("|")}|${tools.map(() => "---:").join("|")}|`,
  );
  const frac = (list) => `${list.filter((x) => x.found).length}/${list.length}`;
  for (const r of repos) {
    for (const q of r.questions) {
      const t = q.tools;
      L.push(
        `| ${q.id} | ${q.kind} | ${cell(q.query)} | ${tools.map((n) => frac(t[n].symbols) + (t[n].error ? " (error)" : "")).join(" | ")} | ${tools.map((n) => frac(t[n].files)).join(" | ")} | ${tools.map((n) => num(t[n].tokens)).join(" | ")} | ${tools.map((n) => ms(t[n].msMedian)).join(" | ")} |`,
      );
    }
  }
  L.push("");

  if (both) {
    const failed = repos
      .flatMap((r) => r.questions)
      .filter((q) => q.tools.ours.symbolRecall < 1 && q.tools.colby.symbolRecall < 1);
    L.push("## Where both tools fail", "");
    if (!failed.length) L.push("None: every question is fully answered by at least one tool.");
    else {
      L.push(
        'Questions neither tool answers in full (**bold**: neither shows any expected symbol). Per tool, the expected symbols whose source it does not show; *named* marks one it names with its file (a caller list, a "not shown" list) without its source.',
        "",
        "| id | question | ours does not show | colby does not show |",
        "|---|---|---|---|",
      );
      const misses = (t) =>
        t.symbols
          .filter((x) => !x.found)
          .map((x) => `${x.symbol}:${x.line}${x.named ? " *named*" : ""}`)
          .join(", ") || "—";
      for (const q of failed) {
        const none = q.tools.ours.symbolRecall === 0 && q.tools.colby.symbolRecall === 0;
        L.push(
          `| ${none ? `**${q.id}**` : q.id} | ${cell(q.query, 70)} | ${misses(q.tools.ours)} | ${misses(q.tools.colby)} |`,
        );
      }
    }
    L.push("");
  }

  L.push(
    "## Scoring rules",
    "",
    "- **Sections.** An answer is split into file sections: ours' `## <path>` and colby's ``**`<path>`**`` headings, when the path is a file of the repo. A section ends at the next line starting with `## ` or `**` (every heading or bold paragraph of either tool) and its span runs from the heading to its last source line (a numbered line, a code fence, a cut or gap marker), so prose after it is not counted.",
    '- **Symbol recall.** An expected symbol is found when a section of its expected file shows its defining line: a numbered line (`<n>  code` in ours, `<n>\\tcode` in colby) whose number is the expected line and whose text equals that line of the file (whitespace-trimmed). Names in summaries, relationship lists, blast radius or "not shown" lists never count. The defining line is the one carrying the name (`def filter(`, `export function mergeMap<…>(`, `final V putVal(`), not a decorator or Javadoc; for TypeScript overloads the implementation signature. Per question: found/expected; per repo: the mean over its questions.',
    "- **Named** (secondary). An expected symbol is named when some line of the answer holds its expected file's path and, outside the path, its name as a word: the tool found it but may not have shown its source.",
    "- **File recall.** An expected file (a file of some expected symbol) is found when the answer has a section for it with at least one numbered line.",
    "- **Relevant share.** Characters of the sections of expected files / characters of the whole answer (all text content items joined with newlines), averaged over questions.",
    "- **Tokens.** Characters of the whole answer / 4, averaged over questions; the ratio is of the means (ours total / colby total).",
    "- **Latency.** Wall time of the `tools/call` round trip over stdio.",
    "",
  );
  return `${L.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.selfTest) {
    const failures = selfTestScorer();
    if (failures.length) {
      console.error(`[eval:explore] self-test FAILED:\n  ${failures.join("\n  ")}`);
      process.exit(1);
    }
    console.log("[eval:explore] self-test passed");
    return;
  }
  const sets = loadQuestionSets(opts.repos);
  let problems = [];
  for (const set of sets) problems = problems.concat(validate(set, repoReader(ensureCorpus(set))));
  if (problems.length) throw new Error(`questions do not match the corpora:\n  ${problems.join("\n  ")}`);
  log(
    `${sets.reduce((n, s) => n + s.questions.length, 0)} questions in ${sets.map((s) => `${s.repo} (${s.questions.length})`).join(", ")} match the corpora`,
  );
  if (opts.check) return;

  const specs = toolSpecs(opts);
  if (!Object.keys(specs).length) throw new Error("no tool to run");
  const answersDir = join(WORK, "eval-explore", "answers");
  const repos = [];
  for (const set of sets) {
    const r = await runRepo(set, specs, opts, answersDir);
    r.summary = Object.fromEntries(Object.keys(specs).map((t) => [t, summarize(r.questions, t)]));
    repos.push(r);
    const line = Object.keys(specs)
      .map(
        (t) =>
          `${t} recall ${pct(r.summary[t].symbolRecall)}, ${num(r.summary[t].tokensMean)} tokens, ${ms(r.summary[t].msMedian)} ms`,
      )
      .join("; ");
    log(`${set.repo}: ${line}`);
  }
  const allQuestions = repos.flatMap((r) => r.questions);
  const overall = Object.fromEntries(Object.keys(specs).map((t) => [t, summarize(allQuestions, t)]));
  const mediumQs = repos.filter((r) => r.tier === "medium").flatMap((r) => r.questions);
  const mediumMs = specs.ours && mediumQs.length ? median(mediumQs.map((q) => q.tools.ours.msMedian)) : null;

  const date = localDate();
  const ctx = {
    date,
    command: `node bench/eval-explore.mjs ${process.argv.slice(2).join(" ")}`.trim(),
    tools: Object.keys(specs),
    versions: Object.fromEntries(Object.values(specs).map((s) => [s.name, s.version])),
    oursBuilt: specs.ours?.built ?? null,
    codegraphRev: git(ROOT, "rev-parse", "HEAD"),
    dirty: !!git(ROOT, "status", "--porcelain", "--untracked-files=no", "src"),
    runs: opts.runs,
    maxFiles: opts.maxFiles,
    machine: `${cpus().length} cores, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" / ")}, Node ${process.version}`,
  };
  const result = { ctx, repos, overall, mediumMs };
  const out = opts.out ?? join(BENCH, "results", `eval-explore-${date}.md`);
  mkdirSync(dirname(out), { recursive: true });
  const md = renderMarkdown(result);
  writeFileSync(out, md);
  // The JSON keeps sizes, scores and timings, never the answers themselves.
  const jsonOut = out.replace(/\.md$/, "") + ".json";
  writeFileSync(jsonOut, `${JSON.stringify(result, null, 1)}\n`);
  process.stdout.write(md);
  log(
    `wrote ${relative(process.cwd(), out)} and ${basename(jsonOut)}; answers in ${relative(process.cwd(), answersDir)}/`,
  );
}

main().catch((err) => {
  console.error(`[eval:explore] harness failure: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
