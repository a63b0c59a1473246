/**
 * Every CODEGRAPH_* environment knob, read in this one place so they are easy to find and document.
 */
export interface Env {
  /** Verbose diagnostics on stderr. */
  debug: boolean;
  /**
   * Threads (CODEGRAPH_WORKERS): an index's parsers, the main thread among them up to 32 MiB of
   * source (so 1 parses there alone), and a server's readers; default one per core (at most four
   * readers).
   */
  workers: number | null;
  /** Short names of the MCP tools `tools/list` shows (CODEGRAPH_MCP_TOOLS, comma-separated), or null for the default four. */
  mcpTools: string[] | null;
  /** CODEGRAPH_NO_DAEMON=1: serve in the foreground, which then owns the project's writer lock. */
  noDaemon: boolean;
  /** How long a daemon with no clients waits before it exits (CODEGRAPH_DAEMON_IDLE_TIMEOUT_MS). */
  daemonIdleTimeoutMs: number;
  /**
   * How often a daemon checks that its hosts (the agents that started `serve --mcp`) are alive, and
   * that its `.codegraph/` folder and socket are still the ones it started with (CODEGRAPH_HOST_CHECK_MS).
   */
  hostCheckMs: number;
  /** Quiet time after the last file event before the watcher syncs (CODEGRAPH_WATCH_DEBOUNCE_MS, 2000). */
  watchDebounceMs: number;
  /** CODEGRAPH_FORCE_WATCH=1: watch even where it is off by default (WSL2 /mnt/ drives). */
  forceWatch: boolean;
  /** While auto-sync is RECOVERING, how often a full reconcile is retried (CODEGRAPH_RECOVER_INTERVAL_MS, 30000). */
  recoverIntervalMs: number;
  /**
   * CODEGRAPH_HTTP_TOKEN: the bearer token `serve --http` requires on every request when set. Binding
   * a non-loopback address is refused without one.
   */
  httpToken: string | null;
  /**
   * How long `serve --http` gives a request to arrive whole, headers and body, before it answers 408
   * and closes the connection (CODEGRAPH_HTTP_REQUEST_TIMEOUT_MS, 30000; 0 is taken as the default,
   * as it would turn Node's header timeout off too).
   */
  httpRequestTimeoutMs: number;
  /**
   * The prompt hook runs: false with CODEGRAPH_NO_PROMPT_HOOK=1 or CODEGRAPH_PROMPT_HOOK=0, which turn
   * it off without editing the agent's hook config.
   */
  promptHook: boolean;
}

/** A whole number of milliseconds from the environment, or the default when unset or not one. */
function millis(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const workers = Number.parseInt(env.CODEGRAPH_WORKERS ?? "", 10);
  return {
    debug: env.CODEGRAPH_DEBUG === "1" || env.CODEGRAPH_DEBUG === "true",
    workers: Number.isFinite(workers) && workers > 0 ? workers : null,
    mcpTools: env.CODEGRAPH_MCP_TOOLS?.trim()
      ? env.CODEGRAPH_MCP_TOOLS.split(",")
          .map((t) => t.trim().replace(/^codegraph_/i, ""))
          .filter(Boolean)
      : null,
    noDaemon: env.CODEGRAPH_NO_DAEMON === "1" || env.CODEGRAPH_NO_DAEMON === "true",
    daemonIdleTimeoutMs: millis(env.CODEGRAPH_DAEMON_IDLE_TIMEOUT_MS, 300_000),
    hostCheckMs: millis(env.CODEGRAPH_HOST_CHECK_MS, 2_000),
    watchDebounceMs: millis(env.CODEGRAPH_WATCH_DEBOUNCE_MS, 2_000),
    forceWatch: env.CODEGRAPH_FORCE_WATCH === "1" || env.CODEGRAPH_FORCE_WATCH === "true",
    recoverIntervalMs: millis(env.CODEGRAPH_RECOVER_INTERVAL_MS, 30_000),
    httpToken: env.CODEGRAPH_HTTP_TOKEN?.trim() ? env.CODEGRAPH_HTTP_TOKEN.trim() : null,
    httpRequestTimeoutMs: millis(env.CODEGRAPH_HTTP_REQUEST_TIMEOUT_MS, 0) || 30_000,
    promptHook: !(
      ["1", "true"].includes(env.CODEGRAPH_NO_PROMPT_HOOK ?? "") ||
      ["0", "false"].includes(env.CODEGRAPH_PROMPT_HOOK ?? "")
    ),
  };
}
