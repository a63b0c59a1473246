import { describe, expect, it } from "vitest";
import type { IndexSummary } from "../../src/indexer/progress.js";
import { SyncLoop } from "../../src/watch/sync-loop.js";

/** The loop with a sync of our choosing: a failing sync is a fault the real indexer rarely gives on demand. */
function loop(sync: () => Promise<IndexSummary>, debounceMs = 20, maxWaitMs = 1000) {
  const logs: string[] = [];
  const l = new SyncLoop({
    debounceMs,
    maxWaitMs,
    lockBudgetMs: 1000,
    recoverIntervalMs: 60_000,
    sync,
    onSynced: () => {},
    onError: (e) => logs.push(e.message),
    log: (line) => logs.push(line),
    onDisable: () => {},
  });
  return { l, logs };
}

describe("SyncLoop.flush", () => {
  it("does not hold a caller through the retries of a failing sync", async () => {
    let calls = 0;
    const { l, logs } = loop(async () => {
      calls++;
      throw new Error("worker missing");
    });
    l.notify();
    await l.flush();
    // Answered after the first failure; the retry (backoff) is still to come.
    expect(calls).toBe(1);
    expect(logs.some((line) => /retrying in/.test(line))).toBe(true);
    await l.close();
  });

  it("waits for a sync that is due, when syncs succeed", async () => {
    let calls = 0;
    const { l } = loop(async () => {
      calls++;
      return { added: 1, modified: 0, removed: 0, files: 1, durationMs: 1 } as IndexSummary;
    });
    l.notify();
    await l.flush();
    expect(calls).toBe(1);
    await l.close();
  });

  it("syncs a change noticed during its sync at once, not after the debounce", async () => {
    // A ten-minute debounce and wait, as a daemon may be configured: the flush must not wait them out.
    let calls = 0;
    const { l } = loop(
      async () => {
        calls++;
        // The change's file event arrives while the flush's sync runs.
        if (calls === 1) l.notify();
        await new Promise((r) => setTimeout(r, 5));
        return { added: 1, modified: 0, removed: 0, files: 1, durationMs: 1 } as IndexSummary;
      },
      600_000,
      600_000,
    );
    l.notify();
    await l.flush();
    expect(calls).toBe(2);
    await l.close();
  });
});
