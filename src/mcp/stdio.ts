import { readEnv } from "../config/env.js";
import { ProjectResolver } from "../project/workspace.js";
import { IndexConnections } from "../query/open-index.js";
import { LineTransport } from "./line-transport.js";
import { listedTools, serveSession, type SessionDeps } from "./session.js";

export interface StdioOptions {
  version: string;
  /** `--path`: pins the project; the client's workspace never overrides it. */
  pinned?: string;
  languageOf: (path: string) => string | null;
  /** An already-built resolver (the serve command probed the project to choose daemon or inline). */
  resolver?: ProjectResolver;
  /** Explicitly named projects are kept live by their daemons. */
  viaDaemon?: SessionDeps["viaDaemon"];
}

export const stderrLog = (line: string) => process.stderr.write(`[codegraph] ${line}\n`);

/** Nothing but protocol messages may reach stdout: a library's console.log goes to stderr instead. */
export function guardStdout(): void {
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
}

/**
 * Serve MCP inline on stdin/stdout until the client closes stdin. Resolves once it has, and every
 * request read has been answered.
 */
export function serveMcpStdio(options: StdioOptions): Promise<void> {
  guardStdout();
  const resolver = options.resolver ?? new ProjectResolver(process.cwd(), options.pinned);
  const start = resolver.current();
  if (start.candidates.length > 1) {
    stderrLog(`several indexed projects below ${process.cwd()}; pass projectPath, or --path, to pick one:`);
    for (const c of start.candidates) stderrLog(`  ${c}`);
  }
  const transport = new LineTransport(process.stdin, process.stdout);
  serveSession(transport, {
    version: options.version,
    resolver,
    indexes: new IndexConnections(),
    listed: listedTools(readEnv().mcpTools, stderrLog),
    languageOf: options.languageOf,
    log: stderrLog,
    viaDaemon: options.viaDaemon,
  });
  return transport.answered;
}
