import { syncIndex } from "../indexer/sync.js";
import { watchProject } from "../watch/index.js";
import { LineTransport } from "../mcp/line-transport.js";
import { IndexConnections, listedTools, serveSession } from "../mcp/session.js";
import { stderrLog } from "../mcp/stdio.js";
import type { ProjectResolver } from "../project/workspace.js";
import { readEnv } from "../config/env.js";
import { acquireWriterLock } from "./kernel-lock.js";
import { writerPidPath } from "./paths.js";
import { readRegularFile } from "../core/regular-file.js";

export interface ForegroundOptions {
  root: string;
  version: string;
  resolver: ProjectResolver;
  languageOf: (path: string) => string | null;
  /** Keep watching after the catch-up (false: `--no-watch`). */
  watch: boolean;
}

/**
 * CODEGRAPH_NO_DAEMON=1: this process serves the session and is the project's one writer, holding the
 * writer lock until it exits. A second writer (another foreground server, or a daemon) is refused.
 */
export async function runForegroundWriter(options: ForegroundOptions): Promise<void> {
  const lock = await acquireWriterLock(options.root, {
    version: options.version,
    mode: "foreground",
    host: process.ppid,
  });
  if (!lock) {
    const says = readRegularFile(writerPidPath(options.root), { followLink: false })?.trim();
    const holder = says ? ` (writer.pid says: ${says})` : "";
    stderrLog(
      `another codegraph process already writes ${options.root}${holder}. ` +
        "Unset CODEGRAPH_NO_DAEMON so this session shares the project's daemon, or stop the other server.",
    );
    process.exit(1);
  }
  const watcher = options.watch
    ? await watchProject(options.root, {
        initialSync: true,
        log: stderrLog,
        onError: (e) => stderrLog(`auto-sync: ${e.message}`),
      })
    : null;
  const catchUp = watcher
    ? watcher.caughtUp()
    : syncIndex(options.root).then(
        () => undefined,
        (e: Error) => {
          stderrLog(`catch-up sync failed: ${e.message}`);
        },
      );
  const transport = new LineTransport(process.stdin, process.stdout);
  serveSession(transport, {
    version: options.version,
    resolver: options.resolver,
    indexes: new IndexConnections(),
    listed: listedTools(readEnv().mcpTools, stderrLog),
    languageOf: options.languageOf,
    log: stderrLog,
    // A question asked while edits wait out the debounce syncs them first: no answer from before a save.
    beforeCall: () => (watcher ? watcher.flush() : catchUp),
    health: watcher ? () => watcher.health() : undefined,
  });
  // The client went away, and had every answer it asked for.
  void transport.answered.then(async () => {
    await watcher?.close();
    await lock.release();
    process.exit(0);
  });
}
