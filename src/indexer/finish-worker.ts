import { parentPort, workerData } from "node:worker_threads";
import { openIndexBeingBuilt } from "../store/database.js";
import { finisherOn, type FinishReply, type FinishRequest } from "./finish-build.js";

/**
 * Finishes a new index on its own connection while the thread that started it resolves references
 * (see `finishAside`). Says `ready` once its connection is open, then carries out each request as it
 * comes, and says `done` after `end`; an exception ends it with an `error` event.
 */
const { path } = workerData as { path: string };
const db = openIndexBeingBuilt(path);
const finish = finisherOn(db);
const reply = (r: FinishReply) => parentPort!.postMessage(r);
parentPort!.on("message", (request: FinishRequest) => {
  finish(request);
  if (request !== "end") return;
  db.close();
  reply("done");
  parentPort!.close();
});
reply("ready");
