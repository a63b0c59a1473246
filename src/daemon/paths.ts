import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexDir } from "../config/paths.js";

/** AF_UNIX paths are limited to 104–108 bytes depending on the OS; stay clear of the smallest. */
const MAX_SOCKET_PATH = 100;

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * The daemon's socket: `.codegraph/daemon.sock`, or a short path under the temp dir (named by a hash
 * of the project root) when the project's path is too long for a Unix socket.
 */
export function socketPath(root: string): string {
  const inProject = join(indexDir(root), "daemon.sock");
  return Buffer.byteLength(inProject) <= MAX_SOCKET_PATH
    ? inProject
    : join(tmpdir(), `codegraph-${shortHash(root)}.sock`);
}

export const writerPidPath = (root: string) => join(indexDir(root), "writer.pid");
export const daemonLogPath = (root: string) => join(indexDir(root), "daemon.log");
export { shortHash };
