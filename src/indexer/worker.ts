import { parentPort, workerData } from "node:worker_threads";
import type { ParseJob } from "./messages.js";
import { parseFile } from "./parse-file.js";

/** A parse worker: reads, hashes and extracts the batches it is sent, one reply per batch. */
const { root, maxSize } = workerData as { root: string; maxSize: number };

parentPort?.on("message", (batch: ParseJob[]) => {
  void (async () => {
    const out = [];
    for (const job of batch) out.push(await parseFile(root, job, maxSize));
    parentPort?.postMessage(out);
  })();
});
