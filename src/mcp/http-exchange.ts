import type { IncomingMessage, ServerResponse } from "node:http";
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type Server,
  type Transport,
} from "@modelcontextprotocol/server";

/**
 * Whether a legacy (2025-era) POST can be answered as one exchange in place (`answerExchange`): a
 * single JSON-RPC request, not `initialize`, from a client that accepts both JSON and SSE, at a
 * protocol revision we serve (or none named). Anything else goes to the SDK's own transport, which
 * answers it as the streamable HTTP transport must (406, 400, 202, batches).
 */
export function isPlainExchange(
  req: IncomingMessage,
  body: unknown,
  revisions: readonly string[],
): body is JSONRPCRequest {
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  const revision = req.headers["mcp-protocol-version"];
  if (revision !== undefined && (typeof revision !== "string" || !revisions.includes(revision))) return false;
  // Any `initialize`, well formed or not, is the SDK transport's to answer: the shared server is never
  // initialised (see SharedExchanges). Its method says so without a schema's failed parse.
  return isJSONRPCRequest(body) && body.method !== "initialize";
}

/**
 * Whether a POST is a plain exchange (see `isPlainExchange`) at a legacy revision, told without the
 * SDK's era classification. That classification first tries the body as a JSON-RPC result and as a
 * JSON-RPC error; for a request both tries fail, and each failure builds a zod error: 27 µs a call
 * under load, a tenth of the protocol thread's work. A request lays claim to the 2026-07-28 era only
 * through a header naming that revision, an `Mcp-Method` or `Mcp-Name` header, or its params'
 * `_meta`; one with none of them, no `result` and no `error` is what the SDK classifies as legacy
 * ("no claim"). Anything else gets `false` here, and the SDK's classification as before.
 */
export function isUnclaimedPlainExchange(
  req: IncomingMessage,
  body: unknown,
  legacyRevisions: readonly string[],
): body is JSONRPCRequest {
  if (req.headers["mcp-method"] !== undefined || req.headers["mcp-name"] !== undefined) return false;
  if (!isPlainRecord(body) || "result" in body || "error" in body) return false;
  const params = body.params;
  if (params !== undefined && (!isPlainRecord(params) || "_meta" in params)) return false;
  return isPlainExchange(req, body, legacyRevisions);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Lone requests (see `isPlainExchange`) from every HTTP client, answered by one long-lived `Server`
 * of the SDK's: this is its `Transport`. The stateless streamable HTTP transport with JSON answers
 * serves such a request on a server made for it, through a web-standard Request built from Node's
 * and a web Response that its Node adapter then reads back; a server made and closed per request
 * still cost a tenth of the protocol thread under load (the handlers registered, the abort signals
 * and the "Connection closed" error of each close). HTTP clients share nothing else: the server
 * never sees `initialize` (that goes to the SDK's transport), so each request is answered as a fresh
 * server would answer it. Clients number their requests independently, so each request is handed
 * on under an id of ours, and its answer goes back under the client's. Messages other than answers
 * (progress, logging) are dropped, as the SDK drops them in JSON mode.
 */
export class SharedExchanges implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Requests handed on and not yet answered, by our id: the client's id, and who waits for the answer. */
  private readonly waiting = new Map<number, { id: JSONRPCRequest["id"]; answered: (m: JSONRPCMessage) => void }>();
  private nextId = 0;
  private connected: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly server: Server) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const waiter = typeof message.id === "number" ? this.waiting.get(message.id) : undefined;
    if (!waiter) return;
    this.waiting.delete(message.id as number);
    waiter.answered({ ...message, id: waiter.id } as JSONRPCMessage);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** The server's answer to one request, under the request's own id. */
  async answer(request: JSONRPCRequest): Promise<JSONRPCMessage> {
    if (this.closed) throw new Error("the MCP server is closed");
    await (this.connected ??= this.server.connect(this));
    // A server always answers a request it is handed; one that took none would leave this waiting.
    if (!this.onmessage) throw new Error("the MCP server did not take the request");
    const id = this.nextId++;
    const answer = new Promise<JSONRPCMessage>((answered) => this.waiting.set(id, { id: request.id, answered }));
    this.onmessage({ ...request, id });
    return answer;
  }
}

/**
 * Answer one request (see `isPlainExchange`) through `exchanges`: 200 with its JSON-RPC answer,
 * whatever the answer (a JSON-RPC error included), as the SDK's transport answers it.
 */
export async function answerExchange(
  res: ServerResponse,
  request: JSONRPCRequest,
  exchanges: SharedExchanges,
): Promise<void> {
  const body = JSON.stringify(await exchanges.answer(request));
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Close one request's transport and server. Closing makes the SDK build a "Connection closed" error
 * for calls still waiting on the connection, though none is: with its stack, 4% of the main thread
 * under load. Nothing reads it, so it is built without one.
 */
export function closeQuietly(...parts: { close(): Promise<void> }[]): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const p of parts) void p.close().catch(() => {});
  } finally {
    Error.stackTraceLimit = limit;
  }
}
