import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";

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

/**
 * A regular file's text, or null for anything else (a FIFO, a device, a folder) or a failed read.
 * With `followLink: false` a symbolic link is not followed either (null): as git reads `.gitignore`.
 */
export function readRegularFile(path: string, options: { followLink?: boolean } = {}): string | null {
  const flags = options.followLink === false ? READ_NO_WAIT | (constants.O_NOFOLLOW ?? 0) : READ_NO_WAIT;
  return readRegular(path, (fd) => readFileSync(fd, "utf8"), flags);
}

/** A regular file's bytes, or null for anything else or a failed read. */
export function readRegularBytes(path: string): Buffer | null {
  return readRegular(path, (fd) => readFileSync(fd));
}
