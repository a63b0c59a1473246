import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, run, tempRepo } from "./cli.js";

export interface RawReply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * A `serve --mcp` process spoken to line by line, for what an SDK client never sends: exact protocol
 * revisions, malformed JSON, batches, huge lines.
 */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly replies: RawReply[] = [];
  stdout = "";
  stderr = "";
  private waiters: (() => void)[] = [];

  constructor(options: { cwd: string; args?: string[]; env?: Record<string, string> }) {
    this.child = spawn(process.execPath, [CLI, "serve", "--mcp", ...(options.args ?? [])], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    this.child.stdout.on("data", (d: Buffer) => {
      this.stdout += d.toString();
      let nl: number;
      while ((nl = this.stdout.indexOf("\n")) !== -1) {
        const line = this.stdout.slice(0, nl);
        this.stdout = this.stdout.slice(nl + 1);
        this.replies.push(JSON.parse(line) as RawReply); // anything but JSON on stdout fails the test
        for (const w of this.waiters.splice(0)) w();
      }
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** Send a request and wait for the reply with its id. */
  async request(id: number | string, method: string, params?: unknown): Promise<RawReply> {
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.waitFor((r) => r.id === id);
  }

  async waitFor(match: (r: RawReply) => boolean, timeoutMs = 15_000): Promise<RawReply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.replies.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching reply; got ${JSON.stringify(this.replies)}\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Close stdin and wait for the process to exit; returns its exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve(this.child.exitCode);
      const t = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
      this.child.on("exit", (code) => {
        clearTimeout(t);
        resolve(code);
      });
    });
  }
}

/** The `_meta` a stateless 2026-07-28 request carries instead of an `initialize` handshake. */
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export function initializeParams(protocolVersion: string, extra: Record<string, unknown> = {}) {
  return { protocolVersion, capabilities: {}, clientInfo: { name: "codegraph-tests", version: "1.0.0" }, ...extra };
}

/** A real v2 SDK client connected to `codegraph serve --mcp` over stdio. */
export async function connectClient(options: {
  cwd: string;
  args?: string[];
  env?: Record<string, string>;
  roots?: string[];
}): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--mcp", ...(options.args ?? [])],
    cwd: options.cwd,
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client(
    { name: "codegraph-tests", version: "1.0.0" },
    { capabilities: options.roots ? { roots: {} } : {} },
  );
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler("roots/list", async () => ({ roots: roots.map((uri) => ({ uri })) }));
  }
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

/**
 * A temporary copy of `fixture` (changed by `prepare`, if given), indexed by the built CLI, and a v2
 * client serving it over stdio from its folder. `close` stops the client and removes the copy.
 */
export async function indexedFixtureClient(
  fixture: string,
  prepare?: (dir: string) => void,
): Promise<{ dir: string; client: Client; close: () => Promise<void> }> {
  const repo = tempRepo(fixture);
  prepare?.(repo.dir);
  const init = await run(["init", repo.dir]);
  if (init.code !== 0) throw new Error(`codegraph init exited ${init.code}\n${init.stderr}`);
  const { client, close } = await connectClient({ cwd: repo.dir });
  return {
    dir: repo.dir,
    client,
    close: async () => {
      await close();
      repo.cleanup();
    },
  };
}
