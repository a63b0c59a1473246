import type { IncomingMessage } from "node:http";

/**
 * Bytes of request bodies being received right now, across all requests, and their cap. Each body
 * may be up to the size limit, and a client that never finishes one holds what it sent until the
 * request times out: without a cap, 200 such bodies took the server from 72 MB to 850 MB, which the
 * process kept after they were gone.
 */
export class BodyBudget {
  private held = 0;
  constructor(readonly limit: number) {}

  /** Count `bytes` more as held, unless that would pass the cap. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/** A body past the size limit (413): the rest is not read. */
export const TOO_LARGE = Symbol("too large");
/** A body that would take the bodies being received past their cap (503): the rest is not read. */
export const NO_ROOM = Symbol("no room");

/**
 * The request's body as text, or why it was not read whole. Its bytes count against `budget` while
 * it arrives; once it has (or has been given up), they no longer do.
 */
export function readBody(
  req: IncomingMessage,
  maxBody: number,
  budget: BodyBudget,
): Promise<string | typeof TOO_LARGE | typeof NO_ROOM> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    /** Give the bytes back, once, whichever way the body ends. */
    const settle = () => {
      if (settled) return false;
      settled = true;
      req.off("data", onData);
      budget.give(size);
      return true;
    };
    const stop = (why: typeof TOO_LARGE | typeof NO_ROOM) => {
      settle();
      req.pause();
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBody) return stop(TOO_LARGE);
      if (!budget.take(chunk.length)) return stop(NO_ROOM);
      size += chunk.length;
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (settle()) resolve(Buffer.concat(chunks, size).toString("utf8"));
    });
    // A request timed out (see `startHttpServer`) or dropped by its client: its socket is gone.
    const gone = () => {
      if (settle()) reject(cutShort(req));
    };
    req.once("error", gone);
    req.once("close", gone);
  });
}

/** Why a body stopped arriving, for the log. */
function cutShort(req: IncomingMessage): Error {
  const cause = req.socket?.errored as NodeJS.ErrnoException | null | undefined;
  return new Error(
    cause?.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? "a request did not arrive whole within the request timeout: answered 408 and closed"
      : "a connection closed before its request's body had arrived",
  );
}
