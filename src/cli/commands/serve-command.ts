import { CodegraphError } from "../../core/errors.js";
import { languageForPath } from "../../extract/registry.js";
import { serveMcpStdio } from "../../mcp/stdio.js";

/**
 * `codegraph serve --mcp`: the MCP server on stdin/stdout. Built as its own bundle and loaded only by
 * this command, so the SDK never slows the other commands' start-up.
 */
export function runServe(opts: { mcp?: boolean; path?: string }, version: string): void {
  if (!opts.mcp) {
    throw new CodegraphError(
      "BAD_INPUT",
      "Say which transport to serve: `codegraph serve --mcp` speaks MCP on stdin/stdout (what agents' configs run).",
    );
  }
  serveMcpStdio({ version, pinned: opts.path, languageOf: languageForPath });
}
