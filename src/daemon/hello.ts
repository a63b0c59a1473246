/** The first line a proxy sends on the daemon's socket; the daemon consumes it before the MCP session. */
export const HELLO_METHOD = "codegraph/hello";

export interface Hello {
  /** The agent or IDE that ran `serve --mcp`: the daemon lives while some host does. */
  hostPid: number;
  /** The proxy's codegraph version, for the log when it differs from the daemon's. */
  version: string;
  /** The client's CODEGRAPH_MCP_TOOLS: which tools its session lists. */
  mcpTools: string[] | null;
}
