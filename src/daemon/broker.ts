import { statSync } from "node:fs";
import type { Socket } from "node:net";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { dbPath } from "../config/paths.js";
import { PROTOCOL_VERSIONS } from "../mcp/server.js";
import { connectOrStart, lines } from "./proxy.js";

/** At most this many explicitly named projects keep a daemon connection per session. */
export const MAX_RETAINED = 32;

interface Retained {
  socket: Socket;
  /** The index file this connection was made for: `init --force` replaces it with a new one. */
  ino: number;
  nextId: number;
  pending: Map<number, (reply: { result?: CallToolResult; error?: { message: string } }) => void>;
}

/**
 * Tool calls for explicitly named projects, answered by each project's own daemon: the first call
 * starts or attaches to it (and waits for its catch-up sync, which the daemon does before answering),
 * later calls reuse the connection. A connection whose daemon exited, or whose index was removed or
 * rebuilt since, is dropped and made again. Never creates an index: the caller resolved an indexed root.
 */
export class ExplicitProjects {
  private readonly retained = new Map<string, Retained>();

  constructor(private readonly options: { version: string; mainScript: string; hostPid: number; noWatch?: boolean }) {}

  async call(root: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const r = await this.attach(root);
    const id = r.nextId++;
    const reply = await new Promise<{ result?: CallToolResult; error?: { message: string } }>((resolve) => {
      r.pending.set(id, resolve);
      r.socket.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } })}\n`,
      );
    });
    if (reply.result) return reply.result;
    return { content: [{ type: "text", text: `Error: ${reply.error?.message ?? "no answer"}` }], isError: true };
  }

  closeAll(): void {
    for (const r of this.retained.values()) r.socket.destroy();
    this.retained.clear();
  }

  private async attach(root: string): Promise<Retained> {
    const ino = statSync(dbPath(root)).ino;
    const old = this.retained.get(root);
    if (old && !old.socket.destroyed && old.ino === ino) {
      this.retained.delete(root);
      this.retained.set(root, old); // most recently used last
      return old;
    }
    old?.socket.destroy();
    this.retained.delete(root);
    const socket = await connectOrStart(
      { root, version: this.options.version, mainScript: this.options.mainScript, noWatch: this.options.noWatch },
      { hostPid: this.options.hostPid, version: this.options.version, mcpTools: null },
    );
    const r: Retained = { socket, ino, nextId: 1, pending: new Map() };
    lines(socket, (line) => {
      let msg: { id?: number; result?: CallToolResult; error?: { message: string } };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (typeof msg.id !== "number") return;
      r.pending.get(msg.id)?.(msg);
      r.pending.delete(msg.id);
    });
    socket.on("close", () => {
      for (const resolve of r.pending.values())
        resolve({ error: { message: "the project's daemon went away; call again." } });
      r.pending.clear();
    });
    socket.on("error", () => socket.destroy());
    // A session of our own on the daemon: the handshake, then tool calls.
    await new Promise<void>((resolve) => {
      r.pending.set(0, () => resolve());
      const init = {
        protocolVersion: PROTOCOL_VERSIONS[2],
        capabilities: {},
        clientInfo: { name: "codegraph", version: this.options.version },
      };
      socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init })}\n`);
    });
    socket.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    this.retained.set(root, r);
    if (this.retained.size > MAX_RETAINED) {
      const [oldest, gone] = this.retained.entries().next().value as [string, Retained];
      gone.socket.destroy();
      this.retained.delete(oldest);
    }
    return r;
  }
}
