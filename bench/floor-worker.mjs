#!/usr/bin/env node
// The benchmark's floor: raw tree-sitter parsing of a repo's files, no extraction, no storage.
//
//   node bench/floor-worker.mjs <repoDir> [--threads N]     (default 2 threads)
//
// The main thread lists files with `git ls-files` (skipping files over 1 MiB and files outside
// the floor's language map), splits them into N shares balanced by bytes, and starts N
// worker_threads; each reads and parses its share with web-tree-sitter and deletes every tree.
// Prints one JSON line: { files, bytes, threads, listMs, parseMs, totalMs, perThread, byLang }.
import { isMainThread, Worker, workerData, parentPort } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

if (isMainThread) {
  const t0 = process.hrtime.bigint();
  const args = process.argv.slice(2);
  const repo = args.find((a) => !a.startsWith("--"));
  const ti = args.indexOf("--threads");
  const threads = ti >= 0 ? Math.max(1, Number(args[ti + 1])) : 2;
  if (!repo) {
    console.error("usage: floor-worker.mjs <repoDir> [--threads N]");
    process.exit(2);
  }
  const { listFiles } = await import("./lib/corpus.mjs");
  const files = listFiles(repo).all.filter((f) => f.lang);
  const t1 = process.hrtime.bigint();

  // Longest-processing-time split: biggest files first, each to the least loaded share.
  const shares = Array.from({ length: threads }, () => ({ bytes: 0, files: [] }));
  for (const f of [...files].sort((a, b) => b.bytes - a.bytes)) {
    const s = shares.reduce((m, x) => (x.bytes < m.bytes ? x : m));
    s.files.push([f.path, f.lang]);
    s.bytes += f.bytes;
  }
  const self = fileURLToPath(import.meta.url);
  const results = await Promise.all(
    shares.map(
      (s) =>
        new Promise((resolve, reject) => {
          const w = new Worker(self, { workerData: { repo, files: s.files } });
          w.once("message", resolve);
          w.once("error", reject);
          w.once("exit", (code) => {
            if (process.env.FLOOR_DEBUG)
              process.stderr.write(`worker exit ${code} at ${performance.now().toFixed(0)} ms\n`);
            if (code !== 0) reject(new Error(`floor worker exited ${code}`));
          });
        }),
    ),
  );
  const t2 = process.hrtime.bigint();
  const byLang = {};
  for (const r of results)
    for (const [k, v] of Object.entries(r.byLang)) {
      byLang[k] ??= { files: 0, bytes: 0 };
      byLang[k].files += v.files;
      byLang[k].bytes += v.bytes;
    }
  const ms = (a, b) => Number(b - a) / 1e6;
  const out = {
    files: results.reduce((a, r) => a + r.files, 0),
    bytes: results.reduce((a, r) => a + r.bytes, 0),
    errors: results.reduce((a, r) => a + r.errors, 0),
    threads,
    listMs: ms(t0, t1),
    parseMs: ms(t1, t2),
    totalMs: ms(t0, t2),
    perThread: results.map((r) => ({ files: r.files, bytes: r.bytes, loadMs: r.loadMs, parseMs: r.parseMs })),
    byLang,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
  if (process.env.FLOOR_DEBUG) process.stderr.write(`printed at ${performance.now().toFixed(0)} ms\n`);
} else {
  const { Parser, Language } = await import("web-tree-sitter");
  const grammarDir = join(dirname(require.resolve("tree-sitter-wasms/package.json")), "out");
  const t0 = process.hrtime.bigint();
  await Parser.init();
  const parsers = new Map();
  const parserFor = async (lang) => {
    let p = parsers.get(lang);
    if (!p) {
      p = new Parser();
      p.setLanguage(await Language.load(join(grammarDir, `tree-sitter-${lang}.wasm`)));
      parsers.set(lang, p);
    }
    return p;
  };
  // Load the grammars this share needs up front, so parseMs is parsing only.
  for (const lang of new Set(workerData.files.map((f) => f[1]))) await parserFor(lang);
  const t1 = process.hrtime.bigint();
  let files = 0;
  let bytes = 0;
  let errors = 0;
  const byLang = {};
  for (const [rel, lang] of workerData.files) {
    const buf = readFileSync(join(workerData.repo, rel));
    const src = buf.toString("utf8");
    const parser = await parserFor(lang);
    const tree = parser.parse(src);
    if (tree) tree.delete();
    else errors++;
    files++;
    bytes += buf.length;
    byLang[lang] ??= { files: 0, bytes: 0 };
    byLang[lang].files++;
    byLang[lang].bytes += buf.length;
  }
  const t2 = process.hrtime.bigint();
  for (const p of parsers.values()) p.delete();
  parentPort.postMessage({
    files,
    bytes,
    errors,
    byLang,
    loadMs: Number(t1 - t0) / 1e6,
    parseMs: Number(t2 - t1) / 1e6,
  });
}
