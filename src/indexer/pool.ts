import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { LanguageId } from "../extract/language.js";
import { BatchQueue, MIN_BATCH_BYTES } from "./batches.js";
import type { ParseJob, ParseOutcome } from "./messages.js";
import { indexerWorkerUrl } from "./worker-url.js";
import { optimiseLess } from "../extract/jit-flags.js";

/**
 * Bytes of source per byte of grammar from which V8's optimising WASM compiler pays for itself (see
 * preferFastStartup). What it costs grows with the grammars compiled (tree-sitter's lexer and tables
 * are most of a grammar), what it saves with the source parsed. Measured here with two workers,
 * optimised against baseline-only: doctrine (2.2 MB of PHP, 2.7 bytes per grammar byte) 0.93 s
 * against 1.03 s; tokio (2.9 MB of Rust, 3.5) 1.24 against 1.28; effect (6.7 MB of TypeScript, 2.9)
 * 2.90 against 3.43; rails (2.6 MB of Ruby, 1.3) even; blueprint (2 MB of TSX, 0.8) 1.57 against
 * 1.12, cobra (0.4 MB of Go, 1.8) 0.36 against 0.32; and any sync of a few files is faster without.
 */
const OPTIMISE_FROM = 2.5;

/**
 * The languages worth V8's optimising WASM compiler in these jobs: each one's source against the
 * size of its own grammar. A language below the mark is parsed after the others, on baseline code
 * only: Django's 780 KB of vendored JavaScript had the JavaScript grammar's lexer optimised (a
 * 260 ms compile) after its last file was parsed.
 */
export function optimisedLanguages(jobs: ParseJob[], grammarSize: (id: LanguageId) => number): Set<LanguageId> {
  const source = new Map<LanguageId, number>();
  for (const j of jobs) source.set(j.language, (source.get(j.language) ?? 0) + j.size);
  return new Set(
    [...source].filter(([language, bytes]) => bytes >= OPTIMISE_FROM * grammarSize(language)).map(([l]) => l),
  );
}
/** Threads that parse: CODEGRAPH_WORKERS, else one per core. */
const parsingThreads = (threads: number | null) => threads ?? availableParallelism();

/**
 * Source up to which the main thread parses beside the workers, one worker fewer. It would otherwise
 * mostly wait, storing what the workers send, while each worker pays for its own thread, its copy of
 * the extractors warming up, and the copying of every result across. Measured on two cores against
 * two workers (interleaved, medians of 3 to 9, by the bytes parsed): Django (5 MiB) 1.88 -> 1.80 s and
 * 216 -> 188 MB, three 1.74 -> 1.64 s, tokio 1.48 -> 1.42 s, react-native (11 MiB) 5.16 -> 5.09 s and
 * 390 -> 354 MB, sympy (28 MiB) 13.06 -> 12.83 s and 608 -> 588 MB. Past it the time is about even,
 * but the peak grows: the main thread then holds a large project's records for resolution, and its
 * own extraction's garbage adds to that heap (rustc, 37 MiB: 508 -> 550 MB; go-stdlib, 44 MiB:
 * 588 -> 637 MB; the JDK, 193 MiB: 971 -> 1038 MB).
 */
const MAIN_PARSES_UP_TO = 32 * 2 ** 20;

/**
 * Source from which parse workers pay for themselves: below it, starting one (its thread, its copy of
 * the grammar and of the extractors, warming up) costs more than the parsing it takes over. Measured
 * on two cores, the whole `init` on this thread alone against beside a worker (interleaved, medians
 * of 7 to 9): Go 110 KB 20% and 141 KB 8% faster alone, 181 KB even, 223 KB 5% and 301 KB 13% slower
 * alone; Python 119 KB (84 files) 10% faster alone, 179 KB even, 274 KB 5% slower; cobra (437 KB of
 * Go, 36 files) 13% and tanstack-query (490 KB of TypeScript, 46 files) 14% slower alone. The rule
 * was 49 files, whatever their size: cobra and tanstack-query were parsed alone, and 84 small Python
 * files on two threads. Alone, a job also takes 30-40% less CPU.
 */
export const WORKERS_FROM_BYTES = 192 * 1024;

/**
 * How a job is parsed: on how many worker threads, and whether this thread parses beside them (with
 * no workers, it parses alone). A parsing thread per core, but no more of them than files, nor than
 * batches of the least size.
 */
export function parsePlan(jobs: readonly ParseJob[], threads: number | null): { workers: number; alongside: boolean } {
  const bytes = jobs.reduce((sum, j) => sum + j.size, 0);
  if (bytes < WORKERS_FROM_BYTES) return { workers: 0, alongside: true };
  const parsers = Math.min(parsingThreads(threads), jobs.length, Math.ceil(bytes / MIN_BATCH_BYTES));
  if (parsers <= 1) return { workers: 0, alongside: true };
  const alongside = bytes <= MAIN_PARSES_UP_TO;
  return { workers: alongside ? parsers - 1 : parsers, alongside };
}

const startWorker = (root: string, maxSize: number, preload: LanguageId | null = null) =>
  new Worker(indexerWorkerUrl("worker.js"), { workerData: { root, maxSize, preload } });

/**
 * Start the parse workers before their jobs are known, so that each boots (a thread, Node, our code)
 * while the caller is still scanning the project. They stay unreferenced until `parseAll` adopts
 * them, so a caller that fails before then cannot be kept alive by them.
 */
export function startParseWorkers(
  root: string,
  maxSize: number,
  threads: number | null,
  preload: LanguageId | null = null,
): Worker[] {
  optimiseLess();
  // The main thread is one of the parsers, unless the job is large (see MAIN_PARSES_UP_TO): then
  // `parseAll` starts one more worker.
  return Array.from({ length: Math.max(0, parsingThreads(threads) - 1) }, () => {
    const w = startWorker(root, maxSize, preload);
    w.unref();
    w.once("error", (e) => endedEarly.set(w, e));
    w.once("exit", (code) => {
      if (!endedEarly.has(w)) endedEarly.set(w, new Error(`parse worker exited with code ${code}`));
    });
    return w;
  });
}

/** Why a worker from `startParseWorkers` ended before `parseAll` gave it work (it failed to start). */
const endedEarly = new WeakMap<Worker, Error>();

/**
 * Parses files on worker threads and on this one (see `parsePlan`), handing out small batches so a
 * slow file does not hold back a whole share. Results stream to `onResult` in completion order.
 * Workers from `startParseWorkers` are used first. All are stopped on return, except `keep` (one of
 * `started`), which is left idle for the caller, without this function's listeners: a full index has
 * it finish the index (see `finishAside`).
 */
export async function parseAll(
  root: string,
  jobs: ParseJob[],
  maxSize: number,
  threads: number | null,
  onResult: (o: ParseOutcome) => void,
  started: Worker[] = [],
  keep: Worker | null = null,
): Promise<void> {
  const workers = [...started];
  /** Removes this function's listeners from each worker it used. */
  const detach: (() => void)[] = [];
  try {
    if (!jobs.length) return;
    // Before the parser loads, so that its code is always compiled under the same V8 flags, which a
    // cached compilation must match (see cli/compile-cache.ts).
    optimiseLess();
    // Loaded on demand: a sync with nothing to parse should not pay for loading tree-sitter.
    const { preferFastStartup, stopOptimisingWasm, grammarSize, parseFile } = await import("./in-process.js");
    const optimised = optimisedLanguages(jobs, grammarSize);
    if (optimised.size === 0) preferFastStartup();
    const { workers: count, alongside } = parsePlan(jobs, threads);
    if (count === 0) {
      for (let i = 0; i < jobs.length; i++) {
        // Between files, the event loop turns: a daemon syncing a few hundred small files still
        // answers its calls and takes in its watcher's events meanwhile.
        if (i > 0) await new Promise(setImmediate);
        onResult(await parseFile(root, jobs[i]!, maxSize));
      }
      return;
    }
    while (workers.length < count) workers.push(startWorker(root, maxSize));
    // Checked in the same turn as the listeners below are added, so no event falls between.
    for (const w of workers) {
      const ended = endedEarly.get(w);
      if (ended) throw ended;
    }
    const queue = new BatchQueue(jobs, alongside ? count + 1 : count, optimised);
    const take = () => {
      const batch = queue.take();
      // The optimised languages come first: from here on, none is.
      if (!optimised.has(batch[0]!.language)) stopOptimisingWasm();
      return batch;
    };
    const feeders: (() => void)[] = [];
    const done = Promise.all(
      workers.slice(0, count).map((w) => {
        w.ref();
        return new Promise<void>((resolve, reject) => {
          let inFlight = 0;
          const feed = () => {
            if (queue.empty) return;
            inFlight++;
            w.postMessage(take());
          };
          const onOutcomes = (outcomes: ParseOutcome[]) => {
            // Hand out the next batch before storing these results, so the worker never waits on us.
            inFlight--;
            feed();
            // A failure to store them (a full disk) ends the parse with its error, as for this
            // thread's own results: thrown here, it would escape as an uncaught exception.
            try {
              for (const o of outcomes) onResult(o);
            } catch (e) {
              reject(e);
              return;
            }
            if (inFlight === 0 && queue.empty) resolve();
          };
          const onExit = (code: number) => {
            if (!queue.empty || code !== 0) reject(new Error(`parse worker exited with code ${code}`));
          };
          w.on("message", onOutcomes);
          w.on("error", reject);
          w.on("exit", onExit);
          detach.push(() => {
            w.off("message", onOutcomes);
            w.off("error", reject);
            w.off("exit", onExit);
            w.unref();
          });
          feeders.push(feed);
        });
      }),
    );
    // Two batches in flight per worker, one parsing and one queued, handed out in turn.
    for (const feed of [...feeders, ...feeders]) feed();
    // A worker's failure ends the parse: this thread stops taking batches, and `done` rejects with it.
    // (When the job is large, this thread only stores what the workers send.)
    let failed = false;
    done.catch(() => (failed = true));
    while (alongside && !queue.empty && !failed) {
      for (const job of take()) {
        if (failed) break;
        onResult(await parseFile(root, job, maxSize));
        // Between files the workers' replies are stored, and each worker is handed its next batch.
        await new Promise(setImmediate);
      }
    }
    await done;
  } finally {
    for (const d of detach) d();
    await Promise.all(workers.filter((w) => w !== keep).map((w) => w.terminate()));
  }
}
