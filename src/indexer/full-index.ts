import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { loadConfig, CONFIG_TEMPLATE, type Config } from "../config/config.js";
import { readEnv } from "../config/env.js";
import type { FileRecord } from "../core/rows.js";
import { languageForPath, type LanguageId } from "../extract/language.js";
import { MemoryLookup, type MemoryFile } from "../resolve/memory-lookup.js";
import { Resolver } from "../resolve/resolver.js";
import { GoDeclarationsSeen } from "./go-interfaces.js";
import { implicitImplementations } from "../resolve/go-interfaces.js";
import type { ProjectContext } from "../resolve/rules.js";
import { snapshotText } from "../scan/folder-snapshot.js";
import { scanProject, type ScannedFile } from "../scan/inventory.js";
import { folderMtimeTracksEntries } from "../scan/mtime-probe.js";
import {
  sealBuild,
  createDatabase,
  FOLDER_SNAPSHOT,
  INDEXED_BY,
  setMeta,
  startKindCounts,
  type Db,
} from "../store/database.js";
import { countTotals } from "../store/counts.js";
import { clearReportedDamage } from "../core/damaged-index.js";
import { Writer } from "../store/writer.js";
import { readProjectContext } from "./context.js";
import { acquireWriterLock } from "./lock.js";
import type { ParseJob } from "./messages.js";
import { WORKERS_FROM_BYTES, parseAll, parsePlan, startParseWorkers } from "./pool.js";
import { rememberSkip, writeSkippedFiles, type SkippedFile } from "../store/skipped-files.js";
import type { IndexSummary, ProgressFn } from "./progress.js";
import { IdAllocator, toRecord } from "./records.js";
import { EdgeBatchBuilder } from "../core/edge-batch.js";
import { finishAside, finishInline, type BuildFinish } from "./finish-build.js";
import { phaseTimer } from "./timing.js";
import { codegraphVersion } from "../core/version.js";
import { CodegraphError } from "../core/errors.js";
import { createOwnFile, isLink } from "../core/own-file.js";
import { dbPath, indexDir } from "../config/paths.js";

/** Create `.codegraph/` with a commented config, leaving an existing config as the user wrote it. */
export function ensureIndexDir(root: string): void {
  const dir = indexDir(root);
  // A linked index folder would have the index, its config and the daemon's files written wherever
  // the link points, as a repository that commits one chooses (see core/own-file.ts).
  if (isLink(dir)) {
    throw new CodegraphError(
      "IO",
      `${dir} is a symbolic link. codegraph keeps its index in a folder of the project's own and follows no link there: remove the link, then run codegraph init again.`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    throw new CodegraphError(
      "IO",
      `${dir} is a file, where codegraph keeps its index folder. Move or remove it, then run codegraph init again.`,
    );
  }
  createOwnFile(join(dir, "config.toml"), CONFIG_TEMPLATE);
  createOwnFile(join(dir, ".gitignore"), "# the index is derived data\n*\n");
}

/** Where a full index is built before it is renamed over the index. */
const buildPath = (root: string) => `${dbPath(root)}.tmp`;

/**
 * Remove what a full index killed part-way left (its database is never used, only renamed into
 * place once complete). Only while holding the writer lock, which a build holds throughout.
 */
export function removeAbandonedBuild(root: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(buildPath(root) + suffix, { force: true });
}

/**
 * Build the index from scratch. It is written to a temporary database and renamed over the old one
 * at the end, so a process killed at any moment leaves the previous index (or none), never half of one.
 * `given` is the configuration to use instead of reading it from disk (see `SyncOptions.config`).
 */
export async function fullIndex(
  root: string,
  onProgress: ProgressFn = () => {},
  given?: Config,
): Promise<IndexSummary> {
  const started = performance.now();
  const timer = phaseTimer();
  ensureIndexDir(root);
  const release = acquireWriterLock(indexDir(root));
  let workers: Worker[] = [];
  try {
    const config = given ?? loadConfig(root);
    onProgress({ phase: "scanning", done: 0, total: 0 });
    // Once the project is large enough for parse workers, they boot while the scan goes on, and load
    // the grammar most of the source listed so far needs.
    const seen = new Map<LanguageId, number>();
    let listedBytes = 0;
    let workersStarted = false;
    const inventory = scanProject(root, config.indexing, (p) => languageForPath(p) !== null, {
      onFile: (listed, file) => {
        if (workersStarted) return;
        const language = languageForPath(file.path)!;
        seen.set(language, (seen.get(language) ?? 0) + file.size);
        listedBytes += file.size;
        if (listedBytes >= WORKERS_FROM_BYTES && listed > 1) {
          workersStarted = true;
          const [likely] = [...seen].reduce((a, b) => (b[1] > a[1] ? b : a));
          workers = startParseWorkers(root, config.indexing.maxFileSize, readEnv().workers, likely);
        }
      },
    });
    timer("scan");
    const ctx = readProjectContext(root, inventory.manifests);
    removeAbandonedBuild(root);
    const tmp = buildPath(root);
    const db = createDatabase(tmp);
    timer("project context, database");
    let summary: IndexSummary;
    try {
      summary = await build(db, root, config, inventory.files, ctx, workers, onProgress, timer);
      summary.skipped.push(...inventory.skipped);
      setMeta(db, "context", JSON.stringify(ctx));
      if (folderMtimeTracksEntries(indexDir(root)))
        setMeta(db, FOLDER_SNAPSHOT, snapshotText(inventory.snapshot, config.indexing));
      setMeta(db, "indexed_at", new Date().toISOString());
      setMeta(db, INDEXED_BY, codegraphVersion());
      sealBuild(db);
      timer("seal");
    } finally {
      db.close();
    }
    for (const suffix of ["-wal", "-shm"]) rmSync(dbPath(root) + suffix, { force: true });
    renameSync(tmp, dbPath(root));
    clearReportedDamage(dbPath(root)); // found in the index just replaced
    removeAbandonedBuild(root); // the build's -wal and -shm, empty once its connection closed
    summary.durationMs = Math.round(performance.now() - started);
    return summary;
  } finally {
    // Already stopped once parsing is done; not yet if the build failed before it began.
    for (const w of workers) void w.terminate();
    release();
  }
}

async function build(
  db: Db,
  root: string,
  config: Config,
  files: ScannedFile[],
  ctx: ProjectContext,
  workers: Worker[],
  onProgress: ProgressFn,
  timer: (label: string) => void,
): Promise<IndexSummary> {
  const writer = new Writer(db, { bulk: true });
  const ids = new IdAllocator(1, 1, 1);
  const records: MemoryFile[] = [];
  const lookup = new MemoryLookup();
  const skipped: IndexSummary["skipped"] = [];
  const skippedFiles = new Map<string, SkippedFile>();
  const partial: IndexSummary["partial"] = [];
  const cutShort: string[] = [];
  const languages: Record<string, number> = {};
  const go = new GoDeclarationsSeen();
  const jobs: ParseJob[] = files.map((f) => ({ path: f.path, language: languageForPath(f.path)!, size: f.size }));
  let done = 0;
  let resolvedCount = 0;
  const insertMany = db.transaction((batch: FileRecord[]) => {
    for (const r of batch) writer.insertFile(r, false);
    writer.flush();
  });
  let pending: FileRecord[] = [];
  const threads = readEnv().workers;
  // A parse worker, once done with its files, finishes the index: it has booted already, and loads
  // what that needs while it parses. Not on a project so large that this thread does not parse: there
  // the worker's memory (its grammars' heap, grown by the largest files) would stay for the whole
  // finishing (the JDK peaked at 980 MB against 920 MB), and a thread's boot (70 ms) is nothing.
  const plan = parsePlan(jobs, threads);
  const finisher = plan.alongside ? (workers[0] ?? null) : null;
  const aside = finisher !== null || jobs.reduce((bytes, j) => bytes + j.size, 0) >= ASIDE_FROM_BYTES;
  finisher?.postMessage("prepare-finish");
  let finish: BuildFinish | null = null;
  try {
    await parseAll(
      root,
      jobs,
      config.indexing.maxFileSize,
      threads,
      (o) => {
        done++;
        if (done % 50 === 0 || done === jobs.length) onProgress({ phase: "parsing", done, total: jobs.length });
        if (!o.ok) {
          skipped.push({ path: o.path, reason: o.reason });
          rememberSkip(skippedFiles, o);
          return;
        }
        const record = toRecord(o, o.result, ids);
        if (o.result.syntaxErrors > 0) partial.push({ path: o.path, errors: o.result.syntaxErrors });
        if (o.result.cutShort) cutShort.push(o.path);
        languages[o.language] = (languages[o.language] ?? 0) + 1;
        go.file(record);
        const forLookup = forResolution(record);
        records.push(forLookup);
        lookup.add(forLookup);
        pending.push(record);
        if (pending.length >= 25) {
          insertMany(pending);
          pending = [];
        }
      },
      workers,
      finisher,
    );
    insertMany(pending);
    timer("parse + insert nodes");
    finish = aside ? finishAside(db, finisher) : finishInline(db);

    // The full-text index and the indexes of what parsing stored are built, and the resolved edges
    // written, on a second connection while this thread resolves every reference against the whole
    // project, in memory: the parse workers are done, and the second core would otherwise sit idle.
    finish.parsed();
    const resolver = new Resolver(lookup, ctx);
    const total = records.reduce((n, r) => n + r.refs.length, 0);
    const edges = new EdgeBatchBuilder();
    let seen = 0;
    for (const [i, r] of records.entries()) {
      const inGo = r.file.language === "go";
      for (const ref of r.refs) {
        const found = resolver.resolve(ref);
        if (inGo) go.resolved(ref, found);
        for (const e of found) {
          edges.add(ref.fromId, e.targetId, ref.fileId, ref.line, ref.id, e.kind, e.resolution);
          if (edges.full) finish.edges(edges.take(seen / total));
        }
        if (found.length) resolvedCount++;
      }
      seen += r.refs.length;
      onProgress({ phase: "resolving", done: seen, total });
      // The worker's `ready` is seen only when this loop lets the event loop run: until then batches
      // are copied to it, and kept here.
      if (aside && i % 100 === 99) await new Promise(setImmediate);
    }
    // Go's implicit interfaces, from every Go file's declarations as resolved (see go-interfaces.ts).
    for (const e of go.files.length ? implicitImplementations(go) : []) {
      edges.add(e.sourceId, e.targetId, e.fileId, e.line, null, e.kind, "structural");
      if (edges.full) finish.edges(edges.take(1));
    }
    finish.edges(edges.take(1));
    timer("resolve");
    onProgress({ phase: "writing", done: 0, total: 0 });
    await finish.end();
    timer("finish");
    for (const [kind, n] of edges.byKind) writer.written.edges.set(kind, (writer.written.edges.get(kind) ?? 0) + n);
  } catch (e) {
    finish?.abandon();
    throw e;
  }
  startKindCounts(db, writer.written);
  writeSkippedFiles(db, skippedFiles);
  timer("counts");
  const counts = countTotals(db);
  return {
    mode: "full",
    root,
    files: counts.files,
    nodes: counts.nodes,
    edges: counts.edges,
    languages,
    added: records.length,
    modified: 0,
    removed: 0,
    skipped,
    partial,
    cutShort,
    refsResolved: resolvedCount,
    durationMs: 0,
  };
}

/**
 * Bytes of source from which the index is finished on a worker thread (about 5,000 nodes) when no
 * parse worker can do it. Below, that takes less time than starting the worker.
 */
const ASIDE_FROM_BYTES = 2 ** 20;

/**
 * What resolution needs of a file, without the text (signatures, docstrings) already written to the
 * database: the whole project's worth is held in memory until every reference is resolved.
 */
function forResolution(r: FileRecord): MemoryFile {
  return {
    file: r.file,
    nodes: r.nodes.map((n) => ({
      id: n.id,
      fileId: n.fileId,
      parentId: n.parentId,
      kind: n.kind,
      name: n.name,
      qualifiedName: n.qualifiedName,
      paramCount: n.paramCount,
      exported: n.exported,
      isStatic: n.isStatic,
    })),
    refs: r.refs,
    imports: r.imports,
    localTypes: r.localTypes,
  };
}
