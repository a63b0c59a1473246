import { closeSync, lstatSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { processStartTime, sameProcessAlive } from "../core/process-alive.js";
import { readRegularFile } from "../core/regular-file.js";

const LOCK_FILE = "writer.lock";

/** Lock files this process holds now: a lock naming our own pid is ours only if it is listed here. */
const heldHere = new Set<string>();

/**
 * The writer a lock file names: its pid, and when that process started where that is known (a lock
 * from an older codegraph has the pid alone); null for none, or for anything but a regular file (a
 * link is not followed).
 */
function holder(path: string): { pid: number; started: string | null } | null {
  const [pidText, started] = (readRegularFile(path, { followLink: false }) ?? "").trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? "", 10);
  return Number.isFinite(pid) ? { pid, started: started ?? null } : null;
}

/** What a lock file holds: this process's pid and start time, so that a pid reused later is not taken for us. */
function lockText(): string {
  const started = processStartTime(process.pid);
  return started === null ? `${process.pid}\n` : `${process.pid} ${started}\n`;
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
      writeSync(fd, lockText());
      closeSync(fd);
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const held = holder(path);
      const pid = held?.pid ?? null;
      // Our own pid: another sync in this process (a daemon's catch-up and its watcher) holds it, or
      // an earlier process that had our pid died holding it.
      // No pid yet: its writer may be between creating the file and writing to it.
      // Another pid: alive, and the same process that wrote the lock (not one that reused its pid).
      const live =
        pid === process.pid
          ? heldHere.has(path)
          : held === null
            ? justCreated(path)
            : sameProcessAlive(held.pid, held.started);
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
  const held = holder(path);
  if (held === null) {
    // A lock file naming no process (cut short by a crash) is removed all the same, and said so.
    const there = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
    removeLock(path);
    return { removed: there, pid: null };
  }
  const pid = held.pid;
  if (sameProcessAlive(pid, held.started) && !force) {
    throw new CodegraphError(
      "LOCKED",
      `The lock is held by a running process (pid ${pid}). Stop it first, or pass --force if you are sure it is not writing.`,
    );
  }
  removeLock(path);
  return { removed: true, pid };
}
