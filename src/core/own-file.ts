import { closeSync, constants, fstatSync, lstatSync, openSync, rmSync, writeSync } from "node:fs";

/**
 * The files codegraph keeps in a project's `.codegraph/` folder are written without following
 * symbolic links. A repository can commit a `.codegraph/` holding links (git stores them), and
 * writing through one wrote outside the project: `writer.pid -> ~/.bashrc` had the project's daemon
 * replace that file with its JSON, and a linked `daemon.log` got every log line. A link, a FIFO or
 * any other file that is not a regular one, found where one of ours goes, is removed and the file
 * made anew; what a link points to is never opened.
 */
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const WRITE = constants.O_WRONLY | constants.O_CREAT;

/** Open one of our files for writing, replacing whatever else is in its place (see above). */
function openOwn(path: string, flags: number): number {
  for (let replaced = false; ; replaced = true) {
    let fd: number | null = null;
    try {
      fd = openSync(path, flags | NO_FOLLOW, 0o644);
    } catch (e) {
      // ELOOP: a link; ENXIO: a FIFO no one reads.
      const code = (e as NodeJS.ErrnoException).code;
      if (replaced || (code !== "ELOOP" && code !== "ENXIO")) throw e;
    }
    if (fd !== null) {
      if (fstatSync(fd).isFile()) return fd;
      closeSync(fd);
      if (replaced) throw new Error(`${path} is not a regular file`);
    }
    rmSync(path, { force: true });
  }
}

function writeOwn(path: string, text: string, flags: number): void {
  const fd = openOwn(path, flags);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Write one of our files, replacing its content. */
export function writeOwnFile(path: string, text: string): void {
  writeOwn(path, text, WRITE | constants.O_TRUNC);
}

/** Add to the end of one of our files, making it if need be. */
export function appendOwnFile(path: string, text: string): void {
  writeOwn(path, text, WRITE | constants.O_APPEND);
}

/**
 * Make one of our files unless something is already there, a link included (left as it is, and not
 * followed): a config the user wrote stays theirs. Says whether it made the file.
 */
export function createOwnFile(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, WRITE | constants.O_EXCL | NO_FOLLOW, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Whether `path` is a symbolic link (false when it does not exist). */
export function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}
