import { statSync } from "node:fs";
import type { Socket } from "node:net";
import { dbPath } from "../config/paths.js";
import { CodegraphError } from "../core/errors.js";
import type { SyncHealth } from "../core/sync-health.js";
import { CHANGED_METHOD, READY_METHOD, type Ready } from "./hello.js";
import { lines } from "./line-reader.js";
import { connectOrStart, ForegroundWriter } from "./proxy.js";

/** At most this many explicitly named projects keep a daemon connection per session. */
export const MAX_RETAINED = 32;

interface Retained {
  socket: Socket;
  /** The index file this connection was made for: `init --force` replaces it with a new one. */
  ino: number;
  nextId: number;
  pending: Map<number, (reply: Ready | Error) => void>;
  /** The ready request on its way, and the one the calls that arrived meanwhile wait for. */
  inflight: Promise<Ready> | null;
  next: Promise<Ready> | null;
  /**
   * The last answer, while it still holds: the daemon said it would tell us of the next change
   * (`live`), and has not yet. Calls then read the index without asking again.
   */
  holds: Ready | null;
  /** Change notices received on this connection so far. */
  changes: number;
}

/** The daemon's connection closed before it answered. */
class WentAway extends CodegraphError {
  constructor() {
    super("IO", "the project's daemon went away; call again.");
  }
}
const wentAway = () => new WentAway();

/**
 * Keeps explicitly named projects live through each project's own daemon: the first call starts or
 * attaches to it, later calls reuse the connection. Before each call the daemon syncs the edits it
 * has seen (its catch-up first), and says how its auto-sync is doing; the caller then reads the index
 * itself, as every reader may while the daemon writes (WAL). A watching daemon tells us of the next
 * change after each such request, so until it does, calls read without asking again: under load the
 * question cost a write to the daemon's socket per call, a tenth of the HTTP server's main thread.
 * A connection whose daemon exited, or whose index was removed or rebuilt since, is dropped and made
 * again. Never creates an index: the caller resolved an indexed root.
 */
export class ExplicitProjects {
  private readonly retained = new Map<string, Retained>();
  private readonly connecting = new Map<string, Promise<Retained>>();

  constructor(private readonly options: { version: string; mainScript: string; hostPid: number; noWatch?: boolean }) {}

  /**
   * Wait until the project's daemon has synced what it has seen; its auto-sync health. While its last
   * answer holds (no change notice since), that answer, at once. Otherwise one request is on its way
   * at a time: calls that arrive meanwhile share the next, sent once it is answered, so the request
   * each call waits for was sent after the call arrived. A project whose writer is a foreground server
   * (CODEGRAPH_NO_DAEMON=1) has no daemon to ask: null, and the index that server keeps is read as it stands.
   * So does a project whose index is gone: null, and the read finds no index.
   */
  async ready(root: string): Promise<SyncHealth | null> {
    try {
      return await this.readyOnce(root);
    } catch (e) {
      // The daemon died under the call (killed, or replaced by an upgrade): attach again, once; a
      // daemon that dies at once again is reported.
      if (!(e instanceof WentAway)) throw e;
      return this.readyOnce(root);
    }
  }

  private async readyOnce(root: string): Promise<SyncHealth | null> {
    // Removed since the caller found it (`rm -rf .codegraph`): nothing to keep live, and no daemon can
    // start without its folder. The read that follows answers that there is no index, and how to make one.
    const ino = statSync(dbPath(root), { throwIfNoEntry: false })?.ino;
    if (ino === undefined) return null;
    let r: Retained;
    try {
      r = await this.attach(root, ino);
    } catch (e) {
      // That server keeps the index fresh; read it as it stands (looked at again on the next call).
      if (e instanceof ForegroundWriter) return null;
      throw e;
    }
    if (r.holds) return r.holds.health;
    if (!r.inflight) return (await this.send(r)).health;
    const resend = () => {
      r.next = null;
      return this.send(r);
    };
    r.next ??= r.inflight.then(resend, resend);
    return (await r.next).health;
  }

  private send(r: Retained): Promise<Ready> {
    const id = r.nextId++;
    const changes = r.changes;
    const sent = new Promise<Ready>((resolve, reject) => {
      if (r.socket.destroyed) return reject(wentAway());
      r.pending.set(id, (reply) => {
        if (reply instanceof Error) return reject(reply);
        // A change notice since this request went out may be one the answer does not cover.
        if (reply.live === true && r.changes === changes) r.holds = reply;
        resolve(reply);
      });
      r.socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: READY_METHOD })}\n`);
    });
    r.inflight = sent;
    const done = () => {
      if (r.inflight === sent) r.inflight = null;
    };
    sent.then(done, done);
    return sent;
  }

  closeAll(): void {
    for (const r of this.retained.values()) r.socket.destroy();
    this.retained.clear();
  }

  private attach(root: string, ino: number): Promise<Retained> {
    const old = this.retained.get(root);
    if (old && !old.socket.destroyed && old.ino === ino) {
      this.retained.delete(root);
      this.retained.set(root, old); // most recently used last
      return Promise.resolve(old);
    }
    // Calls that arrive while the connection is being made share it, rather than each making one.
    let connecting = this.connecting.get(root);
    if (!connecting) {
      old?.socket.destroy();
      this.retained.delete(root);
      connecting = this.connect(root, ino).finally(() => this.connecting.delete(root));
      this.connecting.set(root, connecting);
    }
    return connecting;
  }

  private async connect(root: string, ino: number): Promise<Retained> {
    const socket = await connectOrStart(
      { root, version: this.options.version, mainScript: this.options.mainScript, noWatch: this.options.noWatch },
      { hostPid: this.options.hostPid, version: this.options.version, mcpTools: null, watch: !this.options.noWatch },
    );
    const r: Retained = {
      socket,
      ino,
      nextId: 1,
      pending: new Map(),
      inflight: null,
      next: null,
      holds: null,
      changes: 0,
    };
    lines(socket, (line) => {
      let msg: { id?: number; method?: string; result?: Ready; error?: unknown };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (msg.method === CHANGED_METHOD) {
        r.changes++;
        r.holds = null;
        return;
      }
      if (typeof msg.id !== "number") return;
      // An error is a daemon from before READY_METHOD, still running after an upgrade: it cannot sync
      // on request, so the index is read as it stands until that daemon is replaced.
      r.pending.get(msg.id)?.(msg.result ?? { health: null });
      r.pending.delete(msg.id);
    });
    socket.on("close", () => {
      r.holds = null;
      for (const resolve of r.pending.values()) resolve(wentAway());
      r.pending.clear();
    });
    socket.on("error", () => socket.destroy());
    this.retained.set(root, r);
    if (this.retained.size > MAX_RETAINED) {
      const [oldest, gone] = this.retained.entries().next().value as [string, Retained];
      gone.socket.destroy();
      this.retained.delete(oldest);
    }
    return r;
  }
}
