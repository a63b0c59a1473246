import { parentPort } from "node:worker_threads";
import { languageForPath } from "../extract/language.js";
import { answerTool } from "../mcp/answer.js";
import type { ReadReply, ReadRequest } from "../mcp/read-pool.js";
import { IndexConnections } from "../query/open-index.js";

/** A worker of a ReadPool (the daemon's, the HTTP server's): answers tool calls from its own index connections. */
const indexes = new IndexConnections();
parentPort?.on("message", ({ call }: ReadRequest) => {
  parentPort?.postMessage({ answer: answerTool(call, indexes, languageForPath) } satisfies ReadReply);
});
parentPort?.postMessage({ ready: true } satisfies ReadReply);
