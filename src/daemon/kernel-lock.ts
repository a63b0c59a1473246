import { realpathSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { appendOwnFile, writeOwnFile } from "../core/own-file.js";
import { readRegularFile } from "../core/regular-file.js";
import { shortHash, writerPidPath } from "./paths.js";

/** What writer.pid says about its holder: diagnostics only, never trusted to decide anything. */
export interface WriterInfo {
  pid: number;
  startedAt: string;
  version: string;
  mode: "daemon" | "foreground";
  host: number | null;
}

/**
 * The project's writer lock, released by the kernel when the holder dies (even by `kill -9`).
 *
 * Node has no flock. On Linux the lock is an abstract-namespace Unix socket named after the real path
 * of `.codegraph/writer.pid`: binding it is atomic, a second bind fails with EADDRINUSE, and the
 * kernel frees the name with the process, so there is no file to go stale, delete or recreate, and
 * no pid to trust. writer.pid itself only carries diagnostic JSON.
 *
 * Elsewhere (no abstract namespace) a socket file beside writer.pid stands in; a leftover file with
 * no listener is recognised by a refused connection and replaced.
 */
export async function acquireWriterLock(
  root: string,
  info: Omit<WriterInfo, "pid" | "startedAt">,
): Promise<{ release: () => Promise<void> } | null> {
  const pidFile = writerPidPath(root);
  appendOwnFile(pidFile, ""); // the file the lock is named after must exist to have a real path
  const server = await listenExclusive(lockAddress(pidFile));
  if (!server) return null;
  const record: WriterInfo = { ...info, pid: process.pid, startedAt: new Date().toISOString() };
  writeOwnFile(pidFile, `${JSON.stringify(record)}\n`);
  server.unref(); // holding the lock must not keep the process alive
  return {
    release: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/** Where the lock listens: an abstract socket on Linux, a socket file beside writer.pid elsewhere. */
function lockAddress(pidFile: string): string {
  return process.platform === "linux" ? `\0codegraph-writer-${shortHash(realpathSync(pidFile))}` : `${pidFile}.sock`;
}

/**
 * What writer.pid says, when a live process holds the lock (it accepts connections there), else null.
 * The holder wrote writer.pid when it took the lock; what it says is a hint to act on safely, never proof.
 */
export async function writerLockHolder(root: string): Promise<WriterInfo | null> {
  const pidFile = writerPidPath(root);
  let address: string;
  try {
    address = lockAddress(pidFile);
  } catch {
    return null; // no writer.pid: nobody has held the lock here yet
  }
  if (!(await isListening(address))) return null;
  try {
    return JSON.parse(readRegularFile(pidFile, { followLink: false }) ?? "") as WriterInfo;
  } catch {
    return null;
  }
}

/** Listen on `path`, or null when a live process already does. A dead holder's socket file is replaced. */
export async function listenExclusive(path: string, onConnection?: (socket: Socket) => void): Promise<Server | null> {
  const attempt = () =>
    new Promise<Server | "in-use">((resolve, reject) => {
      const server = createServer(onConnection ?? ((socket) => socket.destroy()));
      server.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve("in-use") : reject(e)));
      server.listen(path, () => resolve(server));
    });
  const first = await attempt();
  if (first !== "in-use") return first;
  if (path.startsWith("\0") || (await isListening(path))) return null;
  rmSync(path, { force: true }); // a socket file left by a process that died: nobody answers on it
  const second = await attempt();
  return second === "in-use" ? null : second;
}

/** True when something accepts connections on the socket at `path`. */
export function isListening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
