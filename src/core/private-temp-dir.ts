import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A folder of this user's own under the temporary folder (`<tmp>/<name>-<uid>`), or null when it
 * cannot be made or trusted. The temporary folder is shared: another user may have made the folder
 * first, to hand us their files (cached code we would run, a socket we would take for our daemon's).
 * So it must be a real folder, ours, that no one else may write to.
 */
export function privateTempDir(name: string): string | null {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `${name}${uid === undefined ? "" : `-${uid}`}`);
  try {
    // Not `recursive`: the temporary folder must exist already, and Node's recursive mkdir spins
    // forever under /proc (TMPDIR=/proc/x hung every command).
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return null;
  }
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) return null;
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) return null;
    return dir;
  } catch {
    return null;
  }
}
