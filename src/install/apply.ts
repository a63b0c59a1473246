import {
  chmodSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { readRegularFile } from "../core/regular-file.js";
import type { FileChange } from "./plan.js";

/**
 * Write a plan's files. Each write goes to a temporary file beside the target and is renamed over
 * it, so an agent reading its config never sees half of it, and a crash leaves the old file whole.
 * A symlinked config (dotfiles) is written through the link. Folders are left in place, even empty:
 * an agent's settings folder may have been there before us. Only our own skill folder goes.
 */
export function applyChanges(changes: readonly FileChange[]): void {
  for (const change of changes) {
    const current = readRegularFile(change.file);
    if (current !== change.before) {
      throw new CodegraphError(
        "IO",
        `${change.file} changed while codegraph was editing it; nothing was written to it. Run the command again.`,
      );
    }
    if (change.after === null) {
      unlinkSync(change.file);
      removeOwnEmptyDir(dirname(change.file));
    } else {
      writeAtomically(change.file, change.after);
    }
  }
}

function writeAtomically(file: string, text: string): void {
  const target = realTarget(file);
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${process.pid}.${Date.now()}.codegraph.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o777;
  } catch {
    mode = undefined;
  }
  try {
    writeFileSync(temp, text, { mode: mode ?? 0o644 });
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // the temporary file was never created
    }
    throw new CodegraphError("IO", `cannot write ${file}: ${(e as Error).message}`);
  }
}

function realTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function removeOwnEmptyDir(dir: string): void {
  if (basename(dir) !== "codegraph") return;
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or already gone
  }
}
