import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../core/process-alive.js";
import { readRegularFile } from "../core/regular-file.js";

/** One running `codegraph serve --http`. */
export interface HttpServerEntry {
  /** `host:port` as bound. */
  addr: string;
  pid: number;
  /** The `--path` project, or null when the server answers any explicitly named project. */
  project: string | null;
  /** ISO time the server started listening. */
  startedAt: string;
  /** The detached server's log file, or null for a server in a terminal. */
  log: string | null;
}

/** Per-user state of codegraph outside any project: the HTTP registry and detached servers' logs. */
export function userStateDir(): string {
  return join(homedir(), ".codegraph");
}

export function registryPath(): string {
  return join(userStateDir(), "http-servers.json");
}

/** The log file of a detached server on this address. */
export function httpLogPath(addr: string): string {
  return join(userStateDir(), `http-${addr.replace(/[^0-9A-Za-z.-]+/g, "_")}.log`);
}

/**
 * True when `pid` runs `codegraph serve --http` (read from /proc). Where /proc is missing the
 * registry is trusted; a pid reused by some other program is then the user's risk, as with any pid file.
 */
export function isCodegraphHttpServer(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" && !isProcMounted() ? processAlive(pid) : false;
  }
  const args = cmdline.split("\0");
  return args.includes("serve") && args.includes("--http") && args.some((a) => /codegraph|main\.js/.test(a));
}

function isProcMounted(): boolean {
  try {
    readFileSync("/proc/self/cmdline");
    return true;
  } catch {
    return false;
  }
}

function readRaw(): HttpServerEntry[] {
  try {
    const parsed = JSON.parse(readRegularFile(registryPath()) ?? "[]") as unknown;
    return Array.isArray(parsed) ? (parsed as HttpServerEntry[]).filter((e) => typeof e?.pid === "number") : [];
  } catch {
    return [];
  }
}

function write(entries: HttpServerEntry[]): void {
  mkdirSync(userStateDir(), { recursive: true });
  // Write then rename: a reader never sees half a file.
  const tmp = `${registryPath()}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(entries, null, 2)}\n`);
  renameSync(tmp, registryPath());
}

/** The running servers; entries whose process is gone are pruned from the file as a side effect. */
export function listHttpServers(): HttpServerEntry[] {
  const all = readRaw();
  const live = all.filter((e) => processAlive(e.pid) && isCodegraphHttpServer(e.pid));
  if (live.length !== all.length) {
    try {
      write(live);
    } catch {
      // A read-only home still lists correctly.
    }
  }
  return live;
}

export function registerHttpServer(entry: HttpServerEntry): void {
  write([...listHttpServers().filter((e) => e.pid !== entry.pid && e.addr !== entry.addr), entry]);
}

export function unregisterHttpServer(pid: number): void {
  const all = readRaw();
  const rest = all.filter((e) => e.pid !== pid);
  if (rest.length !== all.length) write(rest);
}
