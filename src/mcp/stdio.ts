import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage, Server } from "@modelcontextprotocol/server";
import { readEnv } from "../config/env.js";
import { ProjectResolver } from "../project/workspace.js";
import { IndexConnections } from "../query/open-index.js";
import { LineTransport } from "./line-transport.js";
import { createServer } from "./server.js";
import { DEFAULT_TOOLS, TOOLS } from "./tools.js";

export interface StdioOptions {
  version: string;
  /** `--path`: pins the project; the client's workspace never overrides it. */
  pinned?: string;
  languageOf: (path: string) => string | null;
}

/** How long a tool call waits for the client to answer `roots/list` before going on without it. */
const ROOTS_WAIT_MS = 5000;

const log = (line: string) => process.stderr.write(`[codegraph] ${line}\n`);

/**
 * Serve MCP on stdin/stdout until the client closes stdin. Stdout carries only protocol messages:
 * anything else that tries to print there (a library's console.log) is sent to stderr.
 */
export function serveMcpStdio(options: StdioOptions): void {
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const resolver = new ProjectResolver(process.cwd(), options.pinned);
  const indexes = new IndexConnections();
  const listed = listedTools(readEnv().mcpTools);
  const start = resolver.current();
  if (start.candidates.length > 1) {
    log(`several indexed projects below ${process.cwd()}; pass projectPath, or --path, to pick one:`);
    for (const c of start.candidates) log(`  ${c}`);
  }

  let server: Server | undefined;
  let wantsRoots = false;
  let roots: Promise<void> | undefined;
  const transport = new LineTransport(process.stdin, process.stdout);
  transport.onpeek = (message: JSONRPCMessage) => {
    if (!("method" in message)) return;
    if (message.method === "initialize" && "id" in message) {
      const params = (message.params ?? {}) as InitializeHints;
      resolver.adoptClientWorkspace(workspaceHints(params), "client");
      wantsRoots = !resolver.current().root && params.capabilities?.roots !== undefined;
    } else if (message.method === "notifications/initialized" && wantsRoots && server) {
      wantsRoots = false;
      roots = askForRoots(server, resolver);
    }
  };

  serveStdio(
    () =>
      (server = createServer({
        version: options.version,
        resolver,
        indexes,
        listed,
        languageOf: options.languageOf,
        rootsSettled: () => roots ?? Promise.resolve(),
        log,
      })),
    { transport, onerror: (e) => log(`protocol: ${e.message}`) },
  );
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

/** Ask the client for its roots and adopt the first indexed one; tell the client the tool schemas changed. */
async function askForRoots(server: Server, resolver: ProjectResolver): Promise<void> {
  try {
    const result = await server.listRoots(undefined, { timeout: ROOTS_WAIT_MS });
    const adopted = resolver.adoptClientWorkspace(
      result.roots.map((r) => r.uri),
      "roots",
    );
    if (adopted) {
      log(`project from the client's roots: ${adopted}`);
      await server.sendToolListChanged();
    }
  } catch (e) {
    log(`roots/list failed: ${(e as Error).message}`);
  }
}

/** The tools to list: CODEGRAPH_MCP_TOOLS when set (unknown names are reported and ignored), else the four defaults. */
function listedTools(requested: string[] | null): Set<string> {
  if (!requested) return new Set(DEFAULT_TOOLS);
  const known = new Set(TOOLS.map((t) => t.short));
  const unknown = requested.filter((r) => !known.has(r));
  if (unknown.length)
    log(`CODEGRAPH_MCP_TOOLS: unknown tool(s) ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
  return new Set(requested.filter((r) => known.has(r)));
}
