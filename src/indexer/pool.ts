import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ParseJob, ParseOutcome } from "./messages.js";

const BATCH = 24;
/** Below this much source, the optimising WASM compiler costs more than it saves (see preferFastStartup). */
const FAST_STARTUP_BYTES = 12 * 1024 * 1024;
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
  const { preferFastStartup } = await import("../extract/parser.js");
  if (jobs.reduce((n, j) => n + j.size, 0) <= FAST_STARTUP_BYTES) preferFastStartup();
  if (jobs.length <= IN_PROCESS_LIMIT || threads === 0) {
    const { parseFile } = await import("./parse-file.js");
    for (const job of jobs) onResult(await parseFile(root, job, maxSize));
    return;
  }
  const count = Math.max(1, Math.min(threads ?? availableParallelism(), Math.ceil(jobs.length / BATCH)));
  let next = 0;
  const workerUrl = new URL("./worker.js", import.meta.url);
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: count }, () => {
        const w = new Worker(workerUrl, { workerData: { root, maxSize } });
        workers.push(w);
        return new Promise<void>((resolve, reject) => {
          const feed = () => {
            if (next >= jobs.length) return resolve();
            const batch = jobs.slice(next, next + BATCH);
            next += batch.length;
            w.postMessage(batch);
          };
          w.on("message", (outcomes: ParseOutcome[]) => {
            for (const o of outcomes) onResult(o);
            feed();
          });
          w.on("error", reject);
          w.on("exit", (code) => {
            if (next < jobs.length || code !== 0) reject(new Error(`parse worker exited with code ${code}`));
          });
          feed();
        });
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
