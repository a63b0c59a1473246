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

/** Print a command's result: JSON for scripts and subagents, text for people. */
export function emit(json: boolean | undefined, data: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text()}\n`);
}

/** Report a failure and exit 1: a CodegraphError's message says how to fix it; anything else is a bug. */
export function fail(e: unknown, json: boolean): never {
  if (isCodegraphError(e)) {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
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
  process.stdout.write(
    `${JSON.stringify({ error: { code: "BAD_INPUT", message: `${text} (see codegraph --help)` } })}\n`,
  );
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
