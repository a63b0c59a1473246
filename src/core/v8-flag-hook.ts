import { setFlagsFromString } from "node:v8";

/**
 * Where a listener for V8 flag changes made at run time sits on `globalThis` (see `setV8Flag`): a
 * registered symbol, since the CLI's executable and the program it loads are separate bundles, each
 * with its own copy of every module.
 */
export const BEFORE_V8_FLAG = Symbol.for("codegraph.beforeV8Flag");

/**
 * Set a V8 flag for the rest of the process. Whoever listens on BEFORE_V8_FLAG hears of it first:
 * the CLI's compile cache, whose cached code V8 accepts only under the flags it was made with.
 */
export function setV8Flag(flag: string): void {
  const listener = (globalThis as Record<symbol, unknown>)[BEFORE_V8_FLAG];
  if (typeof listener === "function") (listener as (flag: string) => void)(flag);
  setFlagsFromString(flag);
}
