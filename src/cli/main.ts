#!/usr/bin/env node
import { Command, Option } from "commander";
import { codegraphVersion } from "../core/version.js";
import { fail, writeOut, writeUsageError } from "./output.js";
import { loadInstallCommands } from "./commands/load-install.js";
import type * as ServeCommand from "./commands/serve-command.js";
import type * as PromptHookCommand from "./commands/prompt-hook-command.js";

const version = codegraphVersion();
/** Asked for anywhere on the line, even by a line the parser refuses. */
const wantsJson = process.argv.includes("--json");

const program = new Command()
  .name("codegraph")
  .description("Local code intelligence for AI coding agents: a symbol graph of your repository, kept in .codegraph/.")
  .version(version)
  // With --json, a line the parser refuses (an unknown option, a missing argument) answers as every
  // other error does there: one JSON object on stdout, which a script reads as the command's answer.
  .configureOutput({
    writeOut,
    outputError: (message, write) => (wantsJson ? writeUsageError(message) : write(message)),
  })
  .showHelpAfterError(!wantsJson);

const pathOption = () =>
  new Option("-p, --path <dir>", "the project (default: the indexed project around the working directory)");
const jsonOption = () => new Option("--json", "print JSON instead of text");

// Each action imports its implementation lazily: start-up time matters for commands run on every prompt.
program
  .command("init")
  .description("create .codegraph/ in a project and build its index (an existing index is synced)")
  .argument("[path]", "project folder (default: the working directory)")
  .option("-f, --force", "rebuild the index from scratch")
  .option("-t, --target <id>", "also write the project's entry for this agent (zed: .zed/settings.json with --path)")
  .addOption(new Option("-p, --path <dir>", "the project folder, as an option"))
  .addOption(jsonOption())
  .action(
    async (path: string | undefined, opts: { force?: boolean; json?: boolean; path?: string; target?: string }) => {
      const { runInit } = await import("./commands/index-commands.js");
      await runInit(path ?? opts.path ?? ".", opts);
    },
  );

program
  .command("sync")
  .description("update the index with the files changed since the last sync")
  .argument("[path]", "project folder (default: the indexed project around the working directory)")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (path: string | undefined, opts: { path?: string; json?: boolean }) => {
    const { runSync } = await import("./commands/index-commands.js");
    await runSync(path ?? opts.path, opts);
  });

program
  .command("status")
  .description("files, nodes and edges in the index, and what changed on disk since the last sync")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (opts: { path?: string; json?: boolean }) => {
    const { runStatus } = await import("./commands/read-commands.js");
    runStatus(opts);
  });

program
  .command("search")
  .description("find symbols by name, words in their names, signatures and docs")
  .argument("<query...>", "text to search for (several words are one query)")
  .option("-k, --kind <kind>", "only symbols of this kind (function, class, method, ...)")
  .option("-l, --limit <n>", "at most this many results", "20")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (query: string[], opts) => {
    const { runSearch } = await import("./commands/read-commands.js");
    runSearch(query.join(" "), opts);
  });

for (const direction of ["callers", "callees"] as const) {
  program
    .command(direction)
    .description(direction === "callers" ? "who calls a symbol" : "what a symbol calls")
    .argument("<symbol>", "a name, a qualified name (Class.method) or a stable id")
    .option("--file <path>", "only the definition in this file (a path or its end)")
    .option("-l, --limit <n>", "at most this many rows", "50")
    .option("--all-uses", "every use (references, inheritance, imports), not only calls")
    .addOption(pathOption())
    .addOption(jsonOption())
    .action(async (symbol: string, opts) => {
      const { runRelations } = await import("./commands/read-commands.js");
      runRelations(direction, symbol, opts);
    });
}

program
  .command("impact")
  .description("what depends on a symbol, transitively: the blast radius of changing it")
  .argument("<symbol>", "a name, a qualified name (Class.method) or a stable id")
  .option("-d, --depth <n>", "how many hops to follow", "3")
  .option("--file <path>", "only the definition in this file")
  .option("-l, --limit <n>", "at most this many results", "200")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (symbol: string, opts) => {
    const { runImpact } = await import("./commands/read-commands.js");
    runImpact(symbol, opts);
  });

program
  .command("node")
  .description("a symbol's location, signature and source, or a file's numbered lines (file:10-40, file#L10-L40)")
  .argument(
    "[target]",
    "a symbol (name, Class.method, id), or a file path with an optional :line, :start-end or #Lstart-Lend",
  )
  .option("--file <path>", "read this file; with a symbol, pick the definition in this file")
  .option("--line <n>", "with a symbol and --file: the definition enclosing this line")
  .option("--offset <n>", "file mode: first line to show")
  .option("--limit <n>", "file mode: how many lines to show (at most 2000)")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (target: string | undefined, opts) => {
    const { runNode } = await import("./commands/read-commands.js");
    runNode(target, opts);
  });

program
  .command("explore")
  .description(
    "the code most relevant to a question or names: symbols' source grouped by file, with callers and callees",
  )
  .argument("<query...>", 'a question, symbol names or words ("how is a session token refreshed"; quotes optional)')
  .option("--max-files <n>", "at most this many files of source (default: by the project's size, 6 to 10)")
  .option("--max-chars <n>", "characters of source, up to 24,000 (default: by the project's size, 12,000 to 24,000)")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (query: string[], opts) => {
    const { runExplore } = await import("./commands/read-commands.js");
    runExplore(query.join(" "), opts);
  });

program
  .command("files")
  .description("the indexed files, as a tree (default) or a list")
  .argument("[path]", "only files under this folder")
  .option("--list", "one path per line")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (under: string | undefined, opts) => {
    const { runFiles } = await import("./commands/read-commands.js");
    runFiles(under, opts);
  });

program
  .command("serve")
  .description("serve the index to AI agents: --mcp on stdin/stdout, --http as streamable HTTP at /mcp")
  .option("--mcp", "the MCP protocol over stdio (newline-delimited JSON-RPC)")
  .option("--http", "the MCP protocol over streamable HTTP, stateless, at http://127.0.0.1:8111/mcp")
  .option(
    "--http-addr <host:port>",
    "where --http listens (default 127.0.0.1:8111; off loopback needs CODEGRAPH_HTTP_TOKEN)",
  )
  .option("--detach", "with --http: run in the background; prints its pid, address and log file")
  .addOption(new Option("--http-log <file>", "set by --detach: the detached server's log file").hideHelp())
  .option("--no-watch", "bring the index up to date once, then stop watching the files")
  .addOption(pathOption())
  .action(async (opts: ServeCommand.ServeOptions) => {
    // A separate bundle, resolved at run time: the MCP SDK loads only for this command.
    const serveModule = "./commands/serve-command.js";
    const { runServe } = (await import(serveModule)) as typeof ServeCommand;
    await runServe(opts, version);
  });

const http = program.command("http").description("the detached HTTP servers started by serve --http --detach");
http
  .command("list")
  .description("running HTTP servers: address, pid, project, uptime")
  .addOption(jsonOption())
  .action(async (opts: { json?: boolean }) => {
    const { runHttpList } = await import("./commands/http-commands.js");
    runHttpList(opts);
  });
http
  .command("stop")
  .description("stop the HTTP server on <host:port> (it finishes its in-flight requests first)")
  .argument("<host:port>", "the server's address, as `codegraph http list` shows it")
  .addOption(jsonOption())
  .action(async (addr: string, opts: { json?: boolean }) => {
    const { runHttpStop } = await import("./commands/http-commands.js");
    await runHttpStop(addr, opts);
  });

program
  .command("prompt-hook")
  .description(
    "a Claude Code UserPromptSubmit hook: reads {prompt, cwd} JSON (or a raw prompt) on stdin and prints " +
      "the context it earns (explore's answer, a short hint, or nothing); always exits 0",
  )
  .argument("[prompt]", "the prompt as a raw string, instead of stdin")
  .addOption(pathOption())
  .allowUnknownOption()
  .allowExcessArguments()
  .action(async (prompt: string | undefined, opts: PromptHookCommand.PromptHookOptions) => {
    // A separate bundle (see bin.ts): the hook runs on every prompt, without the parsers or the MCP SDK.
    const hookModule = "./commands/prompt-hook-command.js";
    const { runPromptHook } = (await import(hookModule)) as typeof PromptHookCommand;
    await runPromptHook(prompt, opts);
  });

program
  .command("daemon", { hidden: true })
  .description("the project's shared daemon (started by serve --mcp)")
  .addOption(pathOption())
  .option("--host-pid <pid>", "the agent process whose life bounds the daemon's")
  .option("--no-watch", "one catch-up sync, then no watching")
  .action(async (opts: { path?: string; hostPid?: string; watch?: boolean }) => {
    const serveModule = "./commands/serve-command.js";
    const { runDaemonCommand } = (await import(serveModule)) as typeof ServeCommand;
    await runDaemonCommand(opts, version);
  });

program
  .command("check")
  .description("file-level import cycles (exits 0 either way: a cycle is an answer, not a failure)")
  .argument("[path]", "only cycles through files under this folder, or through this file")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (under: string | undefined, opts) => {
    const { runCheck } = await import("./commands/graph-commands.js");
    runCheck(under, opts);
  });

program
  .command("export")
  .description("the whole graph, every node and edge, as NetworkX node-link JSON")
  .option("--format <format>", "output format (json is the only one)", "json")
  .option("--pagerank", "add each node's PageRank over the use edges")
  .option("-o, --output <file>", "write to this file instead of stdout")
  .addOption(pathOption())
  .addOption(new Option("--json", "accepted as every command's is: the output is JSON already"))
  .action(async (opts) => {
    const { runExport } = await import("./commands/graph-commands.js");
    await runExport(opts);
  });

program
  .command("unlock")
  .description("clear a stale writer lock left by a crashed process")
  .option("--force", "remove it even if its process seems alive")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (opts) => {
    const { runUnlock } = await import("./commands/index-commands.js");
    runUnlock(opts);
  });

/** `--target`, whose default differs: install acts on the agents found here, the others where we are. */
const targetOption = (byDefault: string) =>
  new Option("-t, --target <ids>", `comma-separated agent ids (default: ${byDefault})`);
const DETECTED = "the agents detected on this machine";
const REGISTERED = "the agents where codegraph is registered";
const scopeOptions = (cmd: Command, byDefault: string) =>
  cmd
    .addOption(targetOption(byDefault))
    .addOption(new Option("-g, --global", "the agents' user-level config (the default)").conflicts("local"))
    .addOption(new Option("-l, --local", "the project's own config files, at the project root"))
    .option("-y, --yes", `act on ${byDefault} without asking`)
    .option("--dry-run", "print the changes, file by file, and write nothing")
    .addOption(pathOption())
    .addOption(jsonOption());

scopeOptions(
  program
    .command("install")
    .description("register codegraph's MCP server (and its instructions) with your coding agents")
    .option("--print-config <id>", "print the snippet for one agent, and write nothing")
    .option("--prompt-hook", "Claude Code: also run `codegraph prompt-hook` on every prompt")
    .option("--no-permissions", "Claude Code: do not allow codegraph's (read-only) tools without asking"),
  DETECTED,
).action(async (opts) => {
  const { runInstall } = await loadInstallCommands();
  await runInstall(opts);
});

scopeOptions(
  program.command("uninstall").description("remove what `codegraph install` wrote: our entries, blocks and skill file"),
  REGISTERED,
).action(async (opts) => {
  const { runUninstall } = await loadInstallCommands();
  await runUninstall(opts);
});

program
  .command("skill")
  .description("the instruction blocks and skill file codegraph keeps in agents' files")
  .command("update")
  .description("refresh codegraph's instruction blocks and .agents/skills/codegraph/SKILL.md where they are installed")
  .addOption(targetOption("the agents where codegraph's instructions are installed"))
  .option("--dry-run", "print the changes and write nothing")
  .addOption(pathOption())
  .addOption(jsonOption())
  .action(async (opts) => {
    const { runSkillUpdate } = await loadInstallCommands();
    runSkillUpdate(opts);
  });

program.parseAsync(process.argv).catch((e: unknown) => fail(e, process.argv.includes("--json")));
