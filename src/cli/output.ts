import { writeSync } from "node:fs";
import { CodegraphError, isCodegraphError } from "../core/errors.js";

/**
 * A reader that stops early (`codegraph files | head`) closes the pipe: that is the reader's choice,
 * not a failure, so the command stops there without a stack trace. Not for `serve`, whose stdout is
 * the MCP channel: its transport closes the session itself.
 */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
}

/** Set once a write has gone to `process.stdout`: every later one goes there too, in order. */
let streamed = false;

/**
 * Write to stdout through its descriptor, synchronously. `process.stdout` is made on first use, and
 * for a pipe (as agents, scripts and the prompt hook's host run us) that loads node:net and builds a
 * socket: 5-7 ms of a command that takes 60-100. A reader that stops early (`codegraph files |
 * head`) ends the command quietly; a descriptor set non-blocking that is full (EAGAIN) hands the
 * rest to the stream, which waits for room.
 */
export function writeOut(text: string): void {
  if (streamed) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(1, bytes, at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(0);
      if (code !== "EAGAIN") throw e;
      streamed = true;
      exitQuietlyOnClosedPipe();
      process.stdout.write(bytes.subarray(at));
      return;
    }
  }
}

/** Print a command's result: JSON for scripts and subagents, text for people. */
export function emit(json: boolean | undefined, data: unknown, text: () => string): void {
  writeOut(json ? `${JSON.stringify(data, null, 2)}\n` : `${text()}\n`);
}

/** Report a failure and exit 1: a CodegraphError's message says how to fix it; anything else is a bug. */
export function fail(e: unknown, json: boolean): never {
  if (isCodegraphError(e)) {
    if (json) writeOut(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
    else process.stderr.write(`codegraph: ${e.message}\n`);
  } else {
    const err = e as Error;
    process.stderr.write(`codegraph: unexpected error: ${err?.message ?? String(e)}\n`);
    if (process.env.CODEGRAPH_DEBUG) process.stderr.write(`${err?.stack ?? ""}\n`);
    else process.stderr.write("Set CODEGRAPH_DEBUG=1 for details.\n");
  }
  process.exit(1);
}

/** A usage error (commander's `error: …` line, with its help hint) as the JSON error every command prints. */
export function writeUsageError(message: string): void {
  const text = message.replace(/^error: /, "").trim();
  writeOut(`${JSON.stringify({ error: { code: "BAD_INPUT", message: `${text} (see codegraph --help)` } })}\n`);
}

/** Parse a positive whole-number option, or explain what was wrong. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new CodegraphError("BAD_INPUT", `--${name} takes a whole number of 1 or more, not "${value}".`);
  }
  return n;
}
