#!/usr/bin/env node
// The `codegraph` executable, bundled as dist/cli/main.js. The program itself (main.ts, with
// commander and every command) is dist/cli/program.js. `prompt-hook` runs on every prompt a user
// types, so it skips the program and goes straight to its own bundle: no commander, no parsers, no
// MCP SDK (about 25 ms less per prompt). Both specifiers are resolved at run time, so the bundler
// leaves them as separate files.
import * as nodeModule from "node:module";
import type * as PromptHookCommand from "./commands/prompt-hook-command.js";

// Node 22.1 and later keep V8's compiled code for the bundles on disk (in the system's temporary
// folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off): on Node 24, `--version` starts in 69 ms rather
// than 79. Node 20 has no such cache, and this does nothing there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const args = process.argv.slice(2);
if (args[0] === "prompt-hook" && !args.includes("--help") && !args.includes("-h")) {
  const hookModule = "./commands/prompt-hook-command.js";
  const { runPromptHookArgs } = (await import(hookModule)) as typeof PromptHookCommand;
  await runPromptHookArgs(args.slice(1));
} else {
  const programModule = "./program.js";
  await import(programModule);
}
