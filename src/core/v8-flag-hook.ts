/**
 * Where a listener for V8 flag changes made at run time sits on `globalThis` (see `setV8Flag` in
 * extract/jit-flags.ts): a registered symbol, since the CLI's executable and the program it loads
 * are separate bundles, each with its own copy of every module.
 */
export const BEFORE_V8_FLAG = Symbol.for("codegraph.beforeV8Flag");
