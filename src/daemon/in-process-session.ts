import { Duplex, PassThrough } from "node:stream";
import { LineTransport } from "../mcp/line-transport.js";
import { IndexConnections, serveSession } from "../mcp/session.js";
import { stderrLog } from "../mcp/stdio.js";
import { ProjectResolver } from "../project/workspace.js";

/**
 * A session the proxy's own process answers for `root`, reading its index as it stands: it takes no
 * lock and watches nothing. A duplex stream stands in for a daemon's socket, so the proxy relays to
 * it as it would to a daemon (the handshake it already answered replayed, that answer dropped).
 * Ending its writable side (the client closed the session) ends it, as does destroying it.
 */
export function inProcessSession(
  root: string,
  version: string,
  languageOf: (path: string) => string | null,
  listed: Set<string>,
): Duplex {
  const toSession = new PassThrough();
  const fromSession = new PassThrough();
  const session = serveSession(new LineTransport(toSession, fromSession), {
    version,
    resolver: new ProjectResolver(root, root),
    indexes: new IndexConnections(),
    listed,
    languageOf,
    log: stderrLog,
  });
  // Not Duplex.from: destroying what it composes reports an AbortError, which the session would log.
  const standIn = new Duplex({
    write: (chunk: Buffer, _encoding, done) => void toSession.write(chunk, done),
    final: (done) => {
      toSession.end();
      done();
    },
    read: () => {},
  });
  fromSession.on("data", (chunk: Buffer) => standIn.push(chunk));
  // The client closed the session: so does the stand-in socket, which is how the proxy learns it.
  toSession.once("end", () => standIn.push(null));
  standIn.once("close", () => void session.close());
  return standIn;
}
