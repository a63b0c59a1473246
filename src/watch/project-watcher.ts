import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import parcel, { type AsyncSubscription, type Event } from "@parcel/watcher";
import { readEnv } from "../config/env.js";
import { INDEX_DIR } from "../config/paths.js";
import { DAMAGE_MARK } from "../core/damaged-index.js";
import { CodegraphError } from "../core/errors.js";
import type { SyncHealth } from "../core/sync-health.js";
import type { IndexSummary } from "../indexer/progress.js";
import { indexesLanguageOf } from "../indexer/scope.js";
import { syncIndex } from "../indexer/sync.js";
import { isControlFile, isGitignore } from "./control-files.js";
import { LiveScope } from "./live-scope.js";
import { ignoresKey, osIgnores } from "./os-ignores.js";
import { LOCK_BUDGET_MS, SyncLoop } from "./sync-loop.js";
import { watchDisabledReason } from "./wsl.js";

export interface WatchOptions {
  /** Quiet time after the last event before syncing; default CODEGRAPH_WATCH_DEBOUNCE_MS, else 2000. */
  debounceMs?: number;
  /** After each sync that committed. */
  onSynced?: (summary: IndexSummary) => void;
  /** Something changed since the last `flush()` or `health()` answer (see `SyncLoopOptions.onChange`). */
  onChange?: () => void;
  /** Failures, config errors and health changes; the caller may log them. */
  onError?: (e: Error) => void;
  /** Progress lines for a log (syncs done, retries, scope reloads). */
  log?: (line: string) => void;
  /**
   * Sync at once, while the OS watch starts (`flush()` waits for it), and return without waiting for
   * the watch: a daemon's first answer needs the catch-up, not the watch. No edit is missed meanwhile:
   * until the watch is up each `flush()` syncs afresh, and a sync follows it. Default false: return
   * once the watch is up.
   */
  initialSync?: boolean;
  /** How long a batch waits for another process's writer lock before RECOVERING; default 10 s. */
  lockBudgetMs?: number;
  /** While RECOVERING, the full-reconcile retry interval; default CODEGRAPH_RECOVER_INTERVAL_MS, else 30000. */
  recoverIntervalMs?: number;
}

export interface ProjectWatcher {
  /** The current auto-sync health, for banners and `codegraph_status`. */
  health(): SyncHealth;
  /**
   * Resolves when the changes seen so far are synced: a pending debounce runs now. While RECOVERING or
   * DISABLED it resolves once no sync is running (waiting for the next retry would not help).
   */
  flush(): Promise<void>;
  /**
   * Resolves once the catch-up sync asked for with `initialSync` has run (at once without one). Unlike
   * `flush()` before the watch is up, waiting on it starts no sync of its own.
   */
  caughtUp(): Promise<void>;
  /**
   * Whether the OS watch is up, so that an answer after `flush()` holds until the next change notice
   * (`onChange`). Before it is, each `flush()` syncs afresh.
   */
  live(): boolean;
  /** Unsubscribe, wait for a running sync, and leave no timer behind. */
  close(): Promise<void>;
}

/**
 * Watch `root` (an indexed project) and keep its index in sync: events in scope are debounced into one
 * incremental `syncIndex`, which walks the whole tree, so a lost or coalesced event (inotify overflow,
 * a folder moved in whole) costs nothing as long as one event arrives. Never throws for a watch that
 * cannot start: the watcher then reports DISABLED with the reason.
 */
/**
 * On Linux, inotify, named: left to choose, @parcel/watcher first runs `sh -c "watchman …"` to look
 * for watchman, and never reaps that shell, so every daemon kept a zombie child (one more at each
 * re-watch). Watchman on Linux watches through inotify too. Elsewhere the package's own choice.
 */
const BACKEND = process.platform === "linux" ? ("inotify" as const) : undefined;

/** The damage mark's project-relative path, as events name it. */
const DAMAGE_MARK_REL = `${INDEX_DIR}/${DAMAGE_MARK}`;

export async function watchProject(root: string, options: WatchOptions = {}): Promise<ProjectWatcher> {
  const abs = resolve(root);
  const env = readEnv();
  const log = (line: string) => options.log?.(`auto-sync: ${line}`);
  const onError = (e: Error) => options.onError?.(e);
  const onSynced = (s: IndexSummary) => options.onSynced?.(s);

  const off = watchDisabledReason(abs);
  if (off) {
    log(`off: ${off}`);
    return inertWatcher({ state: "disabled", reason: off }, abs, options.initialSync ?? false, onSynced, onError);
  }

  const live = new LiveScope(abs, onError);
  live.refresh(true);
  /** A control file or a .gitignore changed: re-read the scope before the next sync. */
  let scopeStale = false;
  let subscription: AsyncSubscription | null = null;
  let watchedWith = "";
  let stopped = false;
  /** Whether the OS watch is up (see `started` below). */
  let watching = false;
  /** Whether a sync ran before it was: one more must follow it then. */
  let syncedUnwatched = false;

  /**
   * A folder holding folders came in (renamed or moved in, `mkdir -p`, an unpacked archive): the OS watch
   * covers the folder alone. inotify watches follow inodes, so a renamed folder's subfolders keep watches
   * named by their old paths, and folders made before their parent's watch have none. The next sync
   * renews the watch.
   */
  let treeStale = false;

  let watchChange: Promise<void> = Promise.resolve();
  /**
   * Subscribe with the ignores of the current scope, replacing the running watch if they changed or
   * `renew` is set. One at a time: the first subscribe may still be walking the tree when a sync reloads
   * the scope.
   */
  const rewatch = (renew = false): Promise<void> =>
    (watchChange = watchChange.catch(() => {}).then(() => subscribeNow(renew)));
  const subscribeNow = async (renew: boolean): Promise<void> => {
    const ignore = osIgnores(live.scope);
    const key = ignoresKey(ignore);
    if (subscription && key === watchedWith && !renew) return;
    // The old watch goes first: the library keeps one list of watched folders per root, shared by its
    // watches, so a new one made beside the old would reuse that list (read under the old ignores, and
    // blind to the folders that came in since), and with the same ignores it would be the old one.
    // Events between the two are lost: each renewal runs in a sync, before its walk of the tree.
    const previous = subscription;
    if (previous) {
      subscription = null;
      await previous.unsubscribe();
      log(key === watchedWith ? "a folder tree came in: watch renewed" : "scope changed: watch renewed");
    }
    const next = await parcel.subscribe(abs, onEvents, { ignore, backend: BACKEND });
    if (stopped) return void (await next.unsubscribe());
    subscription = next;
    watchedWith = key;
  };

  const stop = async (): Promise<void> => {
    stopped = true;
    const s = subscription;
    subscription = null;
    await s?.unsubscribe().catch((e: Error) => onError(e));
  };

  const loop = new SyncLoop({
    debounceMs: options.debounceMs ?? env.watchDebounceMs,
    maxWaitMs: Math.max((options.debounceMs ?? env.watchDebounceMs) * 10, 10_000),
    lockBudgetMs: options.lockBudgetMs ?? LOCK_BUDGET_MS,
    recoverIntervalMs: options.recoverIntervalMs ?? env.recoverIntervalMs,
    onSynced,
    onError,
    onChange: options.onChange,
    log,
    onDisable: () => void stop(),
    sync: async () => {
      if (!watching) syncedUnwatched = true;
      // Every sync re-reads the config, so an event the watch missed cannot leave an old scope running.
      const reread = live.refresh(scopeStale);
      const renew = treeStale;
      scopeStale = treeStale = false;
      if (reread) log("scope reloaded");
      if (reread || renew) {
        try {
          await rewatch(renew);
        } catch (e) {
          loop.disable(watchFailure(e as Error));
          throw e;
        }
      }
      if (!live.config) {
        throw new CodegraphError("BAD_CONFIG", live.error?.message ?? "The project's configuration does not load.");
      }
      return syncIndex(abs, undefined, { config: live.config });
    },
  });

  const prefixes = [abs.endsWith(sep) ? abs : abs + sep];
  try {
    const real = realpathSync(abs);
    if (real !== abs) prefixes.push(real + sep); // macOS reports /private/var for /var
  } catch {
    // the project is gone; the first sync will say so
  }
  const relOf = (path: string): string | null => {
    const prefix = prefixes.find((p) => path.startsWith(p));
    return prefix ? path.slice(prefix.length).split(sep).join("/") : null;
  };

  /** What one event means: a control file, a scope change, an index change, or nothing. */
  const judge = (rel: string, type: Event["type"]): "control" | "scope" | "change" | null => {
    if (isControlFile(rel)) return "control";
    // A reader found the index damaged: the sync this brings rebuilds it (and removes the mark).
    if (rel === DAMAGE_MARK_REL) return type === "delete" ? null : "change";
    if (rel === ".codegraph" || rel.startsWith(".codegraph/")) return null;
    const paths = live.scope?.paths;
    if (!paths) return "change"; // no valid scope yet: any event may matter once there is one
    if (isGitignore(rel)) {
      paths.forgetGitignores();
      return paths.classify(rel) === "outside" ? null : "scope";
    }
    const kind = paths.classify(rel);
    if (kind === "source" || kind === "manifest") {
      for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) live.folders.add(rel.slice(0, i));
      return "change";
    }
    if (kind === "outside") return null;
    // Not a file we index: a folder that appeared (its files may predate our watch on it), or one that
    // went away with indexed files inside (it sends one event, for itself).
    if (type === "delete") return live.folders.delete(rel) ? "change" : null;
    if (indexesLanguageOf(rel)) return null; // a file name the scope rejects, not a folder worth a stat
    try {
      if (lstatSync(`${abs}/${rel}`).isDirectory() && paths.entersFolder(rel)) {
        live.folders.add(rel);
        if (type === "create" && holdsEnteredFolder(rel)) treeStale = true;
        return "change";
      }
    } catch {
      // gone already: a later event tells
    }
    return null;
  };

  const holdsEnteredFolder = (rel: string): boolean =>
    readdirSync(`${abs}/${rel}`, { withFileTypes: true }).some(
      (d) => d.isDirectory() && live.scope?.paths.entersFolder(`${rel}/${d.name}`) !== false,
    );

  // @parcel/watcher turns an exception thrown here into a fatal one: nothing may escape.
  function onEvents(err: Error | null, events: Event[]): void {
    try {
      judgeAll(err, events);
    } catch (e) {
      onError(e as Error);
      loop.notify(); // the whole-tree sync settles whatever the event meant
    }
  }

  function judgeAll(err: Error | null, events: Event[]): void {
    if (stopped) return;
    if (err) {
      loop.disable(watchFailure(err));
      return;
    }
    let change = false;
    let urgent = false;
    for (const e of events) {
      const rel = relOf(e.path);
      if (!rel) continue;
      const verdict = judge(rel, e.type);
      if (verdict === "control") {
        if (rel === ".gitignore") live.scope?.paths.forgetGitignores();
        scopeStale = urgent = change = true;
      } else if (verdict === "scope") {
        scopeStale = change = true;
      } else if (verdict === "change") {
        change = true;
      }
    }
    if (change) loop.notify(urgent);
  }

  // The OS watch starts on its own thread, a walk of the tree (about 170 ms on Django), and the
  // catch-up sync runs meanwhile. Until the watch is up, a save may fall between a sync's read of a
  // file and the watch: so each flush syncs afresh until then, and one more sync follows it.
  const started = rewatch().then(
    () => {
      if (stopped) return;
      watching = true;
      log(`watching ${abs}`);
      if (syncedUnwatched) loop.notify(true);
    },
    (e: Error) => {
      const reason = watchFailure(e);
      log(`off: ${reason}`);
      loop.disable(reason);
    },
  );
  if (options.initialSync || !live.config) loop.notify(true);
  const caughtUp = options.initialSync ? loop.flush() : Promise.resolve();
  // Without a catch-up, what the caller learns of happens after the watch is up, as it always did.
  if (!options.initialSync) await started;

  return {
    health: () => loop.health(),
    flush: () => {
      if (!watching) loop.notify(true);
      return loop.flush();
    },
    caughtUp: () => caughtUp,
    live: () => watching && loop.health().state !== "disabled",
    close: async () => {
      await started;
      await stop();
      await loop.close();
    },
  };
}

/** The DISABLED reason for a watch that failed, with the limit to raise when resources ran out. */
function watchFailure(e: Error): string {
  const msg = e.message;
  if (/ENOSPC|No space left/i.test(msg)) {
    return `the OS file watch failed (${msg}): the inotify watch limit is exhausted; raise fs.inotify.max_user_watches`;
  }
  if (/EMFILE|Too many open files/i.test(msg)) {
    return `the OS file watch failed (${msg}): too many inotify instances or open files; raise fs.inotify.max_user_instances or ulimit -n`;
  }
  return `the OS file watch failed (${msg})`;
}

/** A watcher that does not watch: its health is fixed, and it runs the asked-for catch-up once. */
function inertWatcher(
  health: SyncHealth,
  root: string,
  initialSync: boolean,
  onSynced: (s: IndexSummary) => void,
  onError: (e: Error) => void,
): ProjectWatcher {
  const catchUp = initialSync ? syncIndex(root).then(onSynced, onError) : Promise.resolve();
  return {
    health: () => health,
    flush: () => catchUp,
    caughtUp: () => catchUp,
    live: () => false,
    close: () => catchUp,
  };
}
