import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";

/**
 * Whether the file system under `dir` moves a folder's mtime when an entry is created in it, as local
 * file systems do and some network and virtual ones do not. The folder snapshot (folder-snapshot.ts)
 * relies on it, so it is kept only where this holds. The folder's mtime is first set a minute back,
 * so that a coarse clock cannot hide the move.
 */
export function folderMtimeTracksEntries(dir: string): boolean {
  let probe: string | undefined;
  try {
    probe = mkdtempSync(`${dir}/mtime-probe-`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(probe, past, past);
    const before = statSync(probe).mtimeMs;
    writeFileSync(`${probe}/entry`, "");
    return statSync(probe).mtimeMs !== before;
  } catch {
    return false;
  } finally {
    if (probe) rmSync(probe, { recursive: true, force: true });
  }
}
