import { existsSync } from "node:fs";
import type { Duplex } from "node:stream";
import { dbPath } from "../config/paths.js";
import { inProcessSession } from "./in-process-session.js";
import { writerLockHolder } from "./kernel-lock.js";

/** How often a session without an index looks for one; a look is one stat. */
const INDEX_POLL_MS = 500;

/**
 * A session for a project whose index went away while its client stayed (`.codegraph/` removed, as
 * `git clean -fdx` does): no daemon can start without that folder, and one that made it would build
 * an index nobody asked for. This process answers meanwhile, as for a folder never indexed ("No index
 * at ... Run `codegraph init` in the project first."). Once an index is there again, the stand-in
 * closes, and the proxy starts the project's daemon as it does when a daemon goes away.
 */
export function sessionWithoutIndex(
  root: string,
  version: string,
  languageOf: (path: string) => string | null,
  listed: Set<string>,
): Duplex {
  return sessionUntil(
    inProcessSession(root, version, languageOf, listed),
    () => existsSync(dbPath(root)),
    INDEX_POLL_MS,
  );
}

/** How often a session beside a foreground server looks whether that server is still there. */
const FOREGROUND_POLL_MS = 1000;

/**
 * A session for a project whose writer is a foreground server (CODEGRAPH_NO_DAEMON=1): no daemon can
 * start while it runs, and it keeps the index fresh, so this process reads that index. Once that
 * server is gone, the stand-in closes, and the proxy starts the project's daemon, which watches again.
 */
export function sessionBesideForeground(
  root: string,
  version: string,
  languageOf: (path: string) => string | null,
  listed: Set<string>,
): Duplex {
  const gone = async () => (await writerLockHolder(root))?.mode !== "foreground";
  return sessionUntil(inProcessSession(root, version, languageOf, listed), gone, FOREGROUND_POLL_MS);
}

/** Close the stand-in once `over` says its reason has passed, looked at every `everyMs`. */
function sessionUntil(standIn: Duplex, over: () => boolean | Promise<boolean>, everyMs: number): Duplex {
  let looking = false;
  const poll = setInterval(() => {
    if (looking) return;
    looking = true;
    void Promise.resolve(over())
      .then(
        (yes) => yes && standIn.destroy(),
        () => {},
      )
      .finally(() => (looking = false));
  }, everyMs);
  poll.unref(); // the session's own streams keep the process alive, not this
  standIn.once("close", () => clearInterval(poll));
  return standIn;
}
