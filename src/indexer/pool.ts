import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { LanguageId } from "../extract/language.js";
import { BatchQueue, MAX_FILES } from "./batches.js";
import type { ParseJob, ParseOutcome } from "./messages.js";
import { indexerWorkerUrl } from "./worker-url.js";

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

/** Whether to let V8 optimise the grammars' WASM for these jobs (else baseline code only). */
export function worthOptimising(jobs: ParseJob[], grammarSize: (id: LanguageId) => number): boolean {
  const source = new Map<LanguageId, number>();
  for (const j of jobs) source.set(j.language, (source.get(j.language) ?? 0) + j.size);
  let sourceBytes = 0;
  let grammarBytes = 0;
  for (const [language, bytes] of source) {
    sourceBytes += bytes;
    grammarBytes += grammarSize(language);
  }
  return sourceBytes >= OPTIMISE_FROM * grammarBytes;
}
/** Below this many files, starting workers (and loading grammars in each) costs more than it saves. */
const IN_PROCESS_LIMIT = 48;

/**
 * Parses files on worker threads, one per core, feeding small batches so a slow file does not hold
 * back a whole share. Results stream to `onResult` in completion order.
 */
export async function parseAll(
  root: string,
  jobs: ParseJob[],
  maxSize: number,
  threads: number | null,
  onResult: (o: ParseOutcome) => void,
): Promise<void> {
  if (!jobs.length) return;
  // Loaded on demand: a sync with nothing to parse should not pay for loading tree-sitter.
  const { preferFastStartup, grammarSize, inlineLess } = await import("../extract/parser.js");
  inlineLess();
  if (!worthOptimising(jobs, grammarSize)) preferFastStartup();
  if (jobs.length <= IN_PROCESS_LIMIT || threads === 0) {
    const { parseFile } = await import("./parse-file.js");
    for (const job of jobs) onResult(await parseFile(root, job, maxSize));
    return;
  }
  // A worker per core, but no more workers than full batches.
  const count = Math.max(1, Math.min(threads ?? availableParallelism(), Math.ceil(jobs.length / MAX_FILES)));
  const queue = new BatchQueue(jobs, count);
  const workerUrl = indexerWorkerUrl("worker.js");
  const workers: Worker[] = [];
  const feeders: (() => void)[] = [];
  try {
    const done = Promise.all(
      Array.from({ length: count }, () => {
        const w = new Worker(workerUrl, { workerData: { root, maxSize } });
        workers.push(w);
        return new Promise<void>((resolve, reject) => {
          let inFlight = 0;
          const feed = () => {
            if (queue.empty) return;
            const batch = queue.take();
            inFlight++;
            w.postMessage(batch);
          };
          w.on("message", (outcomes: ParseOutcome[]) => {
            // Hand out the next batch before storing these results, so the worker never waits on us.
            inFlight--;
            feed();
            for (const o of outcomes) onResult(o);
            if (inFlight === 0 && queue.empty) resolve();
          });
          w.on("error", reject);
          w.on("exit", (code) => {
            if (!queue.empty || code !== 0) reject(new Error(`parse worker exited with code ${code}`));
          });
          feeders.push(feed);
        });
      }),
    );
    // Two batches in flight per worker, one parsing and one queued, handed out in turn.
    for (const feed of [...feeders, ...feeders]) feed();
    await done;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
