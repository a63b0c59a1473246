import { closeSync, lstatSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { processAlive } from "../core/process-alive.js";
import { readRegularFile } from "../core/regular-file.js";

const LOCK_FILE = "writer.lock";

/** Lock files this process holds now: a lock naming our own pid is ours only if it is listed here. */
const heldHere = new Set<string>();

/** The pid in a lock file; null for none, or for anything but a regular file (a link is not followed). */
function holder(path: string): number | null {
  const pid = Number.parseInt(readRegularFile(path, { followLink: false })?.trim() ?? "", 10);
  return Number.isFinite(pid) ? pid : null;
}

/** Remove a lock no live writer holds. A folder in its place is named (rm would refuse it): none of ours. */
function removeLock(path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CodegraphError(
      "IO",
      `${path} is a folder, where codegraph keeps its writer lock. Remove it, then run the command again.`,
    );
  }
  rmSync(path, { force: true });
}

function justCreated(path: string): boolean {
  try {
    return Date.now() - lstatSync(path).mtimeMs < 2000;
  } catch {
    return false;
  }
}

/**
 * The writer lock: one process writes an index at a time. A lock left by a process that died is taken
 * over; one held by a live process is a LOCKED error that says how to proceed.
 */
export function acquireWriterLock(indexDir: string): () => void {
  const path = join(indexDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = holder(path);
      // Our own pid: another sync in this process (a daemon's catch-up and its watcher) holds it, or
      // an earlier process that had our pid died holding it.
      // No pid yet: its writer may be between creating the file and writing to it.
      const live = pid === process.pid ? heldHere.has(path) : pid === null ? justCreated(path) : processAlive(pid);
      if (live) {
        const who = pid === process.pid ? "Another sync in this process" : `Another codegraph process (pid ${pid})`;
        throw new CodegraphError(
          "LOCKED",
          `${who} is writing this index. Wait for it to finish; ` +
            "if it is stuck, stop it, or run `codegraph unlock` if it has already died.",
        );
      }
      removeLock(path); // stale: its writer is gone
    }
  }
  throw new CodegraphError("LOCKED", `Could not take the writer lock at ${path}. Run \`codegraph unlock\` and retry.`);
}

/** `codegraph unlock`: remove the lock. Refuses while its holder is alive unless forced. */
export function clearWriterLock(indexDir: string, force: boolean): { removed: boolean; pid: number | null } {
  const path = join(indexDir, LOCK_FILE);
  const pid = holder(path);
  if (pid === null) {
    removeLock(path);
    return { removed: false, pid: null };
  }
  if (processAlive(pid) && !force) {
    throw new CodegraphError(
      "LOCKED",
      `The lock is held by a running process (pid ${pid}). Stop it first, or pass --force if you are sure it is not writing.`,
    );
  }
  removeLock(path);
  return { removed: true, pid };
}
