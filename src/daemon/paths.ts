import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { indexDir } from "../config/paths.js";
import { privateTempDir } from "../core/private-temp-dir.js";

/** AF_UNIX paths are limited to 104–108 bytes depending on the OS; stay clear of the smallest. */
const MAX_SOCKET_PATH = 100;

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * The daemon's socket: `.codegraph/daemon.sock`, or, when the project's path is too long for a Unix
 * socket, one named by a hash of the project root in a folder of the user's own: under the temp dir,
 * else in `~/.codegraph/run`. Straight in the shared temp dir, its name known in advance, another
 * user could listen there first and be taken for the project's daemon; a folder there that another
 * user made first is not used either (see core/private-temp-dir.ts).
 */
export function socketPath(root: string): string {
  const inProject = join(indexDir(root), "daemon.sock");
  if (Buffer.byteLength(inProject) <= MAX_SOCKET_PATH) return inProject;
  const name = `${shortHash(root)}.sock`;
  const own = privateTempDir("codegraph-sockets");
  if (own) return join(own, name);
  const inHome = join(homedir(), ".codegraph", "run");
  try {
    mkdirSync(inHome, { recursive: true, mode: 0o700 });
  } catch {
    return inProject; // too long: the daemon then fails to start, saying where it could not listen
  }
  return Buffer.byteLength(join(inHome, name)) <= MAX_SOCKET_PATH ? join(inHome, name) : inProject;
}

export const writerPidPath = (root: string) => join(indexDir(root), "writer.pid");
export const daemonLogPath = (root: string) => join(indexDir(root), "daemon.log");
export { shortHash };
