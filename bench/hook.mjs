#!/usr/bin/env node
// Prompt-hook benchmark: `npm run bench -- --hook` (or node bench/hook.mjs).
//
//   node bench/hook.mjs [--repo django] [--tier medium] [--runs 15] [--no-peer] [--no-index]
//
// The whole `codegraph prompt-hook` process, spawn to exit, as Claude Code runs it (the JSON
// payload on stdin, NODE_EXTRA_CA_CERTS unset), on a copy of one corpus repo:
//   - silent: ordinary prose ("please fix this typo"), which the gate looks up and declines;
//   - notification: a host <task-notification>, declined before any lookup;
//   - hint: prose that spells indexed type names;
//   - full, cold: a structural question answered in-process (no daemon running);
//   - full, warm: the same with the project's daemon running (`daemon --no-watch`), which answers it.
// Each case once unmeasured, then --runs rounds with the cases interleaved; medians, and peak RSS
// (GNU time's max RSS, or the /proc poll). With the peer installed (/work/shared/bench/peers.sh),
// @colbymchenry/codegraph's own `prompt-hook` on its own copy with the same prompts, for comparison.
// Targets (issue 8): silent < 80 ms, hint < 120 ms, full < 300 ms (medians).
// Writes bench/results/<date>-hook-<repo>.md (and .json).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { prepareCopy } from "./lib/mcp-session.mjs";
import { ensureGnuTime, measure, measuredEnv, median } from "./lib/measure.mjs";
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
const runs = Number(opt("runs", "15"));
const withPeer = !args.includes("--no-peer");
const log = (m) => process.stderr.write(`[bench:hook] ${m}\n`);

/** Per repo: prose that spells a type's name, and a structural question about real code. */
const PROMPTS = {
  django: {
    hint: "the csrf view middleware keeps rejecting my form posts",
    full: "how does the csrf middleware validate the token on a POST request?",
  },
  "go-stdlib": {
    hint: "the string builder grows too often",
    full: "how does the http server handle a request?",
  },
};
const prompts = PROMPTS[repo] ?? { hint: "the request handler is slow", full: "how does the request handler work?" };
const CASES = [
  { name: "silent", prompt: "please fix this typo", expect: "silent", target: 80 },
  {
    name: "notification",
    prompt: `<task-notification>\n<status>completed</status>\n<summary>${prompts.full}</summary>\n</task-notification>`,
    expect: "silent",
    target: 80,
  },
  { name: "hint", prompt: prompts.hint, expect: "hint", target: 120 },
  { name: "full (cold)", prompt: prompts.full, expect: "full", target: 300, daemon: false },
  { name: "full (warm daemon)", prompt: prompts.full, expect: "full", target: 300, daemon: true },
];

const payload = (dir, prompt) =>
  JSON.stringify({ session_id: "bench", cwd: dir, hook_event_name: "UserPromptSubmit", prompt });

function ourTier(stdout) {
  if (!stdout) return "silent";
  if (stdout.startsWith("codegraph: words in this prompt")) return "hint";
  if (stdout.startsWith("codegraph: the code this prompt")) return "full";
  return "other";
}

/** Our daemon for `dir`, started as `serve --mcp` would (detached), stopped by its pid. */
async function startDaemon(dir) {
  const child = spawn(process.execPath, [MAIN, "daemon", "--path", dir, "--no-watch"], {
    cwd: dir,
    env: measuredEnv(),
    stdio: "ignore",
    detached: true,
  });
  const sock = join(dir, ".codegraph", "daemon.sock");
  for (let i = 0; i < 400 && !existsSync(sock); i++) await sleep(50);
  if (!existsSync(sock)) throw new Error("the daemon did not start; see .codegraph/daemon.log");
  return {
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    },
  };
}

async function measureOurs(dir) {
  const out = {};
  for (const c of CASES) out[c.name] = { runs: [], tiers: new Set(), why: new Set(), bytes: 0 };
  const env = measuredEnv({ CODEGRAPH_DEBUG: "1" });
  delete env.CODEGRAPH_NO_PROMPT_HOOK;
  delete env.CODEGRAPH_PROMPT_HOOK;
  const once = async (c, record) => {
    const m = await measure(process.execPath, [MAIN, "prompt-hook"], {
      cwd: dir,
      env,
      input: payload(dir, c.prompt),
      timeoutMs: 30_000,
    });
    if (!record) return;
    const o = out[c.name];
    o.runs.push({ ok: m.ok, ms: m.ms, rssKb: m.rssKb });
    o.tiers.add(ourTier(m.stdout));
    o.why.add(m.stderr.trim().replace(/^codegraph prompt-hook: /, ""));
    o.bytes = Buffer.byteLength(m.stdout);
  };
  // Cold cases first, then the daemon's; each group warmed once and interleaved within itself.
  for (const warm of [false, true]) {
    const group = CASES.filter((c) => Boolean(c.daemon) === warm);
    const daemon = warm ? await startDaemon(dir) : null;
    try {
      for (const c of group) await once(c, false);
      for (let r = 0; r < runs; r++) for (const c of group) await once(c, true);
    } finally {
      await daemon?.stop();
    }
  }
  return out;
}

async function measurePeer(peer, dir) {
  const env = peerEnv(join(WORK, "peers", "home"));
  const out = {};
  const cases = CASES.filter((c) => !c.daemon);
  for (const c of cases) out[c.name] = { runs: [], bytes: 0 };
  const once = (c) =>
    measure(peer.cli, ["prompt-hook"], { cwd: dir, env, input: payload(dir, c.prompt), timeoutMs: 60_000 });
  for (const c of cases) await once(c);
  for (let r = 0; r < runs; r++)
    for (const c of cases) {
      const m = await once(c);
      out[c.name].runs.push({ ok: m.ok, ms: m.ms, rssKb: m.rssKb });
      out[c.name].bytes = Buffer.byteLength(m.stdout);
    }
  await stopColbyDaemon(dir); // should its hook have started one
  return out;
}

const fmtMs = (x) => (x == null ? "–" : `${x.toFixed(0)} ms`);
const fmtMiB = (kb) => (kb == null ? "–" : `${(kb / 1024).toFixed(0)} MiB`);

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  if (!ensureGnuTime(log)) log("no /usr/bin/time: peak RSS comes from polling /proc only");
  const env = measuredEnv();
  const scratch = join(WORK, "scratch", "hook-ours", repo);
  const dir =
    args.includes("--no-index") && existsSync(join(scratch, ".codegraph", "graph.db"))
      ? scratch
      : prepareCopy({
          work: WORK,
          tier,
          repo,
          name: "hook-ours",
          initCmd: (d) => [process.execPath, [MAIN, "init", d]],
          env,
          log,
        });
  const loadStart = loadavg().map((x) => +x.toFixed(2));
  log(`ours: ${runs} runs of ${CASES.length} cases on ${dir}`);
  const ours = await measureOurs(dir);

  let peer = null;
  let peerResults = null;
  if (withPeer) {
    const peers = parsePeersOutput(
      spawnSync("/work/shared/bench/peers.sh", [join(WORK, "peers")], { encoding: "utf8" }).stdout ?? "",
    );
    if (peers.colby) {
      peer = peers.colby;
      const penv = peerEnv(join(WORK, "peers", "home"));
      const pdir = prepareCopy({
        work: WORK,
        tier,
        repo,
        name: "hook-colby",
        initCmd: (d) => [peer.cli, ["init", "-y", d]],
        env: penv,
        log,
      });
      log(`colby ${peer.version}: ${runs} runs on ${pdir}`);
      peerResults = await measurePeer(peer, pdir);
    } else log("the peer is not installed; measuring ours only");
  }
  const loadEnd = loadavg().map((x) => +x.toFixed(2));

  const rows = CASES.map((c) => {
    const o = ours[c.name];
    const ok = o.runs.filter((r) => r.ok);
    const ms = median(ok.map((r) => r.ms));
    const p = peerResults?.[c.name];
    const pok = p?.runs.filter((r) => r.ok) ?? [];
    return {
      case: c.name,
      target: c.target,
      ms,
      min: Math.min(...ok.map((r) => r.ms)),
      max: Math.max(...ok.map((r) => r.ms)),
      rssKb: median(ok.map((r) => r.rssKb)),
      bytes: o.bytes,
      tiers: [...o.tiers],
      why: [...o.why],
      expected: c.expect,
      failed: o.runs.length - ok.length,
      peerMs: p ? median(pok.map((r) => r.ms)) : null,
      peerRssKb: p ? median(pok.map((r) => r.rssKb)) : null,
      peerBytes: p?.bytes ?? null,
    };
  });

  const date = new Date().toISOString().slice(0, 10);
  const md = [
    `# Prompt hook: spawn to exit (${date})`,
    "",
    `${tier}/${repo}, ${runs} runs per case (after one unmeasured), cases interleaved. Node ${process.version}, ` +
      `${cpus().length} cores (${cpus()[0]?.model ?? "?"}), load ${loadStart.join(" ")} → ${loadEnd.join(" ")}. ` +
      "NODE_EXTRA_CA_CERTS unset. Wall time from spawn (under /usr/bin/time) to exit.",
    "",
    `| case | median | min–max | target | peak RSS | output bytes | tier |${peer ? ` colby ${peer.version} median | colby RSS | colby bytes |` : ""}`,
    `| --- | ---: | ---: | ---: | ---: | ---: | --- |${peer ? " ---: | ---: | ---: |" : ""}`,
    ...rows.map(
      (r) =>
        `| ${r.case} | ${fmtMs(r.ms)} | ${fmtMs(r.min)}–${fmtMs(r.max)} | < ${r.target} ms ${r.ms != null && r.ms < r.target ? "✓" : "✗"} | ` +
        `${fmtMiB(r.rssKb)} | ${r.bytes} | ${r.tiers.join(", ")}${r.tiers.length === 1 && r.tiers[0] === r.expected ? "" : ` (expected ${r.expected})`} |` +
        (peer ? ` ${r.peerMs == null ? "–" : fmtMs(r.peerMs)} | ${fmtMiB(r.peerRssKb)} | ${r.peerBytes ?? "–"} |` : ""),
    ),
    "",
    "Why each case answered as it did (CODEGRAPH_DEBUG):",
    "",
    ...rows.map((r) => `- ${r.case}: ${r.why.join("; ")}`),
    "",
  ].join("\n");
  const resultsDir = join(BENCH, "results");
  mkdirSync(resultsDir, { recursive: true });
  const base = join(resultsDir, `${date}-hook-${repo}`);
  writeFileSync(`${base}.md`, md);
  writeFileSync(
    `${base}.json`,
    JSON.stringify({ date, tier, repo, runs, loadStart, loadEnd, peer, rows }, null, 2) + "\n",
  );
  process.stdout.write(md);
  log(`wrote ${base}.md`);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
