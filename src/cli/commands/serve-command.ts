import { existsSync } from "node:fs";
import { readEnv } from "../../config/env.js";
import { dbPath } from "../../config/paths.js";
import { CodegraphError } from "../../core/errors.js";
import { ExplicitProjects } from "../../daemon/broker.js";
import { runDaemon } from "../../daemon/daemon.js";
import { runForegroundWriter } from "../../daemon/foreground.js";
import { runProxy } from "../../daemon/proxy.js";
import { languageForPath } from "../../extract/language.js";
import type { ServerDeps } from "../../mcp/server.js";
import { guardStdout, serveMcpStdio, stderrLog } from "../../mcp/stdio.js";
import { isUnsafeRoot } from "../../project/root.js";
import { ProjectResolver } from "../../project/workspace.js";
import { runServeHttp } from "./serve-http.js";

export interface ServeOptions {
  mcp?: boolean;
  http?: boolean;
  httpAddr?: string;
  detach?: boolean;
  /** Set by `--detach` for the server it starts: where its output goes, for the registry. */
  httpLog?: string;
  path?: string;
  watch?: boolean;
}

/**
 * `codegraph serve --mcp`: the MCP server on stdin/stdout. For an indexed project the session is
 * relayed to the project's shared daemon (started on demand); with CODEGRAPH_NO_DAEMON=1 this process
 * serves and owns the project's writer lock itself; with no project, or at $HOME or /, it serves
 * read-only and inline. Built as its own bundle and loaded only by this command, so the MCP SDK never
 * slows the other commands' start-up.
 */
export async function runServe(opts: ServeOptions, version: string): Promise<void> {
  if (opts.mcp && opts.http) {
    throw new CodegraphError("BAD_INPUT", "Pick one transport: --mcp (stdin/stdout) or --http (streamable HTTP).");
  }
  if (opts.http) return runServeHttp(opts, version);
  if (opts.detach || opts.httpAddr) {
    throw new CodegraphError(
      "BAD_INPUT",
      "--detach and --http-addr go with --http: `codegraph serve --http --detach`.",
    );
  }
  if (!opts.mcp) {
    throw new CodegraphError(
      "BAD_INPUT",
      "Say which transport to serve: `codegraph serve --mcp` speaks MCP on stdin/stdout (what agents' configs run); " +
        "`codegraph serve --http` serves streamable HTTP on 127.0.0.1:8111.",
    );
  }
  guardStdout();
  const resolver = new ProjectResolver(process.cwd(), opts.path);
  const root = resolver.current().root;
  const live = root !== null && existsSync(dbPath(root)) && !isUnsafeRoot(root);
  if (live && !readEnv().noDaemon) {
    await runProxy({
      root,
      version,
      mainScript: process.argv[1]!,
      log: stderrLog,
      noWatch: opts.watch === false,
      languageOf: languageForPath,
    });
    return;
  }
  if (live) {
    await runForegroundWriter({ root, version, resolver, languageOf: languageForPath, watch: opts.watch !== false });
    return;
  }
  // No default project to serve live: a call naming an indexed project is answered by that project's
  // daemon (started or attached on the first such call), unless daemons are turned off.
  const broker = readEnv().noDaemon
    ? null
    : new ExplicitProjects({
        version,
        mainScript: process.argv[1]!,
        hostPid: process.ppid,
        noWatch: opts.watch === false,
      });
  await serveMcpStdio({
    version,
    resolver,
    languageOf: languageForPath,
    viaDaemon: broker ? daemonSync(broker) : undefined,
  });
  // The client went away, and had every answer it asked for: the daemons it attached may now idle out.
  broker?.closeAll();
  process.exit(0);
}

/** `codegraph daemon --path <root> --host-pid <pid>`: started by `serve --mcp`, not by people. */
export async function runDaemonCommand(
  opts: { path?: string; hostPid?: string; watch?: boolean },
  version: string,
): Promise<void> {
  if (!opts.path) throw new CodegraphError("BAD_INPUT", "codegraph daemon needs --path <project>.");
  const host = Number(opts.hostPid);
  await runDaemon({
    root: opts.path,
    hostPid: Number.isInteger(host) && host > 1 ? host : null,
    version,
    languageOf: languageForPath,
    watch: opts.watch !== false,
    readWorker: READ_WORKER,
  });
}

/** The read worker's bundle, beside the CLI bundle (dist/cli/); tsc's output puts it there too. */
export const READ_WORKER = new URL("../read-worker.js", import.meta.url);

/** Explicitly named projects kept live by their daemons; never $HOME or /, which no daemon watches. */
export function daemonSync(broker: ExplicitProjects): NonNullable<ServerDeps["viaDaemon"]> {
  return async (root) => (isUnsafeRoot(root) ? null : { health: await broker.ready(root) });
}
