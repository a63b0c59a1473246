import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { CodegraphError } from "../core/errors.js";
import { realPathOrGiven } from "../core/paths.js";
import type { ProjectResolver } from "../project/workspace.js";
import type { IndexConnections } from "../query/open-index.js";
import type { SyncHealth } from "../core/sync-health.js";
import { healthBanner } from "../render/health-banner.js";
import { renderNoProject } from "../render/no-project.js";
import { answerTool, failureAnswer, textResult, type ToolAnswer, type ToolCall } from "./answer.js";
import { ArgumentError, argumentsNotAnObject, checkArgs, inputSchema, isArgumentsObject } from "./tool-args.js";
import { TOOLS, toolNamed, type ToolSpec } from "./tools.js";

/**
 * The revisions we serve. An `initialize` asking for one of the first four gets it echoed; any other
 * (2026-07-28 included, which has no handshake) falls back to the first. A stateless 2026-07-28
 * request is served at 2026-07-28.
 */
export const PROTOCOL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
/** The revisions with an `initialize` handshake: all but 2026-07-28. */
export const LEGACY_PROTOCOL_VERSIONS = PROTOCOL_VERSIONS.slice(0, 4);

/** The revision an `initialize` for `requested` is answered with: echoed when it has a handshake, else the first. */
export function negotiatedVersion(requested: unknown): string {
  const legacy = LEGACY_PROTOCOL_VERSIONS;
  return typeof requested === "string" && legacy.includes(requested) ? requested : legacy[0]!;
}

/**
 * The capabilities every codegraph server advertises: tools only, without `listChanged`, which at
 * 2026-07-28 would make the SDK accept subscriptions the reference leaves out.
 */
export const CAPABILITIES = { tools: {} };

/** Methods the reference answers with empty results although we advertise only tools. */
const EMPTY_ANSWERS = ["prompts/list", "resources/list", "resources/templates/list", "completion/complete"];

/**
 * The SDK refuses handlers for capabilities a server does not declare. The reference wants these
 * probes answered with empty results without advertising prompts, resources or completions, so the
 * check is relaxed for exactly those methods, here and nowhere else.
 */
class CodegraphServer extends Server {
  protected override assertRequestHandlerCapability(method: string): void {
    if (EMPTY_ANSWERS.includes(method)) return;
    super.assertRequestHandlerCapability(method);
  }

  /**
   * The reference answers an invalid argument with an `isError` tool result, and only an unknown tool
   * with -32602. The SDK checks a `tools/call`'s params against its schema before any handler runs,
   * so `arguments` that were no object (a string, an array, null) got -32602 with zod's issues
   * printed as JSON. Such a call of one of our tools is answered here as any bad argument is; the
   * -32602 left (no tool name, or no params) names its issues in one line.
   */
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    return (request, ctx) => {
      const params = request.params;
      const tool = typeof params?.name === "string" ? toolNamed(params.name) : undefined;
      if (tool && params && "arguments" in params && !isArgumentsObject(params.arguments))
        return Promise.resolve(
          failureAnswer(tool.name, argumentsNotAnObject(params.arguments, tool.args, tool.required)).result,
        );
      return wrapped(request, ctx).catch((e: unknown) => {
        throw oneLineSchemaError(e);
      });
    };
  }
}

/** The SDK's "Invalid tools/call request: [<zod issues as JSON>]", its issues as `path: message`. */
function oneLineSchemaError(e: unknown): unknown {
  if (!(e instanceof ProtocolError) || e.code !== ProtocolErrorCode.InvalidParams) return e;
  const printed = /^(Invalid tools\/call request): (\[[\s\S]*\])$/.exec(e.message);
  if (!printed) return e;
  try {
    const issues = JSON.parse(printed[2]!) as { path?: unknown[]; message?: unknown }[];
    const named = issues.map((i) => `${(i.path ?? []).join(".") || "the request"}: ${String(i.message)}`);
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `${printed[1]}: ${named.join("; ")}.`);
  } catch {
    return e;
  }
}

export interface ServerDeps {
  version: string;
  resolver: ProjectResolver;
  indexes: IndexConnections;
  /** Short names of the tools `tools/list` shows. */
  listed: ReadonlySet<string>;
  languageOf: (path: string) => string | null;
  /** Runs before each tool call: the client's roots being asked for, a daemon's catch-up sync. */
  beforeCall?: () => Promise<void>;
  /**
   * Brings an explicitly named project up to date through its own daemon (started on demand, kept for
   * the session) before the call reads its index: the answer is live and caught up. Resolves to the
   * daemon's auto-sync health (null when it does not watch), or to null when no daemon serves the
   * project (it is then read as it stands).
   */
  viaDaemon?: (root: string) => Promise<{ health: SyncHealth | null } | null>;
  /**
   * Also bring the `--path` project up to date through `viaDaemon`: the HTTP server has no watcher of
   * its own, so its pinned project is kept live by that project's daemon like any explicit one.
   */
  pinnedViaDaemon?: boolean;
  /**
   * Serve the `--path` project only: a call naming another (`projectPath`) is refused. The HTTP server
   * pinned with --path, which a token may open to other machines: `--path` says what it serves.
   */
  onlyPinned?: boolean;
  /** The live auto-sync's health; absent when nothing watches the project in this session. */
  health?: () => SyncHealth | null;
  /**
   * Answers a read call elsewhere (read workers); absent: answered on this thread. `concurrent` says
   * whether other tool calls are in progress in this process.
   */
  runTool?: (call: ToolCall, concurrent: boolean) => Promise<ToolAnswer>;
  log: (line: string) => void;
}

const PROJECT_PATH = {
  type: "string",
  description: "Absolute path of the indexed project to query (optional when the server has a default project).",
} as const;

/**
 * Tool calls being answered in this process, by every server instance in it (the HTTP server makes
 * one per request): a call with company is worth a read worker, a lone one is not.
 */
let callsInProgress = 0;

/** One MCP server instance: the ten tools over the project resolution the reference describes. */
export function createServer(deps: ServerDeps): Server {
  const server = new CodegraphServer(
    { name: "codegraph", version: deps.version },
    { capabilities: CAPABILITIES, supportedProtocolVersions: PROTOCOL_VERSIONS },
  );

  server.setRequestHandler("tools/list", async () => {
    const needsPath = deps.resolver.current().root === null;
    return {
      tools: TOOLS.filter((t) => deps.listed.has(t.short)).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: inputSchema(
          { ...t.args, projectPath: PROJECT_PATH },
          needsPath ? [...t.required, "projectPath"] : t.required,
        ),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      })),
    };
  });

  server.setRequestHandler("tools/call", async (request) => {
    const tool = toolNamed(request.params.name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. The tools are ${TOOLS.map((t) => t.name).join(", ")}.`,
      );
    }
    callsInProgress++;
    try {
      await deps.beforeCall?.();
      return await callTool(deps, tool, request.params.arguments);
    } finally {
      callsInProgress--;
    }
  });

  server.setRequestHandler("prompts/list", async () => ({ prompts: [] }));
  server.setRequestHandler("resources/list", async () => ({ resources: [] }));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: [] }));
  server.setRequestHandler("completion/complete", async () => ({ completion: { values: [] } }));
  return server;
}

async function callTool(deps: ServerDeps, tool: ToolSpec, raw: unknown): Promise<CallToolResult> {
  let answer: ToolAnswer;
  try {
    answer = await answerCall(deps, tool, raw);
  } catch (e) {
    answer = failureAnswer(tool.name, e);
  }
  if (answer.internal) deps.log(answer.internal);
  return answer.result;
}

/** Throws when `root` is not the project the server was pinned to with --path. */
function refuseOtherProject(resolver: ProjectResolver, root: string): void {
  const pinned = resolver.current().root;
  if (pinned && realPathOrGiven(root) === realPathOrGiven(pinned)) return;
  throw new CodegraphError(
    "BAD_INPUT",
    `This server serves ${pinned ?? "one project"} only (it was started with --path), not ${root}. ` +
      "Leave out projectPath, or start a server for that project (`codegraph serve --http --path <project>`, " +
      "or one without --path, which serves any indexed project a call names).",
  );
}

async function answerCall(deps: ServerDeps, tool: ToolSpec, raw: unknown): Promise<ToolAnswer> {
  const given = (raw ?? {}) as { projectPath?: unknown };
  let root: string;
  let live: boolean;
  /** Whether the call is about the session's own project, whose health `deps.health` tells. */
  let own = true;
  if (given.projectPath !== undefined && given.projectPath !== null && given.projectPath !== "") {
    if (typeof given.projectPath !== "string") throw new ArgumentError("'projectPath' must be a string.");
    root = deps.resolver.explicit(given.projectPath);
    if (deps.onlyPinned) refuseOtherProject(deps.resolver, root);
    live = true;
    const current = deps.resolver.current().root;
    own = current !== null && realPathOrGiven(current) === realPathOrGiven(root);
  } else {
    const found = deps.resolver.current();
    // Not an error: the agent can act on the remedies, and an error would read as a broken server.
    if (!found.root)
      return {
        result: textResult(renderNoProject(tool.name, found.candidates, deps.resolver.discover)),
        internal: null,
      };
    root = found.root;
    // A project the client named after start-up (rootUri, roots) is kept live by its daemon.
    live =
      found.source === "client" ||
      found.source === "roots" ||
      (deps.pinnedViaDaemon === true && found.source === "path");
  }
  const daemon = live && deps.viaDaemon ? await deps.viaDaemon(root) : null;
  const call: ToolCall = {
    name: tool.name,
    root,
    args: checkArgs(tool.args, tool.required, raw),
    health: daemon ? daemon.health : own ? (deps.health?.() ?? null) : null,
  };
  const answer = deps.runTool
    ? await deps.runTool(call, callsInProgress > 1)
    : answerTool(call, deps.indexes, deps.languageOf);
  const note = call.health ? healthBanner(call.health) : null;
  const first = answer.result.content[0];
  if (note && first?.type === "text") first.text = `${note}\n\n${first.text}`;
  return answer;
}
