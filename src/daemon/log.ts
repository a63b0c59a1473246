import { lstatSync, renameSync } from "node:fs";
import { appendOwnFile } from "../core/own-file.js";
import { daemonLogPath } from "./paths.js";

/** The log is rotated past this size: one previous file is kept as daemon.log.1. */
const MAX_LOG_BYTES = 1024 * 1024;

/** A line logger for the daemon, appending to `.codegraph/daemon.log` (a daemon has no terminal). */
export function daemonLogger(root: string): (line: string) => void {
  const path = daemonLogPath(root);
  return (line) => {
    try {
      if ((lstatSync(path, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
      appendOwnFile(path, `${new Date().toISOString()} [${process.pid}] ${line}\n`);
    } catch {
      // Logging must never take the daemon down (a full disk, a removed .codegraph/).
    }
  };
}
