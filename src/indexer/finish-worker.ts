import { closeSync, fdatasyncSync, openSync } from "node:fs";
import { isMainThread, parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { indexEdges, openIndexBeingBuilt } from "../store/database.js";
import { finisherOn, type FinishReply, type FinishRequest } from "./finish-build.js";

/**
 * How far resolution may have got, once the parsed tables are finished, for the edges to be indexed
 * then rather than at the end. With the rest of resolution still to come, the worker would otherwise
 * wait, and the index builds would follow resolution; edges that come later go into indexed tables,
 * which costs more than one build over all of them, but off the critical path. When resolution is
 * (nearly) done, as on the JDK, whose full-text fill outlasts it, every edge is indexed at the end.
 */
const INDEX_EARLY_BELOW = 0.75;

/**
 * Finishes a new index on its own connection while the thread at the other end of `port` resolves
 * references (see `finishAside`). Says `ready` once its connection is open, and returns what carries
 * out each request, in the order sent; says `done` after `end`. An exception ends the thread with an
 * `error` event. Runs on a thread of its own, or on a parse worker once its files are parsed (see
 * `worker.ts`).
 */
export function serveFinish(port: MessagePort, path: string): (request: FinishRequest) => void {
  const db = openIndexBeingBuilt(path);
  const finish = finisherOn(db);
  /** The share of references resolved when the newest batch was taken. */
  let progress = 0;
  let ended = false;
  const handle = (request: FinishRequest): void => {
    finish(request);
    if (typeof request === "object") progress = request.progress;
    else if (request === "end") {
      ended = true;
      db.close();
      port.postMessage("done" satisfies FinishReply);
      port.close();
    } else {
      // Parsed tables done: catch up with the batches waiting, to see how far resolution has come.
      for (let m = receiveMessageOnPort(port); m && !ended; m = receiveMessageOnPort(port))
        handle(m.message as FinishRequest);
      if (!ended && progress < INDEX_EARLY_BELOW) indexEdges(db);
      if (!ended) flushToDisk(path);
    }
  };
  port.postMessage("ready" satisfies FinishReply);
  return handle;
}

// A thread started for this alone is given the database's path.
const finishing = (workerData as { finish?: unknown } | null)?.finish;
if (!isMainThread && parentPort && typeof finishing === "string")
  parentPort.on("message", serveFinish(parentPort, finishing));

/**
 * Have the system write the index file's pages to disk now. A full index never syncs until it is
 * sealed (`sealBuild`), and that one sync of everything written (15-20 MB on the medium tier) was
 * 33-57 ms at the very end, with both cores idle. Done here, once the parsed tables are finished and
 * while the other thread still resolves, it leaves the seal only the edges to write: 10-15 ms on
 * Django. The sync asked for here promises nothing; the seal's is the one that counts.
 */
function flushToDisk(path: string): void {
  try {
    const fd = openSync(path, "r");
    try {
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Only a head start on the seal's sync, which reports what fails.
  }
}
