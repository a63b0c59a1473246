import { createServer as createNodeServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  WebStandardStreamableHTTPServerTransport,
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
  type McpServerFactory,
} from "@modelcontextprotocol/server";
import { isLoopbackHost, type HttpAddress } from "../core/http-address.js";
import {
  SharedExchanges,
  answerExchange,
  closeQuietly,
  isPlainExchange,
  isUnclaimedPlainExchange,
} from "./http-exchange.js";
import { BodyBudget, NO_ROOM, TOO_LARGE, readBody } from "./http-body.js";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json-nesting.js";
import { LEGACY_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS, createServer, type ServerDeps } from "./server.js";

/** The one endpoint the HTTP server answers on. */
export const MCP_PATH = "/mcp";

export interface HttpServerOptions {
  address: HttpAddress;
  /** Everything `createServer` needs; the server instances are made from these. */
  deps: ServerDeps;
  /** Required as `Authorization: Bearer <token>` on every request when set. */
  token: string | null;
  /** Largest request body accepted (413 beyond it). */
  maxBodyBytes?: number;
  /** How long a request, headers and body, may take to arrive whole: 408 and closed after. */
  requestTimeoutMs: number;
}

export interface RunningHttpServer {
  /** The address actually bound (the port is real even when 0 was asked for). */
  address: HttpAddress;
  /** Stop accepting, let in-flight requests finish, then release the port. */
  close: () => Promise<void>;
}

/**
 * MCP over streamable HTTP on one endpoint, stateless at every revision: no request sees another's
 * state (a fresh server instance per request, or for lone tool calls one shared server that is never
 * initialised, see `SharedExchanges`), never an `Mcp-Session-Id`, no GET stream and no DELETE (405),
 * nothing to resume.
 *
 * 2026-07-28 requests go to the SDK's `createMcpHandler`, which validates the SEP-2243 headers
 * (400 / -32020) and stamps `resultType`. Legacy (2025-era) requests are served here rather than by
 * the handler's own fallback, on a stateless transport with JSON responses enabled: the fallback would
 * answer with an SSE stream, and the clients we serve all accept plain JSON.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const inflight = new Set<ServerResponse>();
  const given = options.deps;
  // Other requests in flight are company worth a read worker, though a call that need not wait for the
  // daemon runs from its request to its answer without letting any other call start meanwhile.
  const runTool = given.runTool;
  const deps: ServerDeps = runTool
    ? { ...given, runTool: (call, concurrent) => runTool(call, concurrent || inflight.size > 1) }
    : given;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const bodies = new BodyBudget(BODY_BUDGET_BYTES);
  const onerror = (e: Error) => deps.log(`http: ${e.message}`);
  const factory: McpServerFactory = () => createServer(deps);
  const exchanges = new SharedExchanges(createServer(deps));
  const modern = createMcpHandler(factory, {
    legacy: "reject",
    responseMode: "auto",
    maxRequestBodySize: maxBody,
    onerror,
  });

  async function legacy(request: Request, parsedBody: unknown): Promise<Response> {
    const server = factory({ era: "legacy", requestInfo: request }) as ReturnType<typeof createServer>;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBody,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      // JSON responses are complete when returned: nothing of this exchange outlives it.
      closeQuietly(transport, server);
    }
  }

  /**
   * A legacy request served on Node's own request and response (the SDK's Node transport), with the
   * body already read and parsed: no web-standard request to build, nor a stream for its body.
   */
  async function legacyOnNode(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const server = createServer(deps);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBody,
    });
    await server.connect(transport);
    try {
      await transport.handleRequest(req, res, parsedBody);
    } finally {
      closeQuietly(transport, server);
    }
  }

  /**
   * Most traffic is legacy tool calls with a JSON body: their body is read here, once. One that makes
   * no claim to the 2026-07-28 era is answered at once (`isUnclaimedPlainExchange`); for any other,
   * the SDK's own classifier decides the era. A lone legacy request is answered in place
   * (`answerExchange`), any other legacy message (a batch, a notification, an initialize, a refusal to make) goes to
   * `legacyOnNode`. Everything else (another method, another content type, a body that is not JSON,
   * every 2026-07-28 request) goes to the SDK's handler as before, with the body parsed when it was.
   */
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A call that need not wait for the daemon runs to its answer without giving the event loop a
    // turn: let it take one first, so requests that have arrived meanwhile are seen (`inflight`) and
    // calls are spread over the read workers rather than answered one by one on this thread.
    await new Promise(setImmediate);
    if (req.method !== "POST" || !isJsonContentType(req.headers["content-type"] ?? null)) return mcp(req, res);
    const text = await readBody(req, maxBody, bodies);
    if (text === TOO_LARGE) return refuseAfterBody(req, res, tooLargeBody(maxBody));
    // No room for its body: answered at once and closed, the rest unread, though the client may then
    // meet a reset instead of the answer (see `refuseAfterBody`). Reading and discarding the rest of
    // 184 such bodies of 4 MiB took the server to 420 MB; it stays under 200 MB this way.
    if (text === NO_ROOM) return send(res, BUSY);
    const parsed = parseJson(text);
    if (parsed === undefined) return mcp(req, res); // its body read: the SDK answers an empty one (-32700)
    if (nestsDeeperThan(text, MAX_JSON_NESTING)) return send(res, TOO_DEEP);
    if (isUnclaimedPlainExchange(req, parsed, LEGACY_PROTOCOL_VERSIONS)) return answerExchange(res, parsed, exchanges);
    const era = classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: header(req, "mcp-protocol-version"),
      mcpMethodHeader: header(req, "mcp-method"),
      mcpNameHeader: header(req, "mcp-name"),
      body: parsed,
    });
    if (era.kind === "legacy") {
      if (isPlainExchange(req, parsed, PROTOCOL_VERSIONS)) return answerExchange(res, parsed, exchanges);
      return legacyOnNode(req, res, parsed);
    }
    return mcp(req, res, parsed);
  }

  const fetchFace = {
    fetch: async (request: Request, given?: { parsedBody?: unknown }): Promise<Response> => {
      const method = request.method.toUpperCase();
      if (method !== "POST") return rpcError(405, -32000, "Method not allowed.", { Allow: "POST" });
      if (!isJsonContentType(request.headers.get("content-type"))) {
        return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      }
      // `route` parsed the body and found it no legacy request: the modern handler, with that body.
      if (given?.parsedBody !== undefined) return modern.fetch(request, { parsedBody: given.parsedBody });
      // Read and parse the body once, here: otherwise the SDK clones the request to tell the eras apart
      // and reads the body again to serve it. A body that is not JSON goes to the SDK as it came, to
      // be answered as the SDK answers one.
      const text = await request.text();
      const parsed = parseJson(text);
      const served = parsed === undefined ? new Request(request, { body: text }) : request;
      if (await isLegacyRequest(served, parsed, { maxRequestBodySize: maxBody })) return legacy(served, parsed);
      return modern.fetch(served, parsed === undefined ? undefined : { parsedBody: parsed });
    },
  };
  const mcp = toNodeHandler(fetchFace, { maxRequestBodySize: maxBody, onerror });

  const allowedHosts = allowedHostnames(options.address);
  const allowedOrigins = localhostAllowedOrigins();

  // A request must arrive whole, headers and body, within the timeout, else Node answers 408 and
  // closes the connection (headers alone get as long: Node's default is the lesser of 60 s and this).
  // Node's default, 300 s, let a client that never finished a body hold what it had sent that long.
  // The deadlines are checked on Node's timer, every few seconds: nothing is added per request.
  const requestTimeout = options.requestTimeoutMs;
  const timeouts = { requestTimeout, connectionsCheckingInterval: checkEvery(requestTimeout) };
  const http = createNodeServer(timeouts, (req, res) => {
    inflight.add(res);
    res.on("close", () => inflight.delete(res));
    const refusal = refuse(req, allowedHosts, allowedOrigins, options.token) ?? tooLarge(req, maxBody);
    if (refusal) return refuseAfterBody(req, res, refusal);
    void route(req, res).catch((e: unknown) => {
      onerror(e as Error);
      if (!res.headersSent) send(res, { status: 500, code: -32603, message: "Internal error" });
      else res.end();
    });
  });
  // Keep-alive sockets would hold close() open for minutes; idle ones are closed on shutdown.
  http.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.address.port, options.address.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const bound = http.address() as AddressInfo;

  return {
    address: { host: options.address.host, port: bound.port },
    close: () =>
      new Promise<void>((resolve) => {
        // The shared server closes once no request is left for it to answer.
        http.close(() => {
          void exchanges.close();
          resolve();
        });
        http.closeIdleConnections();
        // Requests already being answered finish; their sockets close when they have.
        for (const res of inflight) res.once("finish", () => http.closeIdleConnections());
        void modern.close().catch(() => {});
      }),
  };
}

interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * The checks before any MCP handling: the endpoint, the DNS-rebinding guard (Host and Origin), and
 * the bearer token when one is configured.
 */
function refuse(
  req: IncomingMessage,
  allowedHosts: string[] | null,
  allowedOrigins: string[],
  token: string | null,
): Refusal | null {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== MCP_PATH) return { status: 404, code: -32000, message: `Not found: the MCP endpoint is ${MCP_PATH}.` };
  if (allowedHosts) {
    const host = validateHostHeader(req.headers.host, allowedHosts);
    if (!host.ok) return { status: 403, code: -32000, message: `Forbidden: ${host.message}` };
  }
  const origin = validateOriginHeader(req.headers.origin, allowedOrigins);
  if (!origin.ok) return { status: 403, code: -32000, message: `Forbidden: ${origin.message}` };
  if (token !== null && req.headers.authorization !== `Bearer ${token}`) {
    return {
      status: 401,
      code: -32000,
      message: "Unauthorized: send Authorization: Bearer <CODEGRAPH_HTTP_TOKEN>.",
      headers: { "WWW-Authenticate": 'Bearer realm="codegraph"' },
    };
  }
  return null;
}

/**
 * Host names a request may carry. On loopback: only loopback names, so a web page that rebinds its
 * own name to 127.0.0.1 is refused. On a named interface: that name too. On a wildcard bind the
 * Host cannot be known in advance; the token (required there) is the guard.
 */
function allowedHostnames(address: HttpAddress): string[] | null {
  if (isLoopbackHost(address.host)) return localhostAllowedHostnames();
  if (address.host === "0.0.0.0" || address.host === "::") return null;
  const named = address.host.includes(":") ? `[${address.host}]` : address.host;
  return [...localhostAllowedHostnames(), named];
}

/**
 * The most bytes of request bodies held at once while they arrive: sixteen bodies of the largest
 * size. A tool call's body is a few hundred bytes, so the load test's 50 clients hold well under
 * 1 MiB; only clients that send large bodies slowly, or never finish them, meet the cap.
 */
const BODY_BUDGET_BYTES = 64 * 1024 * 1024;

/** A body that would take the bodies arriving at once past `BODY_BUDGET_BYTES`. */
const BUSY: Refusal = {
  status: 503,
  code: -32000,
  message: "Service Unavailable: too many request bodies are arriving at once. Retry in a moment.",
  headers: { "Retry-After": "1", Connection: "close" },
};

/**
 * How often Node looks for requests past their deadline (`connectionsCheckingInterval`, 30 s by
 * default): a request is closed between its timeout and that much later.
 */
function checkEvery(requestTimeoutMs: number): number {
  return Math.max(10, Math.min(5_000, Math.ceil(requestTimeoutMs / 4)));
}

const tooLargeBody = (maxBody: number): Refusal => ({
  status: 413,
  code: -32600,
  message: `Payload Too Large: a request body may be at most ${maxBody} bytes.`,
});

const TOO_DEEP: Refusal = {
  status: 400,
  code: -32600,
  message: `Bad Request: the request body nests arrays and objects more than ${MAX_JSON_NESTING} levels deep.`,
};

/** A body announced as larger than the limit is refused before any of it is read. */
function tooLarge(req: IncomingMessage, maxBody: number): Refusal | null {
  const length = Number(req.headers["content-length"]);
  if (!Number.isFinite(length) || length <= maxBody) return null;
  return tooLargeBody(maxBody);
}

/** A body's JSON value; undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** How long a refused request's body is read (and discarded) before the answer goes out anyway. */
const REFUSED_BODY_GRACE_MS = 5_000;

/**
 * Answer a refused request once its body has arrived (read and discarded): answering while a client
 * is still sending makes the server close the connection under it, and under load the client then
 * meets a reset instead of the answer. A client still sending after the grace period is answered
 * and cut off. The connection closes after the answer: nothing else follows on it.
 */
function refuseAfterBody(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    send(res, { ...refusal, headers: { Connection: "close", ...refusal.headers } });
  };
  const timer = setTimeout(() => {
    answer();
    req.destroy();
  }, REFUSED_BODY_GRACE_MS);
  req.on("end", answer);
  req.on("error", answer);
  req.resume();
}

function send(res: ServerResponse, r: Refusal): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: r.code, message: r.message }, id: null });
  res.writeHead(r.status, { "Content-Type": "application/json", ...r.headers });
  res.end(body);
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}
