import { parentPort, workerData } from "node:worker_threads";
import type { FinishRequest } from "./finish-build.js";
import type { serveFinish } from "./finish-worker.js";
import type { ParseJob } from "./messages.js";
import { parseFile } from "./parse-file.js";
import { loadLanguage } from "../extract/parser.js";
import type { LanguageId } from "../extract/language.js";

/**
 * A parse worker: reads, hashes and extracts the batches it is sent, one reply per batch. Told it
 * will finish the index (`prepare-finish`), it loads what that needs while it parses; told to finish
 * it (`{ finish: path }`, after its last batch), it becomes that index's finishing worker (see
 * `finish-worker.ts`): a thread already started, where a new one would boot for about 70 ms.
 */
const { root, maxSize, preload } = workerData as { root: string; maxSize: number; preload: LanguageId | null };

// The grammar and queries the first batch most likely needs, loaded while the caller still scans:
// its first parse then waits for less. A load that fails here fails again, and is reported, there.
if (preload) loadLanguage(preload).catch(() => {});

/** The batch being parsed: the next one (two are in flight) waits for it, and replies come in order. */
let current: Promise<void> = Promise.resolve();

/** Loaded only when needed, from beside this script, so that parsing alone never loads SQLite. */
const FINISH_MODULE = "./finish-worker.js";
let finishing: Promise<{ serveFinish: typeof serveFinish }> | null = null;
/** Once told to finish: the requests that came before the finishing side was ready for them. */
let early: FinishRequest[] | null = null;
let toFinish: ((request: FinishRequest) => void) | null = null;

parentPort?.on("message", (message: ParseJob[] | { finish: string } | "prepare-finish" | FinishRequest) => {
  if (message === "prepare-finish") {
    // A failure to load shows when finishing is asked for: the worker then ends, and the index is
    // finished on the main thread.
    finishing ??= import(FINISH_MODULE);
    finishing.catch(() => {});
    return;
  }
  if (early) {
    if (toFinish) toFinish(message as FinishRequest);
    else early.push(message as FinishRequest);
    return;
  }
  if (!Array.isArray(message)) {
    const path = (message as { finish: string }).finish;
    early = [];
    current = current.then(async () => {
      const { serveFinish } = await (finishing ??= import(FINISH_MODULE));
      const handle = serveFinish(parentPort!, path);
      for (const request of early!.splice(0)) handle(request);
      toFinish = handle;
    });
    return;
  }
  current = current.then(async () => {
    const out = [];
    for (const job of message) out.push(await parseFile(root, job, maxSize));
    parentPort?.postMessage(out);
  });
});
