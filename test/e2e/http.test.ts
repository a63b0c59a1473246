import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { processAlive } from "../../src/core/process-alive.js";
import { CLI, run, tempRepo } from "../helpers/cli.js";
import { removeIndexFolder } from "../helpers/remove-index.js";
import { MODERN_META, initializeParams, textOf } from "../helpers/mcp.js";

// `codegraph serve --http`, the built CLI as a real process on a free loopback port: every row of the
// reference's protocol table over HTTP, the SEP-2243 rejections, the safety checks, and the
// detach/list/stop cycle. Each server gets a temporary HOME, so the registry is the test's own.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");
const LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const ACCEPT = "application/json, text/event-stream";

let repo: ReturnType<typeof tempRepo>;
let home: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  repo = tempRepo(FIXTURE);
  home = mkdtempSync(join(tmpdir(), "codegraph-home-"));
  const r = await run(["init", repo.dir]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterEach(async () => {
  for (const c of children.splice(0)) await stop(c);
});

afterAll(() => {
  repo.cleanup();
  rmSync(home, { recursive: true, force: true });
});

/** A port nothing listens on right now: the kernel picks one for a throwaway listener. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: "1", ...extra };
  if (!("CODEGRAPH_HTTP_TOKEN" in extra)) delete e.CODEGRAPH_HTTP_TOKEN;
  return e;
}

/** Run the CLI to completion with the test's HOME. */
const cli = (args: string[], extra: Record<string, string> = {}) => run(args, { cwd: repo.dir, env: env(extra) });

/** Start `serve --http` in the foreground on a free port and wait until it says it listens. */
async function serve(
  args: string[] = ["--path", "."],
  extra: Record<string, string> = {},
): Promise<{ url: string; addr: string; child: ChildProcess; stderr: () => string }> {
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CLI, "serve", "--http", "--http-addr", addr, ...args], {
    cwd: repo.dir,
    env: env(extra),
  });
  children.push(child);
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start:\n${stderr}`)), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes("MCP over HTTP at")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve --http exited ${code}:\n${stderr}`));
    });
  });
  return { url: `http://${addr}/mcp`, addr, child, stderr: () => stderr };
}

/** SIGTERM, then wait for the exit (SIGKILL after a while, so a hung server cannot hang the suite). */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", (code) => {
      clearTimeout(t);
      resolve(code);
    });
    child.kill("SIGTERM");
  });
}

interface Reply {
  status: number;
  headers: Headers;
  body: {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
    id?: unknown;
  } | null;
  text: string;
}

async function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT, ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let body: Reply["body"] = null;
  try {
    body = JSON.parse(text) as Reply["body"];
  } catch {
    // SSE or empty: the tests that care look at the text.
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** A stateless 2026-07-28 request with its SEP-2243 headers (overridable). */
function modern(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const name: Record<string, string> = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
  return post(
    url,
    { jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...name, ...headers },
  );
}

function expectNoSession(r: Reply): void {
  expect(r.headers.get("mcp-session-id")).toBeNull();
}

describe("the protocol table over HTTP", () => {
  let url: string;
  let shared: ChildProcess;
  beforeAll(async () => {
    const s = await serve();
    url = s.url;
    shared = s.child;
    children.splice(children.indexOf(shared), 1); // lives for the whole block, not one test
  }, 30_000);
  afterAll(async () => {
    await stop(shared);
  });

  for (const version of LEGACY) {
    it(`echoes an initialize for ${version}, as plain JSON, with no session id`, async () => {
      const r = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams(version) });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.body?.result?.protocolVersion).toBe(version);
      expect(r.body?.result?.serverInfo).toMatchObject({ name: "codegraph" });
      expect(r.body?.result).not.toHaveProperty("resultType");
      expectNoSession(r);
    });
  }

  it("answers an initialize for 2026-07-28 with 2024-11-05", async () => {
    const r = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2026-07-28") });
    expect(r.body?.result?.protocolVersion).toBe("2024-11-05");
    expectNoSession(r);
  });

  it("serves a stateless 2026-07-28 request with resultType complete and no session id", async () => {
    const list = await modern(url, 2, "tools/list");
    expect(list.status).toBe(200);
    expect(list.body?.result?.resultType).toBe("complete");
    expectNoSession(list);
    const call = await modern(url, 3, "tools/call", { name: "codegraph_search", arguments: { query: "add" } });
    expect(call.body?.result?.resultType).toBe("complete");
    expect(textOf(call.body?.result)).toContain("src/math.ts");
    expectNoSession(call);
  });

  it("answers a legacy tool call as plain JSON without resultType", async () => {
    const r = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "codegraph_search", arguments: { query: "add" } },
      },
      { "MCP-Protocol-Version": "2025-06-18" },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.text.startsWith("{")).toBe(true);
    expect(r.body?.result).not.toHaveProperty("resultType");
    expect(textOf(r.body?.result)).toContain("src/math.ts");
    expectNoSession(r);
  });

  it("acknowledges a legacy notification with 202", async () => {
    const r = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(r.status).toBe(202);
    expectNoSession(r);
  });

  it("answers a lone legacy request as the SDK's transport answers it in a batch of one", async () => {
    // A lone request is answered in place (src/mcp/http-exchange.ts); a batch still goes through the
    // SDK's streamable HTTP transport, which answers a batch of one with that one answer.
    const calls = [
      { method: "tools/call", params: { name: "codegraph_search", arguments: { query: "add" } } },
      { method: "tools/call", params: { name: "codegraph_nope", arguments: {} } },
      { method: "tools/call", params: { name: "codegraph_callers", arguments: { symbol: 42 } } },
      { method: "tools/list", params: {} },
      { method: "ping" },
      { method: "no/such/method" },
    ];
    for (const [i, call] of calls.entries()) {
      const message = { jsonrpc: "2.0", id: 100 + i, ...call };
      const lone = await post(url, message, { "MCP-Protocol-Version": "2025-06-18" });
      const batched = await post(url, [message], { "MCP-Protocol-Version": "2025-06-18" });
      expect(lone.status, call.method).toBe(batched.status);
      expect(lone.headers.get("content-type"), call.method).toBe(batched.headers.get("content-type"));
      expect(lone.body, call.method).toEqual(batched.body);
      expect(lone.body?.id, call.method).toBe(100 + i);
    }
  });

  it("answers concurrent clients that number their requests alike, each under its own id", async () => {
    // Lone requests share one server (src/mcp/http-exchange.ts): ids are the clients' own, and two
    // clients may well both send id 1 at once.
    const asks = ["greet", "twice", "Calculator", "main"].flatMap((query, i) =>
      [1, "1", `q${i}`].map((id) => ({ query, id })),
    );
    const replies = await Promise.all(
      asks.map(({ query, id }) =>
        post(url, {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "codegraph_search", arguments: { query } },
        }),
      ),
    );
    for (const [i, r] of replies.entries()) {
      const { query, id } = asks[i]!;
      expect(r.status, query).toBe(200);
      expect(r.body?.id, query).toBe(id);
      // Each answer is its own query's: the first hit shown (`kind  name  path:line`) is the symbol asked for.
      expect(textOf(r.body?.result).split("\n")[0], query).toMatch(new RegExp(`^\\w+\\s+${query}\\s`));
    }
  });

  it("refuses a legacy request that does not accept SSE (406) or names a revision we do not serve (400)", async () => {
    const call = {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "codegraph_search", arguments: { query: "add" } },
    };
    const json = await post(url, call, { Accept: "application/json", "MCP-Protocol-Version": "2025-06-18" });
    expect(json.status).toBe(406);
    expect(json.body?.error?.message).toMatch(/text\/event-stream/);
    const unknown = await post(url, call, { "MCP-Protocol-Version": "1999-01-01" });
    expect(unknown.status).toBe(400);
    expect(unknown.body?.error?.message).toMatch(/Unsupported protocol version: 1999-01-01/);
  });

  it("refuses GET (no standalone stream) and DELETE (no session) with 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url, { method, headers: { Accept: ACCEPT }, signal: AbortSignal.timeout(10_000) });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("mcp-session-id")).toBeNull();
      expect(((await res.json()) as { error?: unknown }).error).toBeDefined();
    }
  });

  it("rejects a 2026-07-28 request without MCP-Protocol-Version: 400, -32020", async () => {
    const r = await post(
      url,
      { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: MODERN_META } },
      { "Mcp-Method": "tools/list" },
    );
    expect(r.status).toBe(400);
    expect(r.body?.error?.code).toBe(-32020);
  });

  it("rejects a 2026-07-28 request whose Mcp-Method disagrees with the body: 400, -32020", async () => {
    const r = await modern(url, 6, "tools/list", {}, { "Mcp-Method": "tools/call" });
    expect(r.status).toBe(400);
    expect(r.body?.error?.code).toBe(-32020);
  });

  it("rejects a 2026-07-28 tool call whose Mcp-Name disagrees with the body: 400, -32020", async () => {
    const r = await modern(
      url,
      7,
      "tools/call",
      { name: "codegraph_search", arguments: { query: "add" } },
      { "Mcp-Name": "codegraph_node" },
    );
    expect(r.status).toBe(400);
    expect(r.body?.error?.code).toBe(-32020);
  });

  it("refuses a foreign Origin with 403 and accepts a loopback one", async () => {
    const ping = { jsonrpc: "2.0", id: 8, method: "initialize", params: initializeParams("2025-06-18") };
    expect((await post(url, ping, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post(url, ping, { Origin: "http://localhost:3000" })).status).toBe(200);
  });

  it("refuses a foreign Host with 403 (DNS rebinding)", async () => {
    // fetch will not forge Host; a raw request does.
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        headers: { Host: "evil.example", "Content-Type": "application/json" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(403);
  });

  it("refuses an oversized body with 413 and a JSON-RPC error", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "codegraph_search", arguments: { query: "x".repeat(5 * 1024 * 1024) } },
    });
    const r = await post(url, huge, { "MCP-Protocol-Version": "2025-06-18" });
    expect(r.status).toBe(413);
    expect(r.body?.error?.code).toBeTypeOf("number");
  });

  it("refuses an oversized body sent in chunks, with no length announced, once it passes the limit", async () => {
    const { request } = await import("node:http");
    const piece = `"${"x".repeat(1024 * 1024)}",`;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: "POST", headers: { "Content-Type": "application/json", Accept: ACCEPT } },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"codegraph_search","arguments":{"query":[',
      );
      for (let i = 0; i < 6; i++) req.write(piece);
      req.end('""]}}}');
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { error: { message: string } }).error.message).toMatch(/Payload Too Large/);
  });

  it("refuses a body nested past 1,000 levels with 400, wherever the nesting is, and goes on serving", async () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    const bodies = [
      `{"jsonrpc":"2.0","id":${deep(10_000)},"method":"tools/call","params":{}}`,
      `[${deep(10_000)}]`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"codegraph_search","arguments":{"query":"x"},"_meta":{"a":${deep(2_000)}}}}`,
    ];
    for (const body of bodies) {
      const r = await post(url, body, { "MCP-Protocol-Version": "2025-06-18" });
      expect(r.status).toBe(400);
      expect(r.body?.error?.code).toBe(-32600);
      expect(r.text).toMatch(/nests arrays and objects more than 1000 levels deep/);
    }
    const call = { name: "codegraph_search", arguments: { query: "twice" } };
    const ok = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: call });
    expect(textOf(ok.body?.result)).toContain("src/math.ts");
  });

  it("names a nested argument's kind in the argument error, and repeats no long one", async () => {
    const body = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"codegraph_search","arguments":{"query":${"[".repeat(900)}1${"]".repeat(900)}}}}`;
    const r = await post(url, body);
    expect(r.status).toBe(200);
    expect(textOf(r.body?.result)).toBe("Error: 'query' must be a string, got an array of 1 item.");
    const kind = await post(url, {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "codegraph_search", arguments: { query: "x", kind: "k".repeat(100_000) } },
    });
    expect(textOf(kind.body?.result)).toMatch(/^Error: "k{79}…" is not a symbol kind\. Kinds: [^"]+$/);
  });

  it("answers arguments that are no object as a bad argument, at a legacy revision and at 2026-07-28", async () => {
    const legacy = await post(url, {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "codegraph_search", arguments: "add" },
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body?.error).toBeUndefined();
    expect(legacy.body?.result?.isError).toBe(true);
    expect(textOf(legacy.body?.result)).toMatch(/^Error: 'arguments' must be a JSON object .*, not "add"\.$/);
    const modernCall = await modern(url, 6, "tools/call", { name: "codegraph_search", arguments: null });
    expect(modernCall.body?.result?.isError).toBe(true);
    expect(modernCall.body?.result?.resultType).toBe("complete");
    expect(textOf(modernCall.body?.result)).toMatch(/, not null\.$/);
  });

  it("answers other paths with 404", async () => {
    const res = await fetch(url.replace("/mcp", "/other"), { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(404);
  });

  it("serves a real v2 SDK client over StreamableHTTPClientTransport", async () => {
    const client = new Client({ name: "codegraph-tests", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("codegraph_search");
      const result = await client.callTool({ name: "codegraph_callers", arguments: { symbol: "add" } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/\.ts/);
      const outside = await client.callTool({ name: "codegraph_node", arguments: { file: "/etc/passwd" } });
      expect(textOf(outside)).toContain("outside the project");
      expect(textOf(outside)).not.toContain("root:");
    } finally {
      await client.close();
    }
  });
});

/**
 * Send `head` (a request line and headers, and any body) on a new connection, then whatever `more`
 * sends, and collect the server's bytes until it closes the connection. Rejects if it is still open
 * after `giveUpMs`: a server that never closes it must not hang the suite.
 */
function unfinished(
  addr: string,
  head: string,
  more: (socket: Socket) => (() => void) | void = () => {},
  giveUpMs = 20_000,
): Promise<string> {
  const [host, port] = [addr.slice(0, addr.lastIndexOf(":")), Number(addr.slice(addr.lastIndexOf(":") + 1))];
  return new Promise((resolve, reject) => {
    let reply = "";
    let stop: (() => void) | void;
    const socket = connect(port, host, () => {
      socket.write(head);
      stop = more(socket);
    });
    const timer = setTimeout(() => {
      stop?.();
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms; the server answered: ${JSON.stringify(reply)}`));
    }, giveUpMs);
    socket.on("data", (d: Buffer) => (reply += d.toString("latin1")));
    socket.on("error", () => {}); // a reset after the answer: the close below still comes
    socket.on("close", () => {
      clearTimeout(timer);
      stop?.();
      resolve(reply);
    });
  });
}

const POST_HEAD =
  "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: " + ACCEPT + "\r\n";
const CALL = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "codegraph_search", arguments: { query: "add" } },
};

describe("requests that never finish arriving", () => {
  it("are answered 408 and closed once the request timeout passes, and the server goes on serving", async () => {
    const { url, addr } = await serve(["--path", "."], { CODEGRAPH_HTTP_REQUEST_TIMEOUT_MS: "1000" });
    const body = JSON.stringify(CALL);
    const replies = await Promise.all([
      // A length announced and never sent in full.
      unfinished(addr, `${POST_HEAD}Content-Length: ${body.length + 100}\r\n\r\n${body}`),
      // A chunked body whose last chunk never comes.
      unfinished(addr, `${POST_HEAD}Transfer-Encoding: chunked\r\n\r\n4\r\n{"js\r\n`),
      // A byte every 100 ms: never idle for long, never done.
      unfinished(addr, `${POST_HEAD}Content-Length: 100000\r\n\r\n{`, (socket) => {
        const drip = setInterval(() => socket.write(" "), 100);
        return () => clearInterval(drip);
      }),
    ]);
    for (const reply of replies) expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    const ok = await post(url, CALL);
    expect(ok.status).toBe(200);
    expect(textOf(ok.body?.result)).toContain("src/math.ts");
  });

  it("refuse a body with 503 while others hold the bytes bodies may take at once, and serve again after", async () => {
    const { url, addr } = await serve(["--path", "."], { CODEGRAPH_HTTP_REQUEST_TIMEOUT_MS: "20000" });
    // Twenty bodies of nearly the largest size (4 MiB), none finished: more than the 64 MiB held at
    // once. Those held wait for their timeout; the refused are answered at once, and the test stops
    // waiting at the first refusal (or once every connection closed, when none was refused).
    const almost = Buffer.alloc(4 * 1024 * 1024 - 1024, 0x20);
    const sockets: Socket[] = [];
    let refused: () => void = () => {};
    const firstRefusal = new Promise<void>((resolve) => (refused = resolve));
    const replies = Array.from({ length: 20 }, () =>
      unfinished(addr, `${POST_HEAD}Content-Length: ${4 * 1024 * 1024 - 10}\r\n\r\n`, (socket) => {
        sockets.push(socket);
        socket.write(almost);
      }).then((reply) => {
        if (reply.startsWith("HTTP/1.1 503 ")) refused();
        return reply;
      }),
    );
    await Promise.race([firstRefusal, Promise.all(replies)]);
    for (const socket of sockets) socket.destroy();
    const answered = await Promise.all(replies);
    const busy = answered.filter((r) => r.startsWith("HTTP/1.1 503 "));
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]).toMatch(/Retry-After: 1/i);
    expect(busy[0]).toMatch(/too many request bodies are arriving at once/);
    const ok = await post(url, CALL);
    expect(ok.status).toBe(200);
    expect(textOf(ok.body?.result)).toContain("src/math.ts");
  });
});

describe("without --path", () => {
  it("answers a call that names its projectPath, through that project's daemon", async () => {
    const { url } = await serve([]);
    const none = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "codegraph_search", arguments: { query: "add" } },
      },
      { "MCP-Protocol-Version": "2025-06-18" },
    );
    // Started inside an indexed project, it still has no default, and says why and what to do.
    const advice = textOf(none.body?.result);
    expect(advice).toMatch(/projectPath/);
    expect(advice).toMatch(/this HTTP server has no default one: it was started without --path/);
    expect(advice).toContain("`codegraph serve --http --path /abs/path/to/project`");
    expect(advice).not.toMatch(/outside any indexed project|serve --mcp/);
    const named = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "codegraph_search", arguments: { query: "add", projectPath: repo.dir } },
      },
      { "MCP-Protocol-Version": "2025-06-18" },
    );
    expect(named.body?.result?.isError).toBeFalsy();
    expect(textOf(named.body?.result)).toContain("src/math.ts");
  }, 30_000);
});

describe("with --path", () => {
  it("serves that project only: a call naming another indexed project is refused, the same one answered", async () => {
    const other = tempRepo(FIXTURE);
    try {
      expect((await run(["init", other.dir])).code).toBe(0);
      const { url } = await serve(["--path", repo.dir]);
      const call = (id: number, projectPath: string) =>
        post(
          url,
          {
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "codegraph_node", arguments: { file: "src/math.ts", projectPath } },
          },
          { "MCP-Protocol-Version": "2025-06-18" },
        );
      const refused = await call(1, other.dir);
      expect(refused.body?.result?.isError).toBe(true);
      expect(textOf(refused.body?.result)).toMatch(/serves .* only \(it was started with --path\), not /);
      expect(textOf(refused.body?.result)).not.toContain("export function add");
      const same = await call(2, join(repo.dir, "src", ".."));
      expect(same.body?.result?.isError).toBeFalsy();
      expect(textOf(same.body?.result)).toContain("export function add");
    } finally {
      other.cleanup();
    }
  }, 30_000);
});

describe("freshness", () => {
  it("answers from the files as saved before the call, whatever the watcher's debounce", async () => {
    const fresh = tempRepo(FIXTURE);
    try {
      expect((await run(["init", fresh.dir])).code).toBe(0);
      // A ten-minute debounce: only the daemon's sync before each answer can show the new file.
      const { url } = await serve(["--path", fresh.dir], { CODEGRAPH_WATCH_DEBOUNCE_MS: "600000" });
      const search = async (query: string) =>
        textOf(
          (
            await post(
              url,
              {
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: { name: "codegraph_search", arguments: { query } },
              },
              { "MCP-Protocol-Version": "2025-06-18" },
            )
          ).body?.result,
        );
      expect(await search("twice")).toContain("src/math.ts:6");
      writeFileSync(join(fresh.dir, "src", "fresh.ts"), "export function brandNewHelper(): number {\n  return 7;\n}\n");
      const deadline = Date.now() + 20_000;
      let found = "";
      while (!(found = await search("brandNewHelper")).includes("src/fresh.ts:1") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(found).toContain("src/fresh.ts:1");
    } finally {
      for (const c of children.splice(0)) await stop(c);
      fresh.cleanup();
    }
  }, 60_000);
});

describe("an index removed while serving", () => {
  it("is answered as missing, with the command that makes it, and is served again once made", async () => {
    const gone = tempRepo(FIXTURE);
    try {
      expect((await run(["init", gone.dir])).code).toBe(0);
      const { url } = await serve(["--path", gone.dir], { CODEGRAPH_HOST_CHECK_MS: "100" });
      const search = async () =>
        (
          await post(
            url,
            {
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "codegraph_search", arguments: { query: "twice" } },
            },
            { "MCP-Protocol-Version": "2025-06-18" },
          )
        ).body?.result;
      expect(textOf(await search())).toContain("src/math.ts:6");
      // As `git clean -fdx` does, while the project's daemon runs for this server.
      removeIndexFolder(gone.dir);
      const missing = await search();
      expect(missing?.isError).toBe(true);
      expect(textOf(missing)).toMatch(
        /^Error: No index at \S+graph\.db\. Run `codegraph init` in the project first\.$/,
      );
      expect((await run(["init", gone.dir])).code).toBe(0);
      expect(textOf(await search())).toContain("src/math.ts:6");
    } finally {
      for (const c of children.splice(0)) await stop(c);
      gone.cleanup();
    }
  }, 60_000);
});

describe("start-up checks", () => {
  it("refuses a non-loopback bind without CODEGRAPH_HTTP_TOKEN", async () => {
    const port = await freePort();
    const r = await cli(["serve", "--http", "--http-addr", `0.0.0.0:${port}`, "--path", "."]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("CODEGRAPH_HTTP_TOKEN");
  });

  it("refuses a --path that is not indexed", async () => {
    const empty = mkdtempSync(join(tmpdir(), "codegraph-empty-"));
    try {
      const port = await freePort();
      const r = await cli(["serve", "--http", "--http-addr", `127.0.0.1:${port}`, "--path", empty]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("not indexed");
      expect(r.stderr).toContain("codegraph init");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("requires the bearer token on every request when CODEGRAPH_HTTP_TOKEN is set", async () => {
    const { url } = await serve(["--path", "."], { CODEGRAPH_HTTP_TOKEN: "s3cret" });
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-06-18") };
    const missing = await post(url, init);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post(url, init, { Authorization: "Bearer wrong" })).status).toBe(401);
    const ok = await post(url, init, { Authorization: "Bearer s3cret" });
    expect(ok.status).toBe(200);
    expect(ok.body?.result?.protocolVersion).toBe("2025-06-18");
  }, 30_000);
});

describe("--detach, http list, http stop", () => {
  it("starts in the background, is listed, answers, and stops on SIGTERM leaving no entry", async () => {
    const port = await freePort();
    const addr = `127.0.0.1:${port}`;
    const started = await cli(["serve", "--http", "--detach", "--http-addr", addr, "--path", repo.dir]);
    expect(started.code, started.stderr).toBe(0);
    const pid = Number(/pid (\d+)/.exec(started.stdout)?.[1]);
    expect(pid).toBeGreaterThan(1);
    expect(started.stdout).toContain(`http://${addr}/mcp`);
    const log = /log: (\S+)/.exec(started.stdout)?.[1];
    expect(log && existsSync(log)).toBe(true);

    try {
      const listed = await cli(["http", "list"]);
      expect(listed.stdout).toContain(addr);
      expect(listed.stdout).toContain(String(pid));
      expect(listed.stdout).toContain(repo.dir);
      const json = JSON.parse((await cli(["http", "list", "--json"])).stdout) as {
        servers: { addr: string; pid: number; project: string; log: string }[];
      };
      expect(json.servers).toEqual([expect.objectContaining({ addr, pid, project: repo.dir, log })]);

      const r = await post(`http://${addr}/mcp`, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: initializeParams("2025-11-25"),
      });
      expect(r.body?.result?.protocolVersion).toBe("2025-11-25");

      const stopped = await cli(["http", "stop", addr]);
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toContain(String(pid));
      // Gone: not running, at most a zombie its parent has not reaped yet.
      expect(processAlive(pid)).toBe(false);
      expect((await cli(["http", "list"])).stdout).toContain("No codegraph HTTP servers");
      const registry = JSON.parse(readFileSync(join(home, ".codegraph", "http-servers.json"), "utf8")) as unknown[];
      expect(registry).toEqual([]);
      expect(readFileSync(log!, "utf8")).toContain("SIGTERM");
    } finally {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone, as it should be
      }
    }
  }, 60_000);

  it("says so when nothing is registered on the address", async () => {
    const r = await cli(["http", "stop", "127.0.0.1:1"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("http list");
  });

  it("reads a registry that is not a regular file as empty, rather than wait on a FIFO", async () => {
    const registry = join(home, ".codegraph", "http-servers.json");
    mkdirSync(dirname(registry), { recursive: true });
    rmSync(registry, { force: true });
    expect(spawnSync("mkfifo", [registry]).status).toBe(0);
    try {
      const r = await cli(["http", "list"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("No codegraph HTTP servers");
    } finally {
      rmSync(registry, { force: true });
    }
  });
});
