import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Module } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";
import { privateTempDir } from "../core/private-temp-dir.js";
import { BEFORE_V8_FLAG } from "../core/v8-flag-hook.js";

/**
 * V8's compiled code for our bundles, kept between runs. Every command compiled the program's bundle
 * (700 KB), and an index or a sync the parser's (500 KB), afresh: Node 20 keeps no compiled code
 * (Node 22 and later do, for the files they load themselves). With this, `--version` takes 50 ms
 * on Node 20 where it took 70 (CommonJS without the cache) and 92 (ES modules); `node -e 0`, 40.
 *
 * The bundles in `bundleDir` are compiled through `vm.Script` with the code V8 serialised on an
 * earlier run, and a bundle compiled without one (none yet, or one V8 refused) has its code
 * serialised at exit. V8 takes cached code only under the V8 flags it was made with, and indexing
 * sets some while it runs (`setV8Flag`): so whatever was compiled is written out before each change,
 * and the flags set so far are part of a cache file's name, as is what identifies the bundle's file
 * (see `cacheKey`; V8 itself checks only the text's length). Files are written whole and renamed into place, so a concurrent
 * run never reads half of one. The folder is the user's own under the system's temporary folder;
 * if it is anyone else's, or others may write to it, nothing is cached. NODE_DISABLE_COMPILE_CACHE=1
 * turns this off, as it does Node's own cache.
 *
 * Each command has files of its own (`program.search-….v8`): V8 serialises the functions compiled
 * by the time a file is written, and a file is written once, so one made by a command left every
 * other command compiling its own functions afresh on each start. `search` on Django: 120 ms with the
 * program's file made by `--version`, 103.5 ms with the one made by `search` (interleaved medians).
 */
export function installCompileCache(bundleDir: string, command: string | undefined): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  // Cached code runs as ours: a folder another user owns or may write to could hand us theirs.
  const dir = privateTempDir("codegraph-v8-cache");
  if (!dir) return;
  type Compile = (this: Module, content: string, filename: string, ...rest: unknown[]) => unknown;
  const proto = Module.prototype as unknown as { _compile: Compile };
  const compile = proto._compile;
  const flags = new Map<string, string>();
  const variant = command && new RegExp(`^${COMMAND}$`).test(command) ? `.${command}` : "";
  // Its own switch, not CODEGRAPH_DEBUG: the prompt hook promises one line of debug output.
  const debug = Boolean(process.env.CODEGRAPH_DEBUG_COMPILE_CACHE);
  const unwritten: { script: Script; file: string; name: string }[] = [];
  const writeAll = () => {
    for (const u of unwritten.splice(0)) write(dir, u.file, u.name, u.script);
  };

  proto._compile = function (content, filename, ...rest) {
    // Node 22 and later pass the format: a file it reads as an ES module is left to it.
    const commonJs = rest[0] === undefined || rest[0] === "commonjs";
    if (!commonJs || !filename.startsWith(bundleDir + sep) || !filename.endsWith(".js")) {
      return compile.call(this, content, filename, ...rest);
    }
    const name = basename(filename, ".js");
    const file = join(dir, `${name}${variant}-${cacheKey(filename, content, flags)}.v8`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    // A `#!` line is valid only at the very start of a script, and the wrapper comes first.
    const source = content.startsWith("#!") ? `//${content.slice(2)}` : content;
    const script = new Script(Module.wrap(source), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) unwritten.push({ script, file, name });
    if (debug) {
      const state = !cachedData ? "none" : script.cachedDataRejected ? "refused" : "used";
      process.stderr.write(`[codegraph] compile cache: ${name} ${state}\n`);
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };

  (globalThis as Record<symbol, unknown>)[BEFORE_V8_FLAG] = (flag: string) => {
    const at = flag.indexOf("=");
    const [name, value] = at < 0 ? [flag, ""] : [flag.slice(0, at), flag.slice(at + 1)];
    if (flags.get(name) === value) return;
    writeAll();
    flags.set(name, value);
  };
  process.once("exit", writeAll);
  // A server stopped by a signal (an MCP client's SIGTERM to `serve`) runs no exit handler: a process
  // still running after a few seconds writes what it has compiled by then.
  setTimeout(writeAll, WRITE_AFTER_MS).unref();
}

/** A command's name as a cache file carries it: anything else (an option, a path) names none. */
const COMMAND = "[a-z][a-z-]{0,31}";

/** How long a process runs before its compiled code is written without waiting for its exit. */
const WRITE_AFTER_MS = 5000;

/**
 * What cached code for this file must have been made under: the file as it is, Node, the platform and
 * V8's flags. V8 itself checks only the text's length. The file is known by its size, times, inode and
 * device (any write moves its change time, which no one can set) and 16 samples of its text, not by a
 * hash of all of it: hashing 700 KB needs node:crypto, which took 6 ms to load on every start.
 */
function cacheKey(filename: string, content: string, flags: ReadonlyMap<string, string>): string {
  const st = statSync(filename, { bigint: true });
  const parts: (string | number | bigint)[] = [content.length, st.size, st.mtimeNs, st.ctimeNs, st.ino, st.dev];
  const step = Math.floor(content.length / 16);
  for (let i = 0; i < 16; i++) parts.push(content.slice(i * step, i * step + 16));
  parts.push(process.version, process.arch, process.execArgv.join(" "), process.env.NODE_OPTIONS ?? "");
  parts.push([...flags].sort().join(" "));
  const text = parts.join("\0");
  return fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x050c5d1f);
}

/** FNV-1a over UTF-16 code units, from `seed`, as 8 hex digits. */
function fnv1a(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Write a bundle's cached code, and remove that bundle's files left by other versions or flags that
 * no run has written for a day (a rebuilt or upgraded bundle leaves its old ones behind). A cache that
 * cannot be written is only slower: errors are ignored.
 */
function write(dir: string, file: string, name: string, script: Script): void {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, file);
    const now = Date.now();
    // This bundle's files for any command, so that a command run once (a typo too) leaves nothing for
    // good, and those from before files were per command (20 digits: older still, keyed by a hash of
    // the whole text). A file still in use but unwritten for a day is only written again.
    const ours = new RegExp(`^${name}(\\.${COMMAND})?-([0-9a-f]{16}|[0-9a-f]{20})\\.v8(\\.\\d+\\.tmp)?$`);
    for (const other of readdirSync(dir)) {
      if (!ours.test(other) || join(dir, other) === file) continue;
      const path = join(dir, other);
      if (now - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true });
    }
  } catch {
    // Best effort (a full disk, a folder removed under us): the next run compiles afresh.
  }
}
