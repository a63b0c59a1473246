import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { readEnv } from "../config/env.js";
import { dbPath } from "../config/paths.js";
import { CodegraphError } from "../core/errors.js";
import { readRegularFile } from "../core/regular-file.js";
import { MAX_LINE_BYTES, REQUEST_TOO_LARGE } from "../mcp/line-transport.js";
import { CAPABILITIES, negotiatedVersion } from "../mcp/server.js";
import { listedTools } from "../mcp/session.js";
import { HELLO_METHOD, type Hello } from "./hello.js";
import { writerLockHolder, type WriterInfo } from "./kernel-lock.js";
import { lines } from "./line-reader.js";
import { daemonLogPath, socketPath } from "./paths.js";

export interface ProxyOptions {
  root: string;
  /** A path's language, for a session this process answers itself (the project's writer is a foreground server). */
  languageOf?: (path: string) => string | null;
  version: string;
  /** The CLI script, to start the daemon with (`node main.js daemon ...`). */
  mainScript: string;
  /** Start the daemon with `--no-watch`: one catch-up, no watching. */
  noWatch?: boolean;
  log: (line: string) => void;
}

/** How long a proxy waits for a daemon it started to accept connections. */
const DAEMON_START_TIMEOUT_MS = 15_000;
/**
 * How often it tries meanwhile. The agent's first call waits on it, and a failed connect to a socket
 * not yet there costs a few microseconds: at 50 ms, the answer waited 25 ms on average past the
 * daemon's readiness.
 */
const DAEMON_POLL_MS = 10;

type Message = { id?: string | number | null; method?: string; params?: { protocolVersion?: unknown } };

/**
 * `serve --mcp` for an indexed project: relay this stdio session to the project's daemon over its
 * Unix socket, starting the daemon if none runs. The first `initialize` is answered here at once
 * (the daemon may still be starting), then replayed to the daemon with its answer dropped. If the
 * daemon goes away mid-session, a new one is started, the session's handshake is replayed to it, and
 * the requests in flight are sent again.
 */
export async function runProxy(options: ProxyOptions): Promise<void> {
  const hello: Hello = {
    hostPid: process.ppid,
    version: options.version,
    mcpTools: readEnv().mcpTools,
    watch: !options.noWatch,
  };
  // Read here as the daemon will read it, so that what it makes of CODEGRAPH_MCP_TOOLS (unknown names)
  // is said on this process's stderr, which the agent's MCP log shows, and not only in the daemon's log.
  const listed = listedTools(hello.mcpTools, options.log);
  const queue: string[] = [];
  // Requests sent and not yet answered, by id: resent to a new daemon if this one dies (every tool is read-only).
  const inFlight = new Map<string | number, string>();
  let handshake: string[] = []; // initialize and notifications/initialized, to replay to a new daemon
  let dropReplyTo: string | number | null | undefined;
  let socket: Duplex | null = null;
  let stdinEnded = false;

  const out = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  /** Once stdin has ended and every request has its answer: end the daemon connection, or exit if none is up. */
  const endWhenAnswered = () => {
    if (!stdinEnded || inFlight.size > 0) return;
    if (socket) socket.end();
    else process.exit(0);
  };
  const send = (line: string) => {
    if (socket) socket.write(`${line}\n`);
    else queue.push(line);
  };

  lines(
    process.stdin,
    (line) => {
      let msg: Message | null = null;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        // Not ours to judge: the daemon's transport answers malformed input.
      }
      if (msg && !Array.isArray(msg) && typeof msg === "object") {
        if (msg.method === "initialize" && msg.id !== undefined && msg.id !== null && handshake.length === 0) {
          out({
            jsonrpc: "2.0",
            id: msg.id,
            result: {
              protocolVersion: negotiatedVersion(msg.params?.protocolVersion),
              capabilities: CAPABILITIES,
              serverInfo: { name: "codegraph", version: options.version },
            },
          });
          handshake = [line];
          dropReplyTo = msg.id;
          send(line);
          return;
        }
        if (msg.method === "notifications/initialized" && handshake.length === 1) handshake.push(line);
        if (msg.method !== undefined && msg.id !== undefined && msg.id !== null) inFlight.set(msg.id, line);
      }
      send(line);
    },
    () => {
      // The client has said all it will: what it asked is still answered (a script's `printf … |
      // codegraph serve --mcp` waits for every answer), then the connection ends, and with it this process.
      stdinEnded = true;
      endWhenAnswered();
    },
    // The daemon would refuse the line too, but only after it had all come through this process.
    { maxBytes: MAX_LINE_BYTES, onTooLong: () => out(REQUEST_TOO_LARGE) },
  );

  let answeringWithoutIndex = false;
  let besideForeground = false;
  /** Who answers next: the project's daemon, or this process when no daemon can. */
  const answerer = async (): Promise<Duplex> => {
    const { languageOf } = options;
    besideForeground = false;
    answeringWithoutIndex = languageOf !== undefined && !existsSync(dbPath(options.root));
    if (languageOf && answeringWithoutIndex) {
      options.log(
        `no index at ${dbPath(options.root)} (was .codegraph removed?): this session answers without one ` +
          "until `codegraph init` builds it again, then goes back to the project's daemon.",
      );
      const { sessionWithoutIndex } = await import("./stand-in.js");
      return sessionWithoutIndex(options.root, options.version, languageOf, listed);
    }
    return connectOrStart(options, hello).catch(async (e: unknown) => {
      if (!(e instanceof ForegroundWriter) || !languageOf) throw e;
      options.log(
        `${e.message}: no daemon can serve this project while it runs, so this session reads the index it keeps ` +
          "(no watching here) until it exits.",
      );
      besideForeground = true;
      // That server keeps the index fresh: this process reads it, taking no lock and watching nothing.
      const { sessionBesideForeground } = await import("./stand-in.js");
      return sessionBesideForeground(options.root, options.version, languageOf, listed);
    });
  };

  for (;;) {
    const s = await answerer();
    socket = s;
    for (const line of queue.splice(0)) s.write(`${line}\n`);
    const closed = new Promise<void>((resolve) => s.once("close", () => resolve()));
    lines(s, (line) => {
      let msg: Message | null = null;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        // pass through whatever the daemon wrote
      }
      if (msg && msg.method === undefined && msg.id !== undefined && msg.id !== null) {
        if (msg.id === dropReplyTo) {
          dropReplyTo = undefined;
          return;
        }
        inFlight.delete(msg.id);
      }
      process.stdout.write(`${line}\n`);
      endWhenAnswered();
    });
    await closed;
    socket = null;
    if (stdinEnded && inFlight.size === 0) process.exit(0);
    if (answeringWithoutIndex) options.log("an index is there again; starting the project's daemon");
    else if (besideForeground) options.log("the foreground server is gone; starting the project's daemon");
    else options.log(`the daemon went away${existsSync(dbPath(options.root)) ? "; starting a new one" : ""}`);
    // Replay the handshake so the new daemon's session is in the same state (its reply is not the
    // client's), then resend what was in flight: the client never sees the restart.
    queue.unshift(...handshake, ...inFlight.values());
    if (handshake.length) dropReplyTo = (JSON.parse(handshake[0]!) as Message).id;
  }
}

/**
 * The project's writer lock is held by a foreground server (CODEGRAPH_NO_DAEMON=1), so no daemon will
 * start for it. Said at once, rather than after waiting for a daemon's socket that never comes.
 */
export class ForegroundWriter extends Error {
  constructor(readonly holder: WriterInfo) {
    super(`a foreground codegraph server (CODEGRAPH_NO_DAEMON=1, pid ${holder.pid}) is this project's writer`);
  }
}

/** Throws ForegroundWriter when a live foreground server holds the project's writer lock. */
async function refuseBesideForeground(root: string): Promise<void> {
  const holder = await writerLockHolder(root);
  if (holder?.mode === "foreground") throw new ForegroundWriter(holder);
}

/**
 * A connection to the project's daemon, after sending the hello; the daemon is started if needed.
 * Throws ForegroundWriter when a foreground server holds the writer lock instead.
 */
export async function connectOrStart(options: Omit<ProxyOptions, "log">, hello: Hello): Promise<Socket> {
  const path = socketPath(options.root);
  let started = false;
  /** The daemon this call started, and its exit code once it exited (0: another one holds the lock). */
  let daemon: ChildProcess | null = null;
  let exited: number | null = null;
  const start = () => {
    daemon = startDaemon(options, hello.hostPid).once("exit", (code) => (exited = code ?? 1));
    exited = null;
  };
  const deadline = Date.now() + DAEMON_START_TIMEOUT_MS;
  for (;;) {
    const s = await tryConnect(path);
    if (s) {
      s.write(`${JSON.stringify({ jsonrpc: "2.0", method: HELLO_METHOD, params: hello })}\n`);
      return s;
    }
    if (!started) {
      await refuseBesideForeground(options.root);
      start();
      started = true;
    }
    if (exited === 0) {
      // Another process held the lock: a daemon (its socket comes soon), or a foreground server, or a
      // daemon on its way out (it closed our connection, and had not yet let go of the lock when ours
      // tried). Once that one has let go, one more is started.
      const holder = await writerLockHolder(options.root);
      if (holder?.mode === "foreground") throw new ForegroundWriter(holder);
      if (!holder) start();
    }
    if (exited !== null && exited !== 0) {
      // Its own last line: an older one may be another daemon's.
      const said = readRegularFile(daemonLogPath(options.root), { followLink: false })
        ?.split("\n")
        .findLast((line) => line.includes(`[${daemon!.pid}] `));
      throw new CodegraphError(
        "IO",
        `codegraph's daemon for ${options.root} could not start${said ? `: ${said}` : ""}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`codegraph's daemon for ${options.root} did not start; see .codegraph/daemon.log`);
    }
    await sleep(DAEMON_POLL_MS);
  }
}

function tryConnect(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once("connect", () => resolve(s));
    s.once("error", () => resolve(null));
  });
}

/** Start the daemon detached, in its own session (setsid): it outlives this proxy and leaves no zombie. */
function startDaemon(options: Omit<ProxyOptions, "log">, hostPid: number): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      options.mainScript,
      "daemon",
      "--path",
      options.root,
      "--host-pid",
      String(hostPid),
      ...(options.noWatch ? ["--no-watch"] : []),
    ],
    { detached: true, stdio: "ignore", cwd: options.root, env: process.env },
  );
  child.unref();
  return child;
}
