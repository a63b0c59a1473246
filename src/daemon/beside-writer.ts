import type { Duplex } from "node:stream";
import { inProcessSession } from "./in-process-session.js";

/**
 * A session for a project whose one writer is a foreground server (another client's
 * CODEGRAPH_NO_DAEMON=1): no daemon can take the writer lock, so none will serve this session. This
 * process answers it from the index that server keeps fresh (see inProcessSession).
 */
export function sessionBesideWriter(
  root: string,
  version: string,
  languageOf: (path: string) => string | null,
): Duplex {
  return inProcessSession(root, version, languageOf);
}
