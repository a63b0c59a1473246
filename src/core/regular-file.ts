import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { liesInside, realPathOf } from "./paths.js";

/**
 * Flags to open a file for reading without waiting: a FIFO put where a file was (after the scan that
 * listed it, or after the index that recorded it), or named like a control file (`.gitignore`,
 * `codegraph.json`), would otherwise hold the open until some process writes to it, which may be
 * never. Regular files read as usual with it.
 */
export const READ_NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * What `read` makes of a regular file, given its descriptor and its stat (taken on that descriptor, so
 * they describe what is read); null for anything else, or when opening or reading fails.
 */
export function readRegular<T>(path: string, read: (fd: number, st: Stats) => T, flags = READ_NO_WAIT): T | null {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() ? read(fd, st) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Where Linux names what each open descriptor is: the path it reached, links and all resolved. */
const OPEN_FILES = process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd/" : null;

/**
 * readRegular for a file of a project, whose real path is `realRoot`: null, unread, unless the file
 * opened lies inside it. A path checked and then opened can be swapped in between (a file replaced by
 * a link out of the project, or a folder on the way), so on Linux the check is made on the open
 * descriptor itself. Elsewhere the path is resolved, checked, and its last step opened without
 * following a link (a folder swapped in between is not caught there).
 */
export function readRegularInside<T>(realRoot: string, path: string, read: (fd: number, st: Stats) => T): T | null {
  if (OPEN_FILES) {
    return readRegular(path, (fd, st) => (liesInside(readlinkSync(OPEN_FILES + fd), realRoot) ? read(fd, st) : null));
  }
  const real = realPathOf(path);
  if (real === null || !liesInside(real, realRoot)) return null;
  return readRegular(real, read, READ_NO_WAIT | (constants.O_NOFOLLOW ?? 0));
}

/**
 * A regular file's text, or null for anything else (a FIFO, a device, a folder) or a failed read.
 * With `followLink: false` a symbolic link is not followed either (null): as git reads `.gitignore`.
 */
export function readRegularFile(path: string, options: { followLink?: boolean } = {}): string | null {
  const flags = options.followLink === false ? READ_NO_WAIT | (constants.O_NOFOLLOW ?? 0) : READ_NO_WAIT;
  return readRegular(path, (fd) => readFileSync(fd, "utf8"), flags);
}
