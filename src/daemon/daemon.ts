import { rmSync } from "node:fs";
import type { Socket } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { readEnv } from "../config/env.js";
import { syncIndex } from "../indexer/sync.js";
import { watchProject } from "../watch/index.js";
import { LineTransport } from "../mcp/line-transport.js";
import { toolPool } from "../mcp/read-pool.js";
import { IndexConnections, listedTools, serveSession } from "../mcp/session.js";
import { realPathOrGiven } from "../core/paths.js";
import { isUnsafeRoot } from "../project/root.js";
import { ProjectResolver } from "../project/workspace.js";
import { ExplicitProjects } from "./broker.js";
import { acquireWriterLock, listenExclusive } from "./kernel-lock.js";
import { daemonLogger } from "./log.js";
import { socketPath } from "./paths.js";
import { placeCheck } from "./still-in-place.js";
import { CHANGED_METHOD, HELLO_METHOD, READY_METHOD, type Hello, type Ready } from "./hello.js";
import { processAlive } from "../core/process-alive.js";

export interface DaemonOptions {
  root: string;
  /** The pid of the agent or IDE that ran `serve --mcp` first. */
  hostPid: number | null;
  version: string;
  languageOf: (path: string) => string | null;
  /** Keep watching after the catch-up (false: `--no-watch`). */
  watch: boolean;
  /** The read worker's script (see ReadPool); null answers every call on the daemon's own thread. */
  readWorker: URL | null;
}

/**
 * The project's one daemon: it holds the writer lock for its whole life, brings the index up to date,
 * and serves every client's MCP session over a Unix socket. It exits when its hosts are gone, or after
 * the idle timeout once the last client disconnected.
 */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  const { root, version } = options;
  const log = daemonLogger(root);
  const env = readEnv();
  if (isUnsafeRoot(root)) {
    log(`refusing to run for ${root}: the home folder and / are never watched or synced`);
    process.exitCode = 2;
    return;
  }
  let lock: Awaited<ReturnType<typeof acquireWriterLock>>;
  try {
    lock = await acquireWriterLock(root, { version, mode: "daemon", host: options.hostPid });
  } catch (e) {
    // Said in the log, which the proxy that started us quotes (a folder where writer.pid goes).
    log(`cannot start: ${(e as Error).message}`);
    process.exitCode = 1;
    return;
  }
  if (!lock) {
    log("another process holds the writer lock; this daemon is not needed");
    return;
  }
  const path = socketPath(root);
  const realRoot = realPathOrGiven(root);
  // We hold the writer lock, so no other daemon of this project is alive: a socket file is a leftover.
  rmSync(path, { force: true });
  const connections = new Set<Socket>();
  const hosts = new Set<number>(options.hostPid ? [options.hostPid] : []);
  const indexes = new IndexConnections();
  const reads = options.readWorker ? toolPool(options.readWorker, indexes, options.languageOf, log) : null;
  let idleTimer: NodeJS.Timeout | undefined;
  let closing = false;

  // Readers that asked READY_METHOD, and whether they are owed word of the next change.
  const readers = new Map<Socket, boolean>();
  const tellReaders = () => {
    for (const [socket, owed] of readers) {
      if (!owed) continue;
      readers.set(socket, false);
      socket.write(`${JSON.stringify({ jsonrpc: "2.0", method: CHANGED_METHOD })}\n`);
    }
  };
  // The watcher's first sync is the catch-up: tool calls wait for it, so the first answer is current.
  const watch = () =>
    watchProject(root, {
      initialSync: true,
      log,
      onError: (e) => log(`auto-sync: ${e.message}`),
      onChange: tellReaders,
    });
  let watcher = options.watch ? await watch() : null;
  const catchUp = watcher
    ? watcher.caughtUp()
    : syncIndex(root).then(
        () => undefined,
        (e: Error) => log(`catch-up sync failed: ${e.message}`),
      );
  /** Started without a watch (`--no-watch`), and a client that wants one attached: from now on, watch. */
  let watchWanted: Promise<unknown> | null = null;
  const startWatching = () => {
    if (watcher || watchWanted || closing) return;
    log("a client wants later saves watched: watching from now on");
    watchWanted = catchUp.then(watch).then((w) => {
      if (closing) return w.close();
      watcher = w;
    });
  };
  void catchUp.then(() => log("caught up with the files on disk"));

  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    log(`exiting: ${why}`);
    clearTimeout(idleTimer);
    clearInterval(hostCheck);
    for (const c of connections) c.destroy();
    server?.close();
    await reads?.close();
    await watcher?.close();
    rmSync(path, { force: true });
    indexes.closeAll();
    await lock.release();
    process.exit(0);
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void shutdown("idle"), env.daemonIdleTimeoutMs);
  };

  const server = await listenExclusive(path, (socket) => {
    connections.add(socket);
    clearTimeout(idleTimer);
    const listed = new Set<string>();
    // The agent behind this session, from its hello: the daemons it has us attach live as long as it does.
    let sessionHost = process.pid;
    let sessionWatches = options.watch;
    let others: ExplicitProjects | null = null;
    const session = serveSession(new LineTransport(socket, socket), {
      version,
      resolver: new ProjectResolver(root, root),
      indexes,
      listed,
      languageOf: options.languageOf,
      log,
      // A question asked while edits wait out the debounce syncs them first: no answer from before a save.
      beforeCall: () => (watcher ? watcher.flush() : catchUp),
      health: () => watcher?.health() ?? null,
      runTool: reads ? (call, concurrent) => reads.run(call, concurrent) : undefined,
      // A call naming another indexed project is kept live by that project's daemon, as it would be
      // from a session with no project of its own; this session holds the connection.
      viaDaemon: async (other) => {
        if (isUnsafeRoot(other) || realPathOrGiven(other) === realRoot) return null;
        others ??= new ExplicitProjects({
          version,
          mainScript: process.argv[1]!,
          hostPid: sessionHost,
          noWatch: !sessionWatches,
        });
        return { health: await others.ready(other) };
      },
      peek: (message: JSONRPCMessage) => {
        if (!("method" in message)) return false;
        if (message.method === READY_METHOD && "id" in message) {
          // A reader of the index (the HTTP server, a session's explicit project) asks us to sync first.
          // From now on it is told of the next change, which may fall before this answer.
          if (watcher) readers.set(socket, true);
          const reply = () => {
            const ready: Ready = { health: watcher ? watcher.health() : null, live: watcher?.live() ?? false };
            socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: ready })}\n`);
          };
          (watcher ? watcher.flush() : catchUp).then(reply, reply);
          return true;
        }
        if (message.method !== HELLO_METHOD) return false;
        const hello = (message.params ?? {}) as Partial<Hello>;
        // pid 1 is init: a proxy whose agent already died was adopted by it, and init never exits.
        if (typeof hello.hostPid === "number" && hello.hostPid > 1) {
          hosts.add(hello.hostPid);
          sessionHost = hello.hostPid;
        }
        for (const t of listedTools(hello.mcpTools ?? null, log)) listed.add(t);
        if (typeof hello.watch === "boolean") sessionWatches = hello.watch;
        if (hello.watch === true) startWatching();
        if (hello.version && hello.version !== version) log(`client ${hello.version} attached to daemon ${version}`);
        return true;
      },
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      void session.close();
      others?.closeAll();
      connections.delete(socket);
      readers.delete(socket);
      if (!connections.size && !closing) armIdle();
    });
  });
  if (!server) {
    log(`cannot listen on ${path}`);
    await lock.release();
    process.exitCode = 1;
    return;
  }
  log(`serving ${root} on ${path} (version ${version})`);
  armIdle(); // the client that started us connects within moments; if it never does, we leave

  // The host is the agent that ran `serve --mcp`: when every host is gone, so is the reason to run.
  // A daemon whose .codegraph/ was removed or replaced serves nothing a session can reach, yet its
  // writer lock keeps a new daemon from starting: it leaves too, and the next session starts one.
  let hadHost = hosts.size > 0;
  const moved = placeCheck(root, path);
  const hostCheck = setInterval(() => {
    const gone = moved();
    if (gone) return void shutdown(`${gone}; a new daemon serves the project from its next session`);
    for (const pid of hosts) if (!processAlive(pid)) hosts.delete(pid);
    if (hosts.size) hadHost = true;
    else if (hadHost) void shutdown("every host process exited");
  }, env.hostCheckMs);
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
