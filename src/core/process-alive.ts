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

/**
 * When a process started, as Linux counts it (clock ticks since boot, /proc/PID/stat's 22nd field), or
 * null where that cannot be read. With its pid it names one process: after a reboot, or once pids wrap,
 * the same pid is another process, started at another time.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name (field 2) may hold spaces and parentheses: the fields after it follow its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** processAlive, and, when a start time was recorded with the pid, still that process. */
export function sameProcessAlive(pid: number, startTime: string | null): boolean {
  if (!processAlive(pid)) return false;
  if (startTime === null) return true;
  const now = processStartTime(pid);
  return now === null || now === startTime;
}
