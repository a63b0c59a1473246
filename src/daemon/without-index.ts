import { existsSync } from "node:fs";
import type { Duplex } from "node:stream";
import { dbPath } from "../config/paths.js";
import { inProcessSession } from "./in-process-session.js";

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
  const standIn = inProcessSession(root, version, languageOf, listed);
  const poll = setInterval(() => {
    if (existsSync(dbPath(root))) standIn.destroy();
  }, INDEX_POLL_MS);
  poll.unref(); // the session's own streams keep the process alive, not this
  standIn.once("close", () => clearInterval(poll));
  return standIn;
}
