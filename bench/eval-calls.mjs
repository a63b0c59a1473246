#!/usr/bin/env node
// npm run eval [-- options]
//
// Precision and recall of codegraph's call edges (`calls`, `instantiates`) against the TypeScript
// type checker, on a real TypeScript code base (default: the small corpus tier's tanstack-query).
//
//   --repo <dir>        TypeScript repo to evaluate (default bench/.work/corpora/small/tanstack-query;
//                       fetched with /work/shared/bench/fetch-corpora.sh when missing)
//   --no-index          reuse <repo>/.codegraph/graph.db instead of running `codegraph init --force`
//   --db <file>         read this graph database (implies --no-index)
//   --cli <file>        codegraph CLI (default dist/cli/main.js)
//   --map-workspaces    let the checker resolve bare imports like `@scope/pkg` to packages/pkg/src/index.ts
//                       (for monorepo corpora whose package.json files were stripped)
//   --out <file>        Markdown report (default bench/results/eval-<date>.md; -<repo> suffix for non-default repos)
//   --json <file>       also write the full result (all misses / false positives) as JSON
//   --examples <n>      examples of each kind to print (default 15)
//   --self-test         check the harness on a synthetic graph built from the reference, then exit
//
// Exit 0 whatever the score (it is a report); 1 on harness failure (bad repo, CLI failure, no DB).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildReference } from "./eval/reference.mjs";
import { readGraph } from "./eval/ours.mjs";
import { evaluate } from "./eval/metrics.mjs";
import { consoleReport, markdownReport } from "./eval/report.mjs";
import { selfTest } from "./eval/selftest.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const DEFAULT_REPO = path.join(ROOT, "bench/.work/corpora/small/tanstack-query");
const FETCH = "/work/shared/bench/fetch-corpora.sh";

function parseArgs(argv) {
  const o = {
    repo: null,
    index: true,
    db: null,
    cli: path.join(ROOT, "dist/cli/main.js"),
    mapWorkspaces: false,
    out: null,
    json: null,
    examples: 15,
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
      case "--repo":
        o.repo = path.resolve(val());
        break;
      case "--no-index":
        o.index = false;
        break;
      case "--db":
        o.db = path.resolve(val());
        o.index = false;
        break;
      case "--cli":
        o.cli = path.resolve(val());
        break;
      case "--map-workspaces":
        o.mapWorkspaces = true;
        break;
      case "--out":
        o.out = path.resolve(val());
        break;
      case "--json":
        o.json = path.resolve(val());
        break;
      case "--examples":
        o.examples = Number(val());
        break;
      case "--self-test":
        o.selfTest = true;
        break;
      case "-h":
      case "--help":
        console.log(
          fs
            .readFileSync(fileURLToPath(import.meta.url), "utf8")
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

const git = (dir, ...args) => {
  const r = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
};

function localDate() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const repo = opts.repo ?? DEFAULT_REPO;
  if (!fs.existsSync(repo)) {
    if (repo === DEFAULT_REPO && fs.existsSync(FETCH)) {
      console.error(`[eval] corpus missing; fetching: ${FETCH} small ${path.dirname(DEFAULT_REPO)}`);
      const f = spawnSync("bash", [FETCH, "small", path.dirname(DEFAULT_REPO)], { stdio: "inherit" });
      if (f.status !== 0 || !fs.existsSync(repo)) throw new Error("corpus fetch failed");
    } else throw new Error(`repo not found: ${repo}`);
  }
  const repoName = path.basename(repo);

  console.error(`[eval] building the checker reference for ${repo} ...`);
  const t0 = Date.now();
  const reference = buildReference(repo, {
    mapWorkspaces: opts.mapWorkspaces,
    log: (m) => console.error(`[eval] ${m}`),
  });
  const refMs = Date.now() - t0;
  console.error(
    `[eval] reference: ${reference.files.length} files, ${reference.sites.length} call sites in ${(refMs / 1000).toFixed(1)} s`,
  );

  if (opts.selfTest) {
    const failures = selfTest(reference);
    if (failures.length) {
      console.error(`[eval] self-test FAILED:\n  ${failures.join("\n  ")}`);
      process.exit(1);
    }
    console.log("[eval] self-test passed");
    return;
  }

  let indexMs = null;
  if (opts.index) {
    if (!fs.existsSync(opts.cli)) throw new Error(`codegraph CLI not found at ${opts.cli} (run npm run build first)`);
    console.error(`[eval] indexing: node ${path.relative(ROOT, opts.cli)} init --force ${repo}`);
    const t1 = Date.now();
    const r = spawnSync(process.execPath, [opts.cli, "init", "--force", repo], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    indexMs = Date.now() - t1;
    if (r.status !== 0) {
      throw new Error(
        `codegraph init failed (exit ${r.status}${r.signal ? `, ${r.signal}` : ""}):\n${(r.stderr || r.stdout || "").slice(-4000)}`,
      );
    }
    console.error(`[eval] indexed in ${(indexMs / 1000).toFixed(1)} s`);
  }
  const dbPath = opts.db ?? path.join(repo, ".codegraph/graph.db");
  const graph = readGraph(dbPath);
  if (graph.files.length === 0) throw new Error(`${dbPath} holds no files`);

  const result = evaluate(reference, graph, { examples: opts.examples });
  const date = localDate();
  const ctx = {
    date,
    repo: path.relative(ROOT, repo) || repo,
    repoName,
    corpusRev: git(repo, "rev-parse", "HEAD"),
    corpusSources: (() => {
      try {
        return /^# sources: (.*)$/m.exec(fs.readFileSync(path.join(repo, ".git/corpus-spec"), "utf8"))?.[1] ?? null;
      } catch {
        return null;
      }
    })(),
    codegraphRev: git(ROOT, "rev-parse", "HEAD"),
    dirty: !!git(ROOT, "status", "--porcelain", "--untracked-files=no", "src"),
    tsVersion: reference.tsVersion,
    indexMs,
    refMs,
    command: `node bench/eval-calls.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  };
  console.log(consoleReport(result, ctx));

  const out =
    opts.out ??
    path.join(ROOT, "bench/results", repo === DEFAULT_REPO ? `eval-${date}.md` : `eval-${date}-${repoName}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, markdownReport(result, ctx));
  console.error(`[eval] wrote ${path.relative(process.cwd(), out) || out}`);
  if (opts.json) {
    const { examples, ...rest } = result;
    fs.writeFileSync(opts.json, JSON.stringify({ ctx, ...rest, examples }, null, 1));
    console.error(`[eval] wrote ${opts.json}`);
  }
}

try {
  main();
} catch (err) {
  console.error(`[eval] harness failure: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
