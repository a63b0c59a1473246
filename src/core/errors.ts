/** Stable codes: scripts and tests match on these, never on message text. */
export type ErrorCode =
  | "NOT_INDEXED"
  | "SCHEMA_MISMATCH"
  | "INDEX_DAMAGED"
  | "LOCKED"
  | "BAD_INPUT"
  | "BAD_CONFIG"
  | "NOT_FOUND"
  | "OUTSIDE_PROJECT"
  | "UNSAFE_ROOT"
  | "IO";

/**
 * A real fault, with a message that tells the user how to fix it.
 * Expected outcomes (no symbol found) are returned as results, not thrown.
 */
export class CodegraphError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodegraphError";
    this.code = code;
  }
}

/**
 * By shape, not `instanceof`: commands bundled separately (serve, install) carry their own copy of
 * the class, and their errors must still read as ours in main's error handler.
 */
export function isCodegraphError(e: unknown): e is CodegraphError {
  return e instanceof Error && e.name === "CodegraphError" && typeof (e as { code?: unknown }).code === "string";
}
