import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage, Server } from "@modelcontextprotocol/server";
import type { SyncHealth } from "../core/sync-health.js";
import type { ProjectResolver } from "../project/workspace.js";
import type { IndexConnections } from "../query/open-index.js";

// The daemon shares one set of index connections among its sessions; it gets the class from here.
export { IndexConnections } from "../query/open-index.js";
import type { LineTransport } from "./line-transport.js";
import { createServer, type ServerDeps } from "./server.js";
import { DEFAULT_TOOLS, TOOLS } from "./tools.js";

/** How long a tool call waits for the client to answer `roots/list` before going on without it. */
const ROOTS_WAIT_MS = 5000;

export interface SessionDeps {
  version: string;
  resolver: ProjectResolver;
  indexes: IndexConnections;
  listed: ReadonlySet<string>;
  languageOf: (path: string) => string | null;
  log: (line: string) => void;
  /** The live auto-sync's health, when this process (or its daemon) watches the project. */
  health?: () => SyncHealth | null;
  viaDaemon?: ServerDeps["viaDaemon"];
  runTool?: ServerDeps["runTool"];
  /** Runs before each tool call (the daemon waits here for its catch-up sync). */
  beforeCall?: () => Promise<void>;
  /** Sees each message first; returning true keeps it from the protocol. */
  peek?: (message: JSONRPCMessage) => boolean | void;
}

/**
 * One MCP session over a line transport (stdin/stdout, or a daemon's socket): the protocol eras by
 * the SDK, plus the project hints a client gives in `initialize` and its MCP roots.
 */
export function serveSession(transport: LineTransport, deps: SessionDeps): { close: () => Promise<void> } {
  let server: Server | undefined;
  let wantsRoots = false;
  let roots: Promise<void> | undefined;
  transport.onpeek = (message: JSONRPCMessage) => {
    if (deps.peek?.(message) === true) return true;
    if (!("method" in message)) return false;
    if (message.method === "initialize" && "id" in message) {
      const params = (message.params ?? {}) as InitializeHints;
      deps.resolver.adoptClientWorkspace(workspaceHints(params), "client");
      wantsRoots = !deps.resolver.current().root && params.capabilities?.roots !== undefined;
    } else if (message.method === "notifications/initialized" && wantsRoots && server) {
      wantsRoots = false;
      roots = askForRoots(server, deps);
    }
    return false;
  };
  const handle = serveStdio(
    () =>
      (server = createServer({
        version: deps.version,
        resolver: deps.resolver,
        indexes: deps.indexes,
        listed: deps.listed,
        languageOf: deps.languageOf,
        health: deps.health,
        viaDaemon: deps.viaDaemon,
        runTool: deps.runTool,
        beforeCall: async () => {
          await roots;
          await deps.beforeCall?.();
        },
        log: deps.log,
      })),
    { transport, onerror: (e) => deps.log(`protocol: ${e.message}`) },
  );
  return { close: () => handle.close() };
}

interface InitializeHints {
  rootUri?: unknown;
  rootPath?: unknown;
  workspaceFolders?: unknown;
  capabilities?: { roots?: unknown };
}

/** Workspace locations some clients put in `initialize` (LSP-style `rootUri`, `rootPath`, `workspaceFolders`). */
function workspaceHints(p: InitializeHints): string[] {
  const out: string[] = [];
  if (typeof p.rootUri === "string") out.push(p.rootUri);
  if (typeof p.rootPath === "string") out.push(p.rootPath);
  if (Array.isArray(p.workspaceFolders)) {
    for (const f of p.workspaceFolders as { uri?: unknown }[]) if (typeof f?.uri === "string") out.push(f.uri);
  }
  return out;
}

/** Ask the client for its roots and adopt the first indexed one (tool schemas then stop requiring projectPath). */
async function askForRoots(server: Server, deps: SessionDeps): Promise<void> {
  try {
    const result = await server.listRoots(undefined, { timeout: ROOTS_WAIT_MS });
    const adopted = deps.resolver.adoptClientWorkspace(
      result.roots.map((r) => r.uri),
      "roots",
    );
    if (adopted) deps.log(`project from the client's roots: ${adopted}`);
  } catch (e) {
    deps.log(`roots/list failed: ${(e as Error).message}`);
  }
}

/**
 * The tools to list: CODEGRAPH_MCP_TOOLS when set, else the four defaults. Names are matched without
 * regard to case, and `all` lists the ten. Unknown names are reported and ignored; when none is
 * known, the defaults are listed, as a server that lists no tool leaves its agent with nothing to
 * call and says so only in a log.
 */
export function listedTools(requested: string[] | null, log: (line: string) => void): Set<string> {
  if (!requested) return new Set(DEFAULT_TOOLS);
  const names = requested.map((r) => r.toLowerCase());
  const known = new Set(TOOLS.map((t) => t.short));
  if (names.includes("all")) return known;
  const unknown = names.filter((r) => !known.has(r));
  const listed = new Set(names.filter((r) => known.has(r)));
  if (unknown.length)
    log(
      `CODEGRAPH_MCP_TOOLS: unknown tool(s) ${unknown.join(", ")}; known: ${[...known].join(", ")}, or all` +
        (listed.size ? "" : `; listing the defaults (${DEFAULT_TOOLS.join(", ")})`),
    );
  return listed.size ? listed : new Set(DEFAULT_TOOLS);
}
