import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

/**
 * Flags to open a file for reading without waiting: a FIFO put where a file was (after the scan that
 * listed it, or after the index that recorded it), or named like a control file (`.gitignore`,
 * `codegraph.json`), would otherwise hold the open until some process writes to it, which may be
 * never. Regular files read as usual with it.
 */
export const READ_NO_WAIT = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A regular file's text, or null for anything else (a FIFO, a device, a folder) or a failed read.
 * With `followLink: false` a symbolic link is not followed either (null): as git reads `.gitignore`.
 */
export function readRegularFile(path: string, options: { followLink?: boolean } = {}): string | null {
  let fd: number;
  try {
    fd = openSync(path, options.followLink === false ? READ_NO_WAIT | (constants.O_NOFOLLOW ?? 0) : READ_NO_WAIT);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, "utf8") : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
