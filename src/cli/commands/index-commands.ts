import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { dbPath, indexDir } from "../../config/paths.js";
import { CodegraphError } from "../../core/errors.js";
import { fullIndex } from "../../indexer/full-index.js";
import { clearWriterLock } from "../../indexer/lock.js";
import { syncIndex } from "../../indexer/sync.js";
import { isUnsafeRoot, resolveProject } from "../../project/root.js";
import { renderIndexSummary } from "../../render/text.js";
import { emit } from "../output.js";
import { loadInstallCommands } from "./load-install.js";
import { progressLine } from "./progress-line.js";

export async function runInit(path: string, opts: { force?: boolean; json?: boolean; target?: string }): Promise<void> {
  const root = resolve(path);
  // Check the target before the (long) index, so a typo fails at once.
  if (opts.target !== undefined) (await loadInstallCommands()).checkInitTarget(opts.target);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    const what = existsSync(root) ? "is not a directory" : "does not exist";
    throw new CodegraphError("BAD_INPUT", `${root} ${what}. Pass the project folder: codegraph init <path>.`);
  }
  if (isUnsafeRoot(root)) {
    throw new CodegraphError(
      "UNSAFE_ROOT",
      `Refusing to index ${root}: it is your home folder or the filesystem root, far too broad for one project. ` +
        "Run `codegraph init` inside a project folder.",
    );
  }
  const progress = progressLine();
  try {
    const summary =
      !opts.force && existsSync(dbPath(root))
        ? await syncIndex(root, progress.update)
        : await fullIndex(root, progress.update);
    progress.done();
    emit(opts.json, summary, () => renderIndexSummary(summary));
  } catch (e) {
    progress.done();
    throw e;
  }
  if (opts.target !== undefined) {
    const { writeInitTarget } = await loadInstallCommands();
    writeInitTarget(opts.target, root, opts.json);
  }
}

export async function runSync(path: string | undefined, opts: { json?: boolean }): Promise<void> {
  const root = resolveProject(path);
  if (!existsSync(dbPath(root))) {
    throw new CodegraphError("NOT_INDEXED", `${root} has no index yet. Run \`codegraph init ${path ?? "."}\` first.`);
  }
  const progress = progressLine();
  try {
    const summary = await syncIndex(root, progress.update);
    progress.done();
    emit(opts.json, summary, () => renderIndexSummary(summary));
  } catch (e) {
    progress.done();
    throw e;
  }
}

export function runUnlock(opts: { path?: string; force?: boolean; json?: boolean }): void {
  const root = resolveProject(opts.path);
  const result = clearWriterLock(indexDir(root), opts.force ?? false);
  emit(opts.json, result, () =>
    !result.removed
      ? "No writer lock was held; nothing to do."
      : result.pid === null
        ? "Removed a writer lock that named no process."
        : `Removed the writer lock left by pid ${result.pid}.`,
  );
}
