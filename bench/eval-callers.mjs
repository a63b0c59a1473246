#!/usr/bin/env node
// npm run eval:callers [-- --lang rust] [-- --no-index]
//
// Precision and recall of codegraph's callers (`calls` and `instantiates` edges into a function)
// against lists of callers checked by hand, one file per language: bench/eval/callers/<lang>.txt.
// Each names the corpus it was checked on (a tier folder under bench/.work/corpora, copied to
// bench/.work/scratch/eval-callers/<repo>, or `npm:name@version`, unpacked there with `npm pack`;
// then indexed with the built CLI) and, per target function,
// every function or method that calls it:
//
//   corpus medium/rust-regex
//   target src/exec.rs:ExecNoSync.is_anchored_start
//     caller src/exec.rs:ExecNoSync.find_at
//
// A caller is `file:qualified name` as our index names it (`file` alone: a call at file level).
// Scores are summed over the targets (micro-averaged); every missed and unexpected caller is listed.
//
//   --lang <id>     only this language's list
//   --no-index      reuse the scratch copy's index
//   --cli <file>    codegraph CLI (default dist/cli/main.js)
//   --out <file>    Markdown report (default bench/results/eval-callers-<date>.md)
//
// Exit 0 whatever the score (it is a report); 1 on harness failure.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const require = createRequire(path.join(ROOT, "package.json"));

function parseArgs(argv) {
  const o = { lang: null, index: true, cli: path.join(ROOT, "dist/cli/main.js"), out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--lang") o.lang = val();
    else if (a === "--no-index") o.index = false;
    else if (a === "--cli") o.cli = path.resolve(val());
    else if (a === "--out") o.out = path.resolve(val());
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/** One hand-checked list: its corpus and, per target, the set of callers. */
function parseList(text, file) {
  let corpus = null;
  const targets = [];
  for (const [n, raw] of text.split("\n").entries()) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const [word, value] = [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1).trim()];
    if (word === "corpus") corpus = value;
    else if (word === "target") targets.push({ target: value, callers: new Set() });
    else if (word === "caller" && targets.length) targets[targets.length - 1].callers.add(value);
    else throw new Error(`${file}:${n + 1}: cannot read "${raw}"`);
  }
  if (!corpus) throw new Error(`${file}: no corpus line`);
  return { corpus, targets };
}

function split(ref) {
  const i = ref.indexOf(":");
  return i < 0 ? { file: ref, qname: null } : { file: ref.slice(0, i), qname: ref.slice(i + 1) };
}

const VALUE_KINDS = new Set(["variable", "constant", "property"]);

/** Callers of a target as our index has them, each `file:qualified name`. Null when the target is not indexed. */
function ourCallers(db, target) {
  const { file, qname } = split(target);
  const named = db
    .prepare(
      "SELECT n.id, n.kind FROM nodes n JOIN files f ON f.id = n.file_id WHERE f.path = ? AND n.qualified_name = ? AND n.kind <> 'import'",
    )
    .all(file, qname);
  // A target is a function, method or class: a variable of the same name (`var send = require('send')`
  // beside Express's `res.send = function send ..`) is another declaration, counted only when alone.
  const declared = named.filter((r) => !VALUE_KINDS.has(r.kind));
  const ids = (declared.length ? declared : named).map((r) => r.id);
  if (!ids.length) return null;
  const rows = db
    .prepare(
      `SELECT DISTINCT f.path AS file, s.kind AS kind, s.qualified_name AS qname
         FROM edges e JOIN nodes s ON s.id = e.source_id JOIN files f ON f.id = s.file_id
        WHERE e.kind IN ('calls', 'instantiates') AND e.target_id IN (${ids.join(",")})`,
    )
    .all();
  return new Set(rows.map((r) => (r.kind === "file" ? r.file : `${r.file}:${r.qname}`)));
}

/** The scratch copy a corpus is indexed in: `npm:name@version` is named after the package. */
function copyDir(corpus) {
  const name = corpus.startsWith("npm:")
    ? corpus.slice(4).replace(/^@/, "").replace(/[/@]/g, "-")
    : path.basename(corpus);
  return path.join(ROOT, "bench/.work/scratch/eval-callers", name);
}

/**
 * A tier corpus is copied; `npm:name@version` (for languages no tier has, such as C#) is fetched
 * with `npm pack` and its `package/` folder unpacked as the repo.
 */
function fetchCorpus(corpus, copy) {
  if (corpus.startsWith("npm:")) {
    const spec = corpus.slice(4);
    const cache = path.join(ROOT, "bench/.work/scratch/eval-callers/npm");
    fs.mkdirSync(cache, { recursive: true });
    const pack = spawnSync("npm", ["pack", spec, "--silent", "--pack-destination", cache], { encoding: "utf8" });
    const tgz = pack.stdout.trim().split("\n").pop();
    if (pack.status !== 0 || !tgz) throw new Error(`npm pack ${spec} failed:\n${pack.stderr}`);
    fs.mkdirSync(copy, { recursive: true });
    const tar = spawnSync("tar", ["-xzf", path.join(cache, tgz), "-C", copy, "--strip-components=1"], {
      encoding: "utf8",
    });
    if (tar.status !== 0) throw new Error(`cannot unpack ${tgz}:\n${tar.stderr}`);
    return;
  }
  const src = path.join(ROOT, "bench/.work/corpora", corpus);
  if (!fs.existsSync(src))
    throw new Error(`corpus not found: ${src} (fetch it with /work/shared/bench/fetch-corpora.sh)`);
  fs.cpSync(src, copy, { recursive: true });
}

function index(cli, corpus) {
  const copy = copyDir(corpus);
  fs.rmSync(copy, { recursive: true, force: true });
  fetchCorpus(corpus, copy);
  const r = spawnSync(process.execPath, [cli, "init", "--force", copy], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`codegraph init failed on ${copy}:\n${(r.stderr || r.stdout).slice(-2000)}`);
  return copy;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const dir = path.join(HERE, "eval/callers");
  const langs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => f.slice(0, -4))
    .filter((l) => !opts.lang || l === opts.lang)
    .sort();
  if (!langs.length) throw new Error(`no caller lists in ${dir}${opts.lang ? ` for ${opts.lang}` : ""}`);
  const Database = require("better-sqlite3");
  const lines = [
    "# Callers eval (hand-checked)",
    "",
    `codegraph ${git(ROOT, "rev-parse", "--short", "HEAD") ?? "?"}`,
    "",
  ];
  lines.push("| language | corpus | targets | true callers | found | correct | precision | recall |");
  lines.push("|---|---|---:|---:|---:|---:|---:|---:|");
  const details = [];
  for (const lang of langs) {
    const listFile = path.join(dir, `${lang}.txt`);
    const { corpus, targets } = parseList(fs.readFileSync(listFile, "utf8"), listFile);
    const copy = opts.index ? index(opts.cli, corpus) : copyDir(corpus);
    const db = new Database(path.join(copy, ".codegraph/graph.db"), { readonly: true, fileMustExist: true });
    let truth = 0;
    let found = 0;
    let correct = 0;
    details.push("", `## ${lang} (${corpus})`, "");
    for (const t of targets) {
      const ours = ourCallers(db, t.target);
      if (!ours) {
        details.push(`- ${t.target}: NOT INDEXED`);
        truth += t.callers.size;
        continue;
      }
      const hit = [...ours].filter((c) => t.callers.has(c));
      const missed = [...t.callers].filter((c) => !ours.has(c));
      const extra = [...ours].filter((c) => !t.callers.has(c));
      truth += t.callers.size;
      found += ours.size;
      correct += hit.length;
      details.push(`- ${t.target}: ${hit.length}/${t.callers.size} found, ${extra.length} wrong`);
      for (const m of missed) details.push(`  - missed ${m}`);
      for (const e of extra) details.push(`  - wrong ${e}`);
    }
    db.close();
    const p = found ? correct / found : 1;
    const r = truth ? correct / truth : 1;
    lines.push(
      `| ${lang} | ${corpus} | ${targets.length} | ${truth} | ${found} | ${correct} | ${p.toFixed(3)} | ${r.toFixed(3)} |`,
    );
    console.log(
      `${lang}: precision ${p.toFixed(3)}, recall ${r.toFixed(3)} (${correct}/${found} found correct, ${truth} true)`,
    );
  }
  const report = [...lines, ...details, ""].join("\n");
  const date = new Date().toISOString().slice(0, 10);
  const out = opts.out ?? path.join(ROOT, "bench/results", `eval-callers-${date}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  console.log(details.join("\n"));
  console.error(`[eval-callers] wrote ${path.relative(process.cwd(), out)}`);
}

function git(dir, ...args) {
  const r = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

try {
  main();
} catch (err) {
  console.error(`[eval-callers] harness failure: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
