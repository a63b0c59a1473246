import { readFileSync } from "node:fs";

/**
 * Whether a process is alive (signal 0 only checks; EPERM means it exists under another user). A
 * zombie, dead but not yet reaped by its parent, counts as gone: a writer killed with `kill -9` stays
 * one until its parent (an agent's host, a shell) reaps it, and its lock must not outlive it.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc (not Linux): signal 0 is all we know
  }
}
