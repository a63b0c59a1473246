#!/usr/bin/env node
// npm run eval:prompt-hook [-- options]     (npm run eval runs it after the other evals)
//
// Precision and recall of each tier of the prompt hook (full context, hint, silent) on the labelled
// prompts in bench/eval/prompt-hook/prompts.jsonl, against the medium corpus's Django.
//
// Copies bench/.work/corpora/medium/django to bench/.work/scratch/eval-prompt-hook/django (fetching
// the tier first if it is missing), indexes the copy, then runs the built CLI once per prompt as
// Claude Code would: `codegraph prompt-hook` with the {prompt, cwd} payload on stdin, no daemon,
// CODEGRAPH_DEBUG=1 for the reason on stderr. The tier is read from what it prints: nothing is
// silent, the hint's header is a hint, explore's preface is full context.
//
//   --no-index     reuse the scratch copy and its index from an earlier run
//   --out <file>   Markdown report (default bench/results/eval-prompt-hook-<date>.md; JSON beside it)
//
// Exit 0 whatever the scores; 1 on harness failure.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measuredEnv, median } from "./lib/measure.mjs";
import { optionReader } from "./lib/args.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WORK = join(BENCH, ".work");
const MAIN = join(ROOT, "dist", "cli", "main.js");
const PROMPTS = join(BENCH, "eval", "prompt-hook", "prompts.jsonl");
const FETCH = "/work/shared/bench/fetch-corpora.sh";
const TIERS = ["full", "hint", "silent"];
const FULL = "codegraph: the code this prompt most likely concerns";
const HINT = "codegraph: words in this prompt match these indexed symbols";

const args = process.argv.slice(2);
const opt = optionReader(args);
const log = (m) => process.stderr.write(`[eval:prompt-hook] ${m}\n`);

function corpus() {
  const src = join(WORK, "corpora", "medium", "django");
  if (!existsSync(src)) {
    if (!existsSync(FETCH)) throw new Error(`no corpus at ${src} and no ${FETCH}`);
    log(`fetching the medium tier into ${dirname(src)}`);
    const r = spawnSync("bash", [FETCH, "medium", dirname(src)], { stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0 || !existsSync(src)) throw new Error("fetching the medium tier failed");
  }
  const dir = join(WORK, "scratch", "eval-prompt-hook", "django");
  if (args.includes("--no-index") && existsSync(join(dir, ".codegraph", "graph.db"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  // The corpus may carry an index of its own (another tool's, or an older one): the copy starts clean.
  cpSync(src, dir, { recursive: true, filter: (p) => !p.endsWith("/.codegraph") });
  log(`indexing ${relative(ROOT, dir)}`);
  const r = spawnSync(process.execPath, [MAIN, "init", dir], { env: measuredEnv(), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`codegraph init failed: ${r.stderr.slice(-400)}`);
  return dir;
}

/** One hook run: what it printed, why (from CODEGRAPH_DEBUG), how long from spawn to exit. */
function hook(dir, prompt) {
  return new Promise((res, rej) => {
    const env = measuredEnv({ CODEGRAPH_DEBUG: "1" });
    delete env.CODEGRAPH_NO_PROMPT_HOOK;
    delete env.CODEGRAPH_PROMPT_HOOK;
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [MAIN, "prompt-hook"], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", rej);
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      res({ code, stdout, why: stderr.trim().replace(/^codegraph prompt-hook: /, ""), ms });
    });
    child.stdin.end(JSON.stringify({ hook_event_name: "UserPromptSubmit", cwd: dir, prompt }));
  });
}

const tierOf = (stdout) =>
  !stdout ? "silent" : stdout.startsWith(HINT) ? "hint" : stdout.startsWith(FULL) ? "full" : "other";
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : "–");

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} missing: run npm run build first`);
  const prompts = readFileSync(PROMPTS, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const dir = corpus();
  log(`${prompts.length} prompts`);
  const rows = [];
  for (const p of prompts) {
    const r = await hook(dir, p.prompt);
    if (r.code !== 0) log(`${p.id}: exit ${r.code}`);
    rows.push({
      ...p,
      got: r.code === 0 ? tierOf(r.stdout) : "other",
      why: r.why,
      ms: r.ms,
      bytes: Buffer.byteLength(r.stdout),
    });
  }

  const perTier = TIERS.map((tier) => {
    const tp = rows.filter((r) => r.got === tier && r.expected === tier).length;
    const predicted = rows.filter((r) => r.got === tier).length;
    const expected = rows.filter((r) => r.expected === tier).length;
    return {
      tier,
      tp,
      predicted,
      expected,
      precision: predicted ? tp / predicted : null,
      recall: expected ? tp / expected : null,
    };
  });
  const correct = rows.filter((r) => r.got === r.expected).length;
  const misses = rows.filter((r) => r.got !== r.expected);
  const byLang = {};
  for (const r of rows) {
    byLang[r.lang] ??= { n: 0, ok: 0 };
    byLang[r.lang].n++;
    if (r.got === r.expected) byLang[r.lang].ok++;
  }

  const md = [
    `# Prompt-hook eval (${new Date().toISOString().slice(0, 10)})`,
    "",
    `${prompts.length} labelled prompts (bench/eval/prompt-hook/prompts.jsonl) against Django (medium tier), ` +
      "each through the built CLI as Claude Code runs it (JSON payload on stdin, no daemon).",
    "",
    `Accuracy: ${correct}/${rows.length} (${pct(correct, rows.length)}).`,
    "",
    "| tier | expected | answered | correct | precision | recall | median ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...perTier.map(
      (t) =>
        `| ${t.tier} | ${t.expected} | ${t.predicted} | ${t.tp} | ${pct(t.tp, t.predicted)} | ${pct(t.tp, t.expected)} | ` +
        `${median(rows.filter((r) => r.got === t.tier).map((r) => r.ms))?.toFixed(0) ?? "–"} |`,
    ),
    "",
    "Confusion (rows: expected, columns: answered):",
    "",
    `| expected \\ answered | ${[...TIERS, "other"].join(" | ")} |`,
    `| --- | ${[...TIERS, "other"].map(() => "---:").join(" | ")} |`,
    ...TIERS.map(
      (e) =>
        `| ${e} | ${[...TIERS, "other"].map((g) => rows.filter((r) => r.expected === e && r.got === g).length).join(" | ")} |`,
    ),
    "",
    `Full-context answers: median ${median(rows.filter((r) => r.got === "full").map((r) => r.bytes))} bytes, ` +
      `largest ${Math.max(0, ...rows.filter((r) => r.got === "full").map((r) => r.bytes))} bytes (cap 9,000).`,
    "",
    "Per language (correct / prompts): " +
      Object.entries(byLang)
        .map(([l, v]) => `${l} ${v.ok}/${v.n}`)
        .join(", "),
    "",
    `## Misses (${misses.length})`,
    "",
    "| id | expected | answered | why | prompt |",
    "| --- | --- | --- | --- | --- |",
    ...misses.map(
      (r) =>
        `| ${r.id} | ${r.expected} | ${r.got} | ${r.why.replace(/\|/g, "\\|")} | ${r.prompt.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 90)} |`,
    ),
    "",
  ].join("\n");

  const out = resolve(
    opt("out", join(BENCH, "results", `eval-prompt-hook-${new Date().toISOString().slice(0, 10)}.md`)),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, md);
  writeFileSync(out.replace(/\.md$/, ".json"), JSON.stringify({ perTier, rows }, null, 2) + "\n");
  process.stdout.write(md);
  log(`wrote ${relative(ROOT, out)}`);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
