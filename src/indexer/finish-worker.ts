import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { indexEdges, openIndexBeingBuilt } from "../store/database.js";
import { finisherOn, type FinishReply, type FinishRequest } from "./finish-build.js";

/**
 * Finishes a new index on its own connection while the thread that started it resolves references
 * (see `finishAside`). Says `ready` once its connection is open, then carries out each request as it
 * comes, and says `done` after `end`; an exception ends it with an `error` event.
 */
const { path } = workerData as { path: string };
const port = parentPort!;
const db = openIndexBeingBuilt(path);
const finish = finisherOn(db);

/**
 * How far resolution may have got, once the parsed tables are finished, for the edges to be indexed
 * then rather than at the end. With the rest of resolution still to come, the worker would otherwise
 * wait, and the index builds would follow resolution; edges that come later go into indexed tables,
 * which costs more than one build over all of them, but off the critical path. When resolution is
 * (nearly) done, as on the JDK, whose full-text fill outlasts it, every edge is indexed at the end.
 */
const INDEX_EARLY_BELOW = 0.75;
/** The share of references resolved when the newest batch was taken. */
let progress = 0;
let ended = false;

function handle(request: FinishRequest): void {
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
  }
}

port.on("message", handle);
port.postMessage("ready" satisfies FinishReply);
