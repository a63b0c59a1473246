import { parentPort, workerData } from "node:worker_threads";
import type { ParseJob } from "./messages.js";
import { parseFile } from "./parse-file.js";

/** A parse worker: reads, hashes and extracts the batches it is sent, one reply per batch. */
const { root, maxSize } = workerData as { root: string; maxSize: number };

/** The batch being parsed: the next one (two are in flight) waits for it, and replies come in order. */
let current: Promise<void> = Promise.resolve();

parentPort?.on("message", (batch: ParseJob[]) => {
  current = current.then(async () => {
    const out = [];
    for (const job of batch) out.push(await parseFile(root, job, maxSize));
    parentPort?.postMessage(out);
  });
});
