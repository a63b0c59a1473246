import {
  accessSync,
  chmodSync,
  constants,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { liesInside, realPathOf } from "../core/paths.js";
import { readRegularFile } from "../core/regular-file.js";
import type { FileChange } from "./plan.js";
import { shellWord } from "./shell-words.js";

/** A file that could not be written; the others were. */
export interface WriteFailure {
  file: string;
  message: string;
}

/**
 * Write a plan's files, each on its own: one that fails is returned, and the others are still
 * written. Each write goes to a temporary file beside the target and is renamed over it, so an agent
 * reading its config never sees half of it, and a crash leaves the old file whole. A symlinked
 * config (dotfiles) is written through the link, unless it is a file of the project that leads out
 * of it (see `leavingProject`: then nothing is written at all). Folders are left in place, even
 * empty: an agent's settings folder may have been there before us. Only our own skill folder goes.
 */
export function applyChanges(changes: readonly FileChange[], projectRoot: string): WriteFailure[] {
  const leaving = leavingProject(changes, projectRoot);
  if (leaving) {
    throw new CodegraphError(
      "IO",
      `${leaving.file} leads to ${leaving.real}, outside the project: codegraph writes a project's config inside it only. Nothing was written.`,
    );
  }
  const failures: WriteFailure[] = [];
  for (const change of changes) {
    try {
      applyChange(change);
    } catch (e) {
      failures.push({ file: change.file, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return failures;
}

/**
 * Why a planned change cannot be written, or undefined. Asked of each target's changes before
 * anything is written (so a target is skipped whole, and reported), and again before each write.
 */
export function writeProblem({ file, before, after }: FileChange): string | undefined {
  const link = linkTarget(file);
  if (after !== null && link !== undefined && realPathOf(file) === null) {
    return `${file} is a symbolic link to ${link}, which does not exist; codegraph does not put a file in place of a link. Create the file it names (or remove the link) and run the command again.`;
  }
  if (before === null) return undefined;
  let stats: { mode: number; uid: number };
  try {
    stats = statSync(file);
  } catch {
    return undefined;
  }
  const mode = (stats.mode & 0o777).toString(8).padStart(4, "0");
  // A file without any write bit was made read-only on purpose; root could still replace it by
  // renaming over it, without a word, so it is refused for every user.
  if ((stats.mode & 0o222) === 0) {
    return `${file} is read-only (mode ${mode}); codegraph leaves it as it is. Make it writable (chmod u+w ${shellWord(file)}) and run the command again.`;
  }
  if (!canWrite(file)) {
    return `${file} is not writable by this user (mode ${mode}, owner uid ${stats.uid}); codegraph leaves it as it is. Run the command as its owner, or give yourself write access to it, and run it again.`;
  }
  return undefined;
}

function applyChange(change: FileChange): void {
  const problem = writeProblem(change);
  if (problem) throw new CodegraphError("IO", problem);
  const current = readRegularFile(change.file);
  if (current !== change.before) {
    throw new CodegraphError(
      "IO",
      `${change.file} changed while codegraph was editing it; nothing was written to it. Run the command again.`,
    );
  }
  if (change.after !== null) return writeAtomically(change.file, change.after);
  // The plan never deletes a link (it writes the emptied text through it instead); this is the guard.
  if (linkTarget(change.file) !== undefined) {
    throw new CodegraphError("IO", `${change.file} is a symbolic link; codegraph does not delete one.`);
  }
  try {
    unlinkSync(change.file);
  } catch (e) {
    throw new CodegraphError("IO", `cannot delete ${change.file}: ${(e as Error).message}; it was left as it was.`);
  }
  removeOwnEmptyDir(dirname(change.file));
}

function writeAtomically(file: string, text: string): void {
  const target = realTarget(file);
  const temp = join(dirname(target), `.${process.pid}.${Date.now()}.codegraph.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o777;
  } catch {
    mode = undefined;
  }
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, text, { mode: mode ?? 0o644 });
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // the temporary file was never created
    }
    throw new CodegraphError("IO", `cannot write ${file}: ${(e as Error).message}; nothing was written to it.`);
  }
}

/** Where a symbolic link points (as written in it), or undefined for anything else. */
function linkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

function canWrite(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
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
