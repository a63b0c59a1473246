import { renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Removes a project's `.codegraph/`, as `rm -rf` or `git clean -fdx` does, but in one step as the
 * project's daemon sees it: moved out of the project first, then deleted. `rm -rf` lists a folder,
 * then empties it; a daemon still running there (or one a session starts again meanwhile, while the
 * index is still there) may add a file in between, and the removal fails with ENOTEMPTY. Two test
 * workers on two cores made that likely enough to fail a run.
 */
export function removeIndexFolder(project: string): void {
  const away = join(dirname(project), `${basename(project)}.removed-index-${process.pid}-${Date.now()}`);
  renameSync(join(project, ".codegraph"), away);
  rmSync(away, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}
