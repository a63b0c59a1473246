import { fstatSync, readSync } from "node:fs";
import { parseArgs } from "node:util";
import { readEnv } from "../../config/env.js";
import { dbPath } from "../../config/paths.js";
import { callDaemonTool } from "../../daemon/tool-call.js";
import { daemonLogger } from "../../daemon/log.js";
import { fullContext, foundNothing } from "../../hook/context.js";
import { decide } from "../../hook/gate.js";
import { renderHint } from "../../hook/hint.js";
import { parseHookInput, type HookInput } from "../../hook/input.js";
import { isTaskNotification } from "../../hook/notification.js";
import { findIndexedRoot } from "../../project/root.js";
import { exploreQuery } from "../../query/explore.js";
import { indexedNames } from "../../query/prompt-names.js";
import { renderExplore } from "../../render/explore.js";
import { openDatabase, type Db } from "../../store/database.js";
import { codegraphVersion } from "../../core/version.js";
import { writeOut } from "../output.js";

export interface PromptHookOptions {
  /** The project, when the host's payload names no folder that is inside one. */
  path?: string;
}

/**
 * How long the full tier waits for a running daemon's answer before answering in-process. A warm
 * daemon answers in tens of milliseconds; one that is syncing a save holds the call until it is
 * done, and past this the hook answers from the index as it is rather than hold the prompt up.
 */
const DAEMON_WAIT_MS = 800;

/** Payloads past this are not a typed prompt; reading stops and the input counts as malformed. */
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * Source characters asked of explore: its headers, relations and blast radius add 3-4 KB, so the
 * whole answer fits the 9,000-byte cap instead of losing its tail to the cut (Django: 94 of 109
 * full answers were cut at explore's default size).
 */
const PROMPT_SOURCE_CHARS = 5_000;

/** The longest prompt explore is given: a pasted log's tail adds cost, not precision. */
const MAX_QUERY_CHARS = 8000;

/**
 * `codegraph prompt-hook [prompt] [-p dir]` from its raw arguments, for the executable's fast path
 * (bin.ts), which skips commander. Unknown options are ignored: a hook never fails on its command line.
 */
export async function runPromptHookArgs(argv: string[]): Promise<void> {
  let prompt: string | undefined;
  let path: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { path: { type: "string", short: "p" } },
      strict: false,
      allowPositionals: true,
    });
    prompt = positionals[0];
    path = typeof values.path === "string" ? values.path : undefined;
  } catch {
    // malformed arguments: read stdin and resolve from the working directory
  }
  await runPromptHook(prompt, { path });
}

/**
 * `codegraph prompt-hook`: a Claude Code UserPromptSubmit hook. Reads the host's `{"prompt", "cwd"}`
 * payload from stdin (or a raw prompt, from stdin or the argument) and prints the context the
 * prompt earns: explore's answer, a short hint, or nothing. Whatever happens it exits 0, and nothing
 * but that context reaches stdout: the hook must never break or clutter a prompt. Faults go to the
 * project's daemon.log when there is a project, and are dropped otherwise.
 */
export async function runPromptHook(prompt: string | undefined, opts: PromptHookOptions): Promise<void> {
  process.exitCode = 0;
  const env = readEnv();
  const where: { root: string | null } = { root: null };
  let why: string;
  try {
    why = env.promptHook
      ? await respond(prompt, opts, where)
      : "off (CODEGRAPH_NO_PROMPT_HOOK or CODEGRAPH_PROMPT_HOOK)";
  } catch (e) {
    why = `silent: error ${(e as Error)?.message ?? String(e)}`;
    if (where.root) daemonLogger(where.root)(`prompt-hook: ${(e as Error)?.stack ?? String(e)}`);
  }
  // With CODEGRAPH_DEBUG, why the hook answered as it did goes to stderr (the eval reads it).
  if (env.debug) process.stderr.write(`codegraph prompt-hook: ${why}\n`);
  process.exitCode = 0;
}

/** Print what the prompt earns; returns why, in one line. `where.root` is set once the project is known. */
async function respond(
  prompt: string | undefined,
  opts: PromptHookOptions,
  where: { root: string | null },
): Promise<string> {
  let input: HookInput | null = null;
  if (prompt !== undefined) input = { prompt, cwd: null };
  else {
    const stdin = await readStdin();
    if (stdin !== null) input = parseHookInput(stdin);
  }
  if (!input) return "silent: malformed input";
  if (!input.prompt.trim()) return "silent: empty prompt";
  if (isTaskNotification(input.prompt)) return "silent: task notification";
  where.root = projectOf(input, opts);
  if (!where.root) return "silent: no index";
  const { text, why } = await answer(where.root, input.prompt);
  // A host that stops reading ends the hook quietly, exit code 0 (writeOut).
  if (text) writeOut(`${text}\n`);
  return why;
}

/** The indexed project: around the host's cwd, else `--path`, else the process's working directory. */
function projectOf(input: HookInput, opts: PromptHookOptions): string | null {
  for (const start of [input.cwd, opts.path, process.cwd()]) {
    if (!start) continue;
    const root = findIndexedRoot(start);
    if (root) return root;
  }
  return null;
}

/** The context a prompt earns (null: none), and why, in a line for CODEGRAPH_DEBUG. */
async function answer(root: string, prompt: string): Promise<{ text: string | null; why: string }> {
  let db: Db | null = null;
  // The index opens on first use: a keyword question answered by the daemon never needs it here.
  const index = () => (db ??= openDatabase(dbPath(root), { readonly: true }));
  try {
    const decision = decide(prompt, indexedNames(index));
    if (decision.tier === "silent") return { text: null, why: `silent: ${decision.reason}` };
    if (decision.tier === "hint") {
      return { text: renderHint(decision.symbols), why: `hint: ${decision.symbols.map((s) => s.name).join(", ")}` };
    }
    const reason =
      decision.reason === "keyword"
        ? `keyword "${decision.keyword.pattern}" (${decision.keyword.lang})`
        : `symbol ${decision.token}`;
    const query = prompt.slice(0, MAX_QUERY_CHARS);
    const viaDaemon = await callDaemonTool(
      root,
      "codegraph_explore",
      { query, maxChars: PROMPT_SOURCE_CHARS },
      { timeoutMs: DAEMON_WAIT_MS, clientVersion: codegraphVersion() },
    );
    if (!viaDaemon.ok && viaDaemon.why === "error") {
      daemonLogger(root)(`prompt-hook: the daemon's explore failed (${viaDaemon.detail}); answering in-process`);
    }
    const text = viaDaemon.ok
      ? viaDaemon.text
      : renderExplore(exploreQuery(index(), root, query, { maxChars: PROMPT_SOURCE_CHARS }));
    const source = viaDaemon.ok ? "daemon" : `in-process (daemon: ${viaDaemon.why})`;
    if (foundNothing(text)) return { text: null, why: `silent: explore found nothing for the ${reason}, ${source}` };
    return { text: fullContext(text), why: `full: ${reason}, ${source}` };
  } finally {
    (db as Db | null)?.close();
  }
}

/**
 * Everything on stdin (nothing when it is a terminal); null past MAX_INPUT_BYTES. Read through the
 * descriptor: `process.stdin` for a pipe, as hosts run a hook, loads node:net and builds a socket.
 * A descriptor set non-blocking with nothing in it yet (EAGAIN) is read on through the stream.
 */
async function readStdin(): Promise<string | null> {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return ""; // no stdin at all
  }
  if (stat.isCharacterDevice()) return ""; // a terminal, or /dev/null
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      return readStdinStream(chunks, size);
    }
    if (n === 0) break;
    size += n;
    if (size > MAX_INPUT_BYTES) return null;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The rest of stdin through `process.stdin`, after `chunks` (`size` bytes) read already. */
async function readStdinStream(chunks: Buffer[], size: number): Promise<string | null> {
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
