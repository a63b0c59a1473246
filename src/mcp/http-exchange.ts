import type { IncomingMessage, ServerResponse } from "node:http";
import {
  isInitializeRequest,
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
  return isJSONRPCRequest(body) && !isInitializeRequest(body);
}

/**
 * One JSON-RPC request and its answer, as the SDK's `Transport` for a `Server` of its own. The
 * stateless streamable HTTP transport with JSON answers does the same for such a request, but
 * through a web-standard Request built from Node's, and a web Response (with a ReadableStream body)
 * that its Node adapter then reads back: about a third of the protocol thread under load. Messages
 * other than the answer (progress, logging) are dropped, as the SDK drops them in JSON mode.
 */
class OneExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private closed = false;

  constructor(private readonly answer: (message: JSONRPCMessage) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this.answer(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * Answer one request (see `isPlainExchange`) on `server`, a fresh one: 200 with its JSON-RPC answer,
 * whatever the answer (a JSON-RPC error included), as the SDK's transport answers it.
 */
export async function answerExchange(res: ServerResponse, request: JSONRPCRequest, server: Server): Promise<void> {
  let answered!: (message: JSONRPCMessage) => void;
  const answer = new Promise<JSONRPCMessage>((resolve) => (answered = resolve));
  const transport = new OneExchange(answered);
  await server.connect(transport);
  try {
    // A server always answers a request it is handed; one that took none would leave this waiting.
    if (!transport.onmessage) throw new Error("the MCP server did not take the request");
    transport.onmessage(request);
    const body = JSON.stringify(await answer);
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  } finally {
    closeQuietly(transport, server);
  }
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
