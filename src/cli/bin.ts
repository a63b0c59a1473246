#!/usr/bin/env node
// The `codegraph` executable, bundled as dist/cli/main.js. The program itself (main.ts, with
// commander and every command) is dist/cli/program.js. `prompt-hook` runs on every prompt a user
// types, so it skips the program and goes straight to its own bundle: no commander, no parsers, no
// MCP SDK (about 25 ms less per prompt). Both specifiers are resolved at run time, so the bundler
// leaves them as separate files.
import * as nodeModule from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { installCompileCache } from "./compile-cache.js";
import type * as PromptHookCommand from "./commands/prompt-hook-command.js";

// Our bundles' compiled code is kept between runs by our own cache (compile-cache.ts); Node 22.1 and
// later keep that of the packages they load (NODE_DISABLE_COMPILE_CACHE=1 turns both off).
const args = process.argv.slice(2);
installCompileCache(dirname(fileURLToPath(import.meta.url)), args[0]);
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// No top-level await: the bundle is CommonJS (see scripts/after-build.mjs).
if (args[0] === "prompt-hook" && !args.includes("--help") && !args.includes("-h")) {
  const hookModule = "./commands/prompt-hook-command.js";
  void (import(hookModule) as Promise<typeof PromptHookCommand>).then(({ runPromptHookArgs }) =>
    runPromptHookArgs(args.slice(1)),
  );
} else {
  const programModule = "./program.js";
  void import(programModule);
}
