/**
 * Every CODEGRAPH_* environment knob, read in this one place so they are easy to find and document.
 */
export interface Env {
  /** Verbose diagnostics on stderr. */
  debug: boolean;
  /** Parser worker threads; default one per core. */
  workers: number | null;
  /** Short names of the MCP tools `tools/list` shows (CODEGRAPH_MCP_TOOLS, comma-separated), or null for the default four. */
  mcpTools: string[] | null;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const workers = Number.parseInt(env.CODEGRAPH_WORKERS ?? "", 10);
  return {
    debug: env.CODEGRAPH_DEBUG === "1" || env.CODEGRAPH_DEBUG === "true",
    workers: Number.isFinite(workers) && workers > 0 ? workers : null,
    mcpTools: env.CODEGRAPH_MCP_TOOLS?.trim()
      ? env.CODEGRAPH_MCP_TOOLS.split(",")
          .map((t) => t.trim().replace(/^codegraph_/, ""))
          .filter(Boolean)
      : null,
  };
}
