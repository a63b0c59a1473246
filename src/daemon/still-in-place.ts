import { lstatSync } from "node:fs";
import { indexDir } from "../config/paths.js";

/**
 * Why the daemon no longer serves the folder it started for, or null while it still does; made when
 * the daemon starts listening.
 *
 * `rm -rf .codegraph` (a `git clean -fdx`), with or without an `init` after it, takes the daemon's
 * socket file away, and the new `.codegraph/` is another folder. The daemon still holds the writer
 * lock, which is named after the path and not the folder, so a daemon that went on running until idle
 * kept every new session from starting one of its own: no session could reach it, and none could
 * replace it. Seen by its identity (device and inode), a replaced folder is told from the one the
 * daemon made its socket in; the socket file is checked too, as it may live outside the project.
 */
export function placeCheck(root: string, socketFile: string): () => string | null {
  const dir = indexDir(root);
  const folder = identityOrNull(dir);
  const socket = identityOrNull(socketFile);
  return () => {
    try {
      const nowFolder = identity(dir);
      if (!nowFolder) return `${dir} was removed`;
      if (folder && !same(folder, nowFolder)) return `${dir} was replaced by another folder`;
      const nowSocket = identity(socketFile);
      if (!nowSocket) return `its socket ${socketFile} was removed`;
      if (socket && !same(socket, nowSocket)) return `its socket ${socketFile} was replaced`;
    } catch {
      // Not readable just now (EACCES, EIO): nothing says it is gone, so the daemon stays.
    }
    return null;
  };
}

interface Identity {
  dev: number;
  ino: number;
}

/** The file's identity, or null when nothing is there; throws when that cannot be told. */
function identity(path: string): Identity | null {
  const s = lstatSync(path, { throwIfNoEntry: false });
  return s ? { dev: s.dev, ino: s.ino } : null;
}

function identityOrNull(path: string): Identity | null {
  try {
    return identity(path);
  } catch {
    return null; // no baseline: only the file's absence is then seen
  }
}

const same = (a: Identity, b: Identity) => a.dev === b.dev && a.ino === b.ino;
