import type { SyncHealth } from "../core/sync-health.js";

/** The first line a proxy sends on the daemon's socket; the daemon consumes it before the MCP session. */
export const HELLO_METHOD = "codegraph/hello";

export interface Hello {
  /** The agent or IDE that ran `serve --mcp`: the daemon lives while some host does. */
  hostPid: number;
  /** The proxy's codegraph version, for the log when it differs from the daemon's. */
  version: string;
  /** The client's CODEGRAPH_MCP_TOOLS: which tools its session lists. */
  mcpTools: string[] | null;
  /**
   * Whether the client wants later saves watched (false: `--no-watch`). A daemon started without a
   * watch starts one for the first client that wants it; one watching goes on watching.
   */
  watch?: boolean;
}

/**
 * A request on the daemon's socket, outside the MCP session: answered once the daemon has synced the
 * edits it has seen, so that a reader of the index (the HTTP server, a session's explicit project)
 * sees every save made before it asked.
 */
export const READY_METHOD = "codegraph/ready";

/** The answer to READY_METHOD. */
export interface Ready {
  /** The daemon's auto-sync health; null when it does not watch (`--no-watch`). */
  health: SyncHealth | null;
  /**
   * The daemon watches, and sends CHANGED_METHOD on this connection at the next change after this
   * request arrived: until then this answer holds, and the reader need not ask again. Absent from a
   * daemon older than this field (or one that does not watch): ask before every read.
   */
  live?: boolean;
}

/**
 * A notification the daemon sends a reader that asked READY_METHOD, once, at the next change notice
 * or health change after that request arrived: its last answer may no longer hold.
 */
export const CHANGED_METHOD = "codegraph/changed";
