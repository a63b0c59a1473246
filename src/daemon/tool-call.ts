import { existsSync } from "node:fs";
import { connect } from "node:net";
import { socketPath } from "./paths.js";

/** Why a daemon call gave no answer: the caller answers in-process either way, and logs only `error`. */
export type DaemonCallOutcome =
  { ok: true; text: string } | { ok: false; why: "no-daemon" | "timeout" | "error"; detail?: string };

/**
 * One tool call through the project's running daemon, whose index connection and caches are warm:
 * connect to its socket (a daemon is never started here), `initialize`, call, close. The three
 * messages go out at once (the session handles them in order), so a call costs one round trip.
 * Any failure, an error result, or no answer within `timeoutMs` returns a reason instead of text.
 */
export function callDaemonTool(
  root: string,
  tool: string,
  args: Record<string, unknown>,
  options: { timeoutMs: number; clientVersion: string },
): Promise<DaemonCallOutcome> {
  const path = socketPath(root);
  // Most prompts find no daemon: say so without loading node:net (4 ms; see scripts/after-build.mjs).
  if (!existsSync(path)) return Promise.resolve({ ok: false, why: "no-daemon" });
  return new Promise((resolve) => {
    const socket = connect(path);
    let buffer = "";
    let connected = false;
    let done = false;
    const finish = (outcome: DaemonCallOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ ok: false, why: connected ? "timeout" : "no-daemon" }), options.timeoutMs);
    socket.once("error", (e: NodeJS.ErrnoException) =>
      finish(
        connected || (e.code !== "ENOENT" && e.code !== "ECONNREFUSED")
          ? { ok: false, why: "error", detail: e.message }
          : { ok: false, why: "no-daemon" },
      ),
    );
    socket.once("close", () => finish({ ok: false, why: "error", detail: "the daemon closed the connection" }));
    socket.once("connect", () => {
      connected = true;
      const send = (msg: object) => socket.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
      send({
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "codegraph-prompt-hook", version: options.clientVersion },
        },
      });
      send({ method: "notifications/initialized" });
      send({ id: 2, method: "tools/call", params: { name: tool, arguments: args } });
    });
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const outcome = answerOf(line);
        if (outcome) {
          finish(outcome);
          return;
        }
      }
    });
  });
}

interface Reply {
  id?: unknown;
  result?: { isError?: boolean; content?: { type?: string; text?: string }[] };
  error?: { message?: string };
}

/** The outcome a line carries when it is the reply to the tool call (id 2); null for anything else. */
function answerOf(line: string): DaemonCallOutcome | null {
  let reply: Reply;
  try {
    reply = JSON.parse(line) as Reply;
  } catch {
    return null;
  }
  if (reply.id !== 2) return null;
  if (reply.error) return { ok: false, why: "error", detail: reply.error.message ?? "error reply" };
  const text = reply.result?.content?.find((c) => c.type === "text")?.text;
  if (reply.result?.isError || typeof text !== "string") {
    return { ok: false, why: "error", detail: text ?? "no text in the reply" };
  }
  return { ok: true, text };
}
