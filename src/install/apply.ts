import { chmodSync, mkdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { liesInside, realPathOf } from "../core/paths.js";
import { readRegularFile } from "../core/regular-file.js";
import type { FileChange } from "./plan.js";

/**
 * Write a plan's files. Each write goes to a temporary file beside the target and is renamed over
 * it, so an agent reading its config never sees half of it, and a crash leaves the old file whole.
 * A symlinked config (dotfiles) is written through the link, unless it is a file of the project
 * that leads out of it (see `leavingProject`). Folders are left in place, even empty: an agent's
 * settings folder may have been there before us. Only our own skill folder goes.
 */
export function applyChanges(changes: readonly FileChange[], projectRoot: string): void {
  const leaving = leavingProject(changes, projectRoot);
  if (leaving) {
    throw new CodegraphError(
      "IO",
      `${leaving.file} leads to ${leaving.real}, outside the project: codegraph writes a project's config inside it only. Nothing was written.`,
    );
  }
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

/**
 * A change to a file of the project that would be written outside it: a cloned repository can
 * commit `.cursor/mcp.json` as a link to a file of the user's, or `.vscode` as a link to a folder,
 * and writing through them edits what they name.
 */
function leavingProject(changes: readonly FileChange[], projectRoot: string): { file: string; real: string } | null {
  const root = realTarget(projectRoot);
  for (const { file, after } of changes) {
    // A file taken out is unlinked, and a link with it: what it named stays.
    if (after === null || !liesInside(file, projectRoot)) continue;
    const real = realOfNew(file);
    if (!liesInside(real, root)) return { file, real };
  }
  return null;
}

/** Where writing `file` lands: its real path, or its nearest existing folder's and the rest. */
function realOfNew(file: string): string {
  const rest: string[] = [];
  for (let at = file; ; at = dirname(at)) {
    const real = realPathOf(at);
    if (real) return join(real, ...rest);
    if (dirname(at) === at) return file;
    rest.unshift(basename(at));
  }
}

function realTarget(file: string): string {
  return realPathOf(file) ?? file;
}

function removeOwnEmptyDir(dir: string): void {
  if (basename(dir) !== "codegraph") return;
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or already gone
  }
}
