import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readEnv } from "../../config/env.js";
import { dbPath } from "../../config/paths.js";
import { CodegraphError } from "../../core/errors.js";
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  formatHttpAddress,
  isLoopbackHost,
  parseHttpAddress,
  type HttpAddress,
} from "../../core/http-address.js";
import { ExplicitProjects } from "../../daemon/broker.js";
import { languageForPath } from "../../extract/language.js";
import { MCP_PATH, startHttpServer } from "../../mcp/http.js";
import { toolPool } from "../../mcp/read-pool.js";
import { IndexConnections, listedTools } from "../../mcp/session.js";
import { stderrLog } from "../../mcp/stdio.js";
import { findIndexedRoot } from "../../project/root.js";
import { ProjectResolver } from "../../project/workspace.js";
import {
  httpLogPath,
  listHttpServers,
  registerHttpServer,
  unregisterHttpServer,
  userStateDir,
} from "../http-registry.js";
import { READ_WORKER, daemonSync, type ServeOptions } from "./serve-command.js";

/** How long `--detach` waits for the server it started to be listening. */
const DETACH_WAIT_MS = 20_000;

/**
 * `codegraph serve --http`: MCP over streamable HTTP at /mcp, loopback by default. The project a call
 * reads (the `--path` one, or the one it names) is kept live by its shared daemon, through one broker
 * for the whole process (HTTP requests carry no session): the daemon syncs the edits it has seen, then
 * this process answers from the index on its own read workers.
 */
export async function runServeHttp(opts: ServeOptions, version: string): Promise<void> {
  const address = opts.httpAddr
    ? parseHttpAddress(opts.httpAddr)
    : { host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT };
  if (!address) {
    throw new CodegraphError(
      "BAD_INPUT",
      `--http-addr ${opts.httpAddr} is not <host>:<port> (e.g. 127.0.0.1:8111, or [::1]:8111).`,
    );
  }
  const token = readEnv().httpToken;
  if (!isLoopbackHost(address.host) && !token) {
    throw new CodegraphError(
      "BAD_INPUT",
      `Refusing to serve on ${formatHttpAddress(address)} without a token: anyone who can reach it could read the ` +
        "indexed code. Keep the default 127.0.0.1 and forward the port (ssh -N -L 8111:127.0.0.1:8111 host), " +
        "or set CODEGRAPH_HTTP_TOKEN so every request must carry Authorization: Bearer <token>.",
    );
  }
  const root = opts.path === undefined ? null : pinnedProject(opts.path);
  if (opts.detach) return detach(opts, address, root);

  const log = stderrLog;
  const resolver = root
    ? new ProjectResolver(process.cwd(), root)
    : new ProjectResolver(process.cwd(), undefined, undefined, false);
  const broker = readEnv().noDaemon
    ? null
    : new ExplicitProjects({
        version,
        mainScript: process.argv[1]!,
        hostPid: process.pid,
        noWatch: opts.watch === false,
      });
  // Calls are answered here, on worker threads, once the project's daemon has synced what it saw.
  const indexes = new IndexConnections();
  const reads = toolPool(READ_WORKER, indexes, languageForPath, log);
  const server = await startHttpServer({
    address,
    token,
    requestTimeoutMs: readEnv().httpRequestTimeoutMs,
    deps: {
      version,
      resolver,
      indexes,
      listed: listedTools(readEnv().mcpTools, log),
      languageOf: languageForPath,
      log,
      viaDaemon: broker ? daemonSync(broker) : undefined,
      pinnedViaDaemon: true,
      onlyPinned: root !== null,
      runTool: (call, concurrent) => reads.run(call, concurrent),
    },
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "EADDRINUSE") {
      throw new CodegraphError(
        "BAD_INPUT",
        `${formatHttpAddress(address)} is in use. \`codegraph http list\` shows codegraph's servers; pick another with --http-addr.`,
      );
    }
    throw e;
  });
  const addr = formatHttpAddress(server.address);
  registerHttpServer({
    addr,
    pid: process.pid,
    project: root,
    startedAt: new Date().toISOString(),
    log: opts.httpLog ?? null,
  });
  log(`MCP over HTTP at http://${addr}${MCP_PATH}${root ? ` for ${root}` : " (calls name their projectPath)"}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing in-flight requests, then stopping`);
    unregisterHttpServer(process.pid);
    void server.close().then(() => {
      broker?.closeAll();
      log("stopped");
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("exit", () => unregisterHttpServer(process.pid));
}

/** The `--path` project's root, which must already be indexed: the HTTP server never builds an index. */
function pinnedProject(path: string): string {
  const abs = resolve(process.cwd(), path);
  const root = findIndexedRoot(abs);
  if (!root || !existsSync(dbPath(root))) {
    throw new CodegraphError(
      "NOT_INDEXED",
      `${abs} is not indexed, so there is nothing to serve. Run \`codegraph init ${abs}\` first, then start the server again.`,
    );
  }
  return root;
}

/** Start this same command in the background, wait until it listens, and say where it is. */
async function detach(opts: ServeOptions, address: HttpAddress, root: string | null): Promise<void> {
  const addr = formatHttpAddress(address);
  mkdirSync(userStateDir(), { recursive: true });
  const logFile = httpLogPath(addr);
  const fd = openSync(logFile, "a");
  const args = [process.argv[1]!, "serve", "--http", "--http-addr", addr, "--http-log", logFile];
  if (root) args.push("--path", root);
  if (opts.watch === false) args.push("--no-watch");
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ["ignore", fd, fd],
    cwd: root ?? process.cwd(),
    env: process.env,
  });
  closeSync(fd);
  let exited: number | null = null;
  child.on("exit", (code) => (exited = code ?? 1));
  child.unref();
  const deadline = Date.now() + DETACH_WAIT_MS;
  for (;;) {
    const entry = listHttpServers().find((e) => e.pid === child.pid);
    if (entry) {
      process.stdout.write(
        `codegraph HTTP server started: pid ${entry.pid}, http://${entry.addr}${MCP_PATH}\nlog: ${logFile}\n` +
          `stop it with: codegraph http stop ${entry.addr}\n`,
      );
      return;
    }
    if (exited !== null || Date.now() > deadline) {
      const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join("\n");
      throw new CodegraphError(
        "IO",
        `The HTTP server did not start${exited !== null ? ` (exit code ${exited})` : ""}. Its log, ${logFile}, ends:\n${tail}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
