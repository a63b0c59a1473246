import { Worker } from "node:worker_threads";
import type { EdgeBatch } from "../core/edge-batch.js";
import { finishEdges, finishParsedTables, type Db } from "../store/database.js";
import { Writer } from "../store/writer.js";
import { indexerWorkerUrl } from "./worker-url.js";

/** What `finish-worker` is sent, in this order: `parsed` once, edge batches, `end`. */
export type FinishRequest = "parsed" | EdgeBatch | "end";
export type FinishReply = "ready" | "done";

/**
 * The rest of a full index once every file is parsed and stored: the full-text index and the parsed
 * tables' indexes, the resolved edges, then the edges' indexes (see `store/database.ts`).
 */
export interface BuildFinish {
  /** Every file is parsed and stored. */
  parsed(): void;
  /** Write these edges, now or in turn. */
  edges(batch: EdgeBatch): void;
  /** Resolves once everything is written and indexed; rejects with what failed. */
  end(): Promise<void>;
  /** The build failed elsewhere: stop any thread still at it. */
  abandon(): void;
}

/** Carries out one request on a connection: what the worker does, and this thread without it. */
export function finisherOn(db: Db): (request: FinishRequest) => void {
  const writer = new Writer(db, { bulk: true });
  return (request) => {
    if (request === "parsed") finishParsedTables(db);
    else if (request === "end") finishEdges(db);
    else writer.insertEdges(request);
  };
}

/** Finish on this thread's connection: for a project too small to repay starting a thread. */
export function finishInline(db: Db): BuildFinish {
  const finish = finisherOn(db);
  return {
    parsed: () => finish("parsed"),
    edges: (batch) => finish(batch),
    end: async () => finish("end"),
    abandon: () => {},
  };
}

/**
 * Finish on a worker thread with its own connection to `db`'s file, while this thread resolves: the
 * second core would otherwise sit idle from the end of parsing. A parse worker done with its files is
 * asked to do it (`parseWorker`); else a thread is started for it. A worker that cannot do it (the
 * script missing from a broken install) leaves everything to this thread; a failure once it started
 * (a full disk) fails the build, as it would here.
 */
export function finishAside(db: Db, parseWorker: Worker | null = null): BuildFinish {
  let worker: Worker;
  try {
    worker = parseWorker ?? new Worker(indexerWorkerUrl("finish-worker.js"), { workerData: { finish: db.name } });
  } catch {
    return finishInline(db);
  }
  if (parseWorker) parseWorker.postMessage({ finish: db.name });
  // Unreferenced until the end: it waits on this thread, never the other way round.
  worker.unref();
  /** Settles once the worker said `ready` (true), or ended before it could (false). */
  const started = new Promise<boolean>((resolve) => {
    worker.once("message", () => resolve(true));
    worker.once("exit", () => resolve(false));
  });
  let failure: Error | null = null;
  const done = new Promise<void>((resolve, reject) => {
    worker.on("message", (m: FinishReply) => m === "done" && resolve());
    worker.on("error", (e) => (failure = e));
    worker.once("exit", (code) =>
      reject(failure ?? new Error(`the worker finishing the index exited with code ${code}`)),
    );
  });
  done.catch(() => {}); // seen by `end`, unless the worker never started
  /**
   * Requests sent before the worker said it was ready: if it ends before that, they are carried out
   * here. Until then batches are copied, not moved, to keep them.
   */
  const unconfirmed: FinishRequest[] = [];
  let ready = false;
  let inline: ((request: FinishRequest) => void) | null = null;
  const post = (r: FinishRequest, move: boolean) =>
    typeof r === "string" || !move ? worker.postMessage(r) : worker.postMessage(r, [r.ints.buffer, r.codes.buffer]);
  void started.then((ok) => {
    const sent = unconfirmed.splice(0);
    if (ok) return void (ready = true);
    const here = finisherOn(db);
    inline = here;
    for (const r of sent) here(r);
  });
  const request = (r: FinishRequest) => {
    if (inline) return inline(r);
    if (!ready) unconfirmed.push(r);
    post(r, ready);
  };
  return {
    parsed: () => request("parsed"),
    edges: (batch) => request(batch),
    async end() {
      // The reaction above, registered first, has run by the time this one does.
      const aside = await started;
      request("end");
      if (!aside) return;
      worker.ref();
      await done;
    },
    abandon: () => void worker.terminate(),
  };
}
