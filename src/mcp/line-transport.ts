import type { Readable, Writable } from "node:stream";
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";

/** A line longer than this is refused with an error instead of being buffered: no tool call needs 4 MiB. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How long a session whose input has ended waits for its last answers. */
const ANSWER_WAIT_MS = 60_000;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The answer to a line longer than MAX_LINE_BYTES, which was not read, so it has no id to give. The
 * stdio proxy sends the same one for a line it will not forward.
 */
export const REQUEST_TOO_LARGE = {
  jsonrpc: "2.0",
  id: null,
  error: { code: INVALID_REQUEST, message: `Request too large: a message may be at most ${MAX_LINE_BYTES} bytes.` },
} as const;

/**
 * Newline-delimited JSON-RPC over a pair of streams (stdin/stdout, or a socket), no Content-Length framing.
 *
 * The SDK's own stdio transport drops what it cannot parse in silence, which leaves a client waiting
 * forever. This one answers every bad line itself: invalid JSON gets -32700, a batch or a message
 * that is not JSON-RPC gets -32600 (with the request's id when one can be read), and an over-long
 * line is discarded as it streams in and answered with -32600, so memory stays bounded.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Sees every well-formed message before the protocol does (project resolution reads `initialize`).
   * Returning true consumes it: the daemon's `codegraph/hello` never reaches the protocol.
   */
  onpeek?: (message: JSONRPCMessage) => boolean | void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  private overflowing = false;
  private closed = false;
  /** Requests handed to the protocol and not answered yet, by id: the input's end waits for them. */
  private readonly unanswered = new Set<string | number>();
  private inputEnded = false;
  private settle!: () => void;
  /**
   * Resolves once the input has ended and every request read from it has been answered (or after
   * ANSWER_WAIT_MS): a client that writes its requests and closes its end (`printf … | codegraph serve
   * --mcp`) still gets every answer. The transport closes then.
   */
  readonly answered = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("close", this.onEnd);
    this.input.on("error", this.onInputError);
    this.output.on("error", this.onOutputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const sent = this.write(`${JSON.stringify(message)}\n`);
    const id = "id" in message && !("method" in message) ? message.id : undefined;
    if (id !== undefined && this.unanswered.delete(id) && this.inputEnded) {
      void sent.catch(() => {}).then(() => this.closeIfAnswered());
    }
    return sent;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.settle();
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("close", this.onEnd);
    this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }

  private write(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the connection is closed"));
    return new Promise((resolve, reject) => {
      if (this.output.write(line, (err) => (err ? reject(err) : undefined))) resolve();
      else this.output.once("drain", resolve);
    });
  }

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private take(part: Buffer) {
    if (this.overflowing) return;
    if (this.buffered + part.length > MAX_LINE_BYTES) {
      this.overflowing = true;
      this.chunks = [];
      this.buffered = 0;
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private endLine() {
    if (this.overflowing) {
      this.overflowing = false;
      this.reply(REQUEST_TOO_LARGE.id, REQUEST_TOO_LARGE.error.code, REQUEST_TOO_LARGE.error.message);
      return;
    }
    const text = Buffer.concat(this.chunks, this.buffered).toString("utf8").trim();
    this.chunks = [];
    this.buffered = 0;
    if (text) this.handleLine(text);
  }

  private handleLine(text: string) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.reply(null, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      return;
    }
    if (Array.isArray(value)) {
      this.reply(
        null,
        INVALID_REQUEST,
        "Invalid request: JSON-RPC batches are not supported; send one message per line.",
      );
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.reply(idOf(value), INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message.");
      return;
    }
    try {
      if (this.onpeek?.(message) === true) return;
      if ("method" in message && "id" in message) this.unanswered.add(message.id);
      this.onmessage?.(message);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string) {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`).catch((e: Error) =>
      this.onerror?.(e),
    );
  }

  /** The input ended: a last line without its newline is still read, and what was asked, answered. */
  private readonly onEnd = () => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (this.buffered > 0 || this.overflowing) this.endLine();
    this.input.off("data", this.onData);
    if (this.closeIfAnswered()) return;
    // A request the protocol never answers must not keep a finished session open for ever.
    setTimeout(() => void this.close(), ANSWER_WAIT_MS).unref();
  };

  private closeIfAnswered(): boolean {
    if (this.unanswered.size > 0) return false;
    void this.close();
    return true;
  }
  private readonly onInputError = (e: Error) => this.onerror?.(e);
  private readonly onOutputError = (e: Error) => {
    this.onerror?.(e);
    void this.close();
  };
}

/** The id of a malformed request, when it has a usable one, so the client can match the error to it. */
function idOf(value: unknown): string | number | null {
  if (value && typeof value === "object" && "id" in value) {
    const id = (value as { id: unknown }).id;
    if (typeof id === "string" || typeof id === "number") return id;
  }
  return null;
}
