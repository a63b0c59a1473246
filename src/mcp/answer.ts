import type { CallToolResult } from "@modelcontextprotocol/server";
import { isCodegraphError } from "../core/errors.js";
import type { SyncHealth } from "../core/sync-health.js";
import { explainIndexError, type IndexConnections } from "../query/open-index.js";
import { ArgumentError } from "./tool-args.js";
import { toolNamed, type ToolArgs } from "./tools.js";

/** One read tool call, as plain data: it can be answered in this thread or sent to a read worker. */
export interface ToolCall {
  /** The tool's full name (`codegraph_search`). */
  name: string;
  root: string;
  /** Checked arguments. */
  args: ToolArgs;
  health: SyncHealth | null;
}

/** A call's answer, and the line to log when it failed for a reason of ours rather than the caller's. */
export interface ToolAnswer {
  result: CallToolResult;
  internal: string | null;
}

export const textResult = (body: string): CallToolResult => ({ content: [{ type: "text", text: body }] });

/**
 * The answer for an error: the caller's mistakes and a project's state (bad arguments, no index, a
 * symbol not found) are told as they are; anything else is an internal error, logged with its stack.
 */
export function failureAnswer(tool: string, e: unknown): ToolAnswer {
  if (e instanceof ArgumentError || isCodegraphError(e)) return { result: failure(e.message), internal: null };
  return {
    result: failure(`internal error in ${tool}: ${(e as Error)?.message ?? String(e)}`),
    internal: `${tool} failed: ${(e as Error)?.stack ?? String(e)}`,
  };
}

function failure(message: string): CallToolResult {
  const body = message.charAt(0).toUpperCase() + message.slice(1);
  return { content: [{ type: "text", text: `Error: ${body}` }], isError: true };
}

/** Run a read tool against the project's index. Never throws. */
export function answerTool(
  call: ToolCall,
  indexes: IndexConnections,
  languageOf: (path: string) => string | null,
): ToolAnswer {
  const tool = toolNamed(call.name);
  if (!tool) return { result: failure(`unknown tool: ${call.name}`), internal: null };
  try {
    const db = indexes.get(call.root);
    return {
      result: textResult(tool.run({ root: call.root, db, languageOf, health: call.health }, call.args)),
      internal: null,
    };
  } catch (e) {
    return failureAnswer(tool.name, explainIndexError(call.root, e));
  }
}
