import { isCodegraphError } from "../core/errors.js";
import type { SyncHealth } from "../core/sync-health.js";
import type { IndexSummary } from "../indexer/progress.js";

/**
 * How long one batch of changes may wait for another process's writer lock before auto-sync reports
 * RECOVERING. A sync or `init` of a mid-sized project by hand finishes well within it; a long foreground
 * `init --force` of a large one does not, and that is what agents must be warned about.
 */
export const LOCK_BUDGET_MS = 10_000;
/** Consecutive failures (other than a held lock or an invalid config) after which auto-sync is DISABLED. */
export const MAX_FAILURES = 5;
/** The longest wait between retries of a failing sync. */
const MAX_BACKOFF_MS = 30_000;

export interface SyncLoopOptions {
  debounceMs: number;
  /** Quiet time is not waited for beyond this since the first unsynced event (a never-ending stream of saves). */
  maxWaitMs: number;
  lockBudgetMs: number;
  recoverIntervalMs: number;
  /** One whole-tree sync under the current scope. */
  sync: () => Promise<IndexSummary>;
  onSynced: (summary: IndexSummary) => void;
  onError: (e: Error) => void;
  log: (line: string) => void;
  /** Called once when the loop disables itself after persistent failures. */
  onDisable: (reason: string) => void;
  /**
   * Called on every change notice and every health set: what a reader last learned from `flush()`
   * and `health()` may no longer hold.
   */
  onChange?: () => void;
}

/**
 * Turns change notices into syncs: debounced, never two at once, a notice during a sync makes one more
 * after it. It owns the health: a held writer lock is retried within the budget and then reported as
 * RECOVERING (retried every recover interval until a sync commits); other failures back off and, after
 * MAX_FAILURES in a row, disable the loop.
 */
export class SyncLoop {
  private current: SyncHealth = { state: "ok" };
  /** Changes no started sync has covered yet. */
  private dirty = false;
  private dirtySince = 0;
  private running: Promise<void> | null = null;
  /** The debounce fired (or a flush asked) while a sync ran: run again as soon as it ends. */
  private again = false;
  private debounceTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private lockedSince: number | null = null;
  private lockRetries = 0;
  private failures = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly o: SyncLoopOptions) {}

  health(): SyncHealth {
    return this.current;
  }

  private get state(): SyncHealth {
    return this.current;
  }

  private set state(next: SyncHealth) {
    this.current = next;
    this.o.onChange?.();
  }

  /**
   * Something in scope changed. While RECOVERING only `urgent` notices (control files) start a sync
   * before the next scheduled retry; the others are collected for it.
   */
  notify(urgent = false): void {
    if (this.closed || this.state.state === "disabled") return;
    this.o.onChange?.();
    if (!this.dirty) this.dirtySince = Date.now();
    this.dirty = true;
    if (this.state.state === "recovering" && !urgent) return;
    if (this.retryTimer && !urgent) return; // a retry is due; it covers these changes too
    this.arm();
  }

  /**
   * Resolves once no sync is running or due, or auto-sync is not healthy, or the last sync failed
   * (waiting would not help).
   */
  flush(): Promise<void> {
    if (this.debounceTimer) {
      this.clearDebounce();
      this.fire();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.settle();
    });
  }

  /** Stop for good, with `reason` as the DISABLED health. */
  disable(reason: string): void {
    if (this.closed || this.state.state === "disabled") return;
    this.state = { state: "disabled", reason };
    this.clearDebounce();
    this.clearRetry();
    this.o.onError(new Error(`auto-sync disabled: ${reason}`));
    this.o.onDisable(reason);
    this.settle();
  }

  /** No more syncs; resolves when the running one (if any) has ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearDebounce();
    this.clearRetry();
    if (this.running) await this.running;
    this.settle();
  }

  private arm(): void {
    this.clearDebounce();
    const wait = Math.max(0, Math.min(this.o.debounceMs, this.dirtySince + this.o.maxWaitMs - Date.now()));
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      this.fire();
    }, wait);
  }

  private fire(): void {
    if (this.running) this.again = true;
    else this.running = this.run();
  }

  private async run(): Promise<void> {
    this.clearRetry();
    this.dirty = false;
    this.again = false;
    try {
      const summary = await this.o.sync();
      this.succeeded(summary);
    } catch (e) {
      this.failed(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.running = null;
    }
    if (this.closed || this.state.state === "disabled") return this.settle();
    if (this.again && !this.retryTimer) this.running = this.run();
    else this.settle();
  }

  private succeeded(summary: IndexSummary): void {
    if (this.state.state === "recovering") this.o.log("auto-sync recovered: a full reconcile committed");
    this.state = { state: "ok" };
    this.failures = 0;
    this.lockedSince = null;
    this.lockRetries = 0;
    this.o.log(
      `synced: ${summary.added} added, ${summary.modified} modified, ${summary.removed} removed ` +
        `(${summary.files} files, ${summary.durationMs} ms)` +
        (summary.rebuilt ? `; rebuilt from scratch: ${summary.rebuilt}` : ""),
    );
    try {
      this.o.onSynced(summary);
    } catch (e) {
      this.o.onError(e as Error);
    }
  }

  private failed(e: Error): void {
    if (this.state.state === "disabled") return; // the sync failed because the watch was lost: reported
    if (!this.dirty) this.dirtySince = Date.now();
    this.dirty = true; // what this sync was to cover is still unsynced
    if (isCodegraphError(e) && e.code === "LOCKED") return this.locked(e);
    if (isCodegraphError(e) && e.code === "BAD_CONFIG") {
      // No valid scope to sync with: wait for the config to be fixed (an urgent notice) or the next retry.
      this.recover(e.message);
      return;
    }
    this.failures++;
    this.o.onError(e);
    if (this.failures >= MAX_FAILURES) {
      this.disable(`${this.failures} syncs in a row failed; the last: ${e.message}`);
      return;
    }
    const delay = Math.min(Math.max(this.o.debounceMs, 250) * 2 ** (this.failures - 1), MAX_BACKOFF_MS);
    this.o.log(`sync failed (${this.failures}/${MAX_FAILURES}), retrying in ${delay} ms: ${e.message}`);
    this.retry(delay);
  }

  private locked(e: Error): void {
    const now = Date.now();
    this.lockedSince ??= now;
    const waited = now - this.lockedSince;
    if (this.state.state === "recovering" || waited >= this.o.lockBudgetMs) {
      const pid = /\(pid (\d+)\)/.exec(e.message)?.[1];
      this.recover(
        `another process${pid ? ` (pid ${pid})` : ""} has held the index's writer lock for over ` +
          `${Math.round(this.o.lockBudgetMs / 1000)} s`,
        this.lockedSince,
      );
      return;
    }
    // Back off 250 ms, 500 ms, 1 s, then every 2 s, never past the end of the budget.
    const delay = Math.min(250 * 2 ** this.lockRetries++, 2000, this.o.lockBudgetMs - waited);
    this.o.log(`index locked by another process; retrying in ${delay} ms`);
    this.retry(Math.max(delay, 0));
  }

  private recover(reason: string, since = Date.now()): void {
    if (this.state.state !== "recovering") {
      this.state = { state: "recovering", since: new Date(since).toISOString(), reason };
      this.o.onError(new Error(`auto-sync is RECOVERING: ${reason}`));
    } else if (this.state.reason !== reason) {
      this.state = { ...this.state, reason };
    }
    this.o.log(`retrying a full reconcile in ${this.o.recoverIntervalMs} ms`);
    this.retry(this.o.recoverIntervalMs);
  }

  private retry(delay: number): void {
    this.clearRetry();
    // The retry covers every pending change.
    this.clearDebounce();
    this.again = false;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.fire();
    }, delay);
  }

  private clearDebounce(): void {
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private settle(): void {
    // A flush is awaited: a change noticed since it was asked (an edit's event arriving while the
    // flush's sync ran) is synced now rather than after its debounce, which kept a reader waiting
    // for as long as the debounce (ten minutes, if so configured).
    if (this.waiters.length && this.debounceTimer && !this.running && !this.closed) {
      this.clearDebounce();
      this.fire();
    }
    const busy = this.running !== null || this.debounceTimer !== null || this.again;
    // After a failure the next try is seconds away (backoff): a caller gets the index as it is, whose
    // freshness checks name the files changed since, rather than waiting through the retries.
    const waiting = this.dirty && this.state.state === "ok" && this.failures === 0 && !this.closed;
    if (busy || waiting) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
