import { parentPort, workerData } from "node:worker_threads";
import type { ParseJob } from "./messages.js";
import { parseFile } from "./parse-file.js";
import { loadLanguage } from "../extract/parser.js";
import type { LanguageId } from "../extract/language.js";

/** A parse worker: reads, hashes and extracts the batches it is sent, one reply per batch. */
const { root, maxSize, preload } = workerData as { root: string; maxSize: number; preload: LanguageId | null };

// The grammar and queries the first batch most likely needs, loaded while the caller still scans:
// its first parse then waits for less. A load that fails here fails again, and is reported, there.
if (preload) loadLanguage(preload).catch(() => {});

/** The batch being parsed: the next one (two are in flight) waits for it, and replies come in order. */
let current: Promise<void> = Promise.resolve();

parentPort?.on("message", (batch: ParseJob[]) => {
  current = current.then(async () => {
    const out = [];
    for (const job of batch) out.push(await parseFile(root, job, maxSize));
    parentPort?.postMessage(out);
  });
});
