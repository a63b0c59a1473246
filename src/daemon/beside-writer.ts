import { Duplex, PassThrough } from "node:stream";
import { readEnv } from "../config/env.js";
import { LineTransport } from "../mcp/line-transport.js";
import { IndexConnections, listedTools, serveSession } from "../mcp/session.js";
import { stderrLog } from "../mcp/stdio.js";
import { ProjectResolver } from "../project/workspace.js";

/**
 * A session for a project whose one writer is a foreground server (another client's
 * CODEGRAPH_NO_DAEMON=1): no daemon can take the writer lock, so none will serve this session. This
 * process answers it from the index that server keeps fresh, taking no lock and watching nothing. A
 * pair of streams stands in for a daemon's socket, so the proxy relays to it as it would to a daemon
 * (the handshake it already answered replayed, that answer dropped).
 */
export function sessionBesideWriter(
  root: string,
  version: string,
  languageOf: (path: string) => string | null,
): Duplex {
  const toSession = new PassThrough();
  const fromSession = new PassThrough();
  serveSession(new LineTransport(toSession, fromSession), {
    version,
    resolver: new ProjectResolver(root, root),
    indexes: new IndexConnections(),
    listed: listedTools(readEnv().mcpTools, stderrLog),
    languageOf,
    log: stderrLog,
  });
  // The client closed the session: so does the stand-in socket, which is how the proxy learns it.
  toSession.once("end", () => fromSession.end());
  return Duplex.from({ writable: toSession, readable: fromSession });
}
