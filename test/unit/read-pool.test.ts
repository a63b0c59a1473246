import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/mcp/answer.js";
import { ReadPool } from "../../src/mcp/read-pool.js";

// Real worker threads running a stand-in worker script (test/helpers/read-worker-fault.mjs), which
// can be told to crash: the pool's queueing, crash handling and idle stop, without an index.

const WORKER = new URL("../helpers/read-worker-fault.mjs", import.meta.url);
const call = (name: string, n: number): ToolCall => ({ name, root: "/nowhere", args: { n }, health: null });
const textOf = (a: Awaited<ReturnType<ReadPool["run"]>>) => (a.result.content[0] as { text: string }).text;
const inline = (c: ToolCall) => ({
  result: { content: [{ type: "text" as const, text: `${c.args.n} inline` }] },
  internal: null,
});
const options = (size: number, idleMs?: number) => ({ size, inline, log: () => {}, idleMs });
const fromWorker = /^\d+ from \d+$/;

/** The thread a worker's answer names. */
const threadOf = (a: Awaited<ReturnType<ReadPool["run"]>>) => textOf(a).split(" from ")[1];

/**
 * Rounds of concurrent calls until `n` workers have answered (the first call starts a worker; until
 * one is ready, calls are answered inline).
 */
async function warm(pool: ReadPool, n = 1): Promise<void> {
  const threads = new Set<string>();
  for (let round = 0; round < 200 && threads.size < n; round++) {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => pool.run(call("echo", i), true)));
    for (const a of answers) if (fromWorker.test(textOf(a))) threads.add(threadOf(a)!);
    await new Promise((r) => setTimeout(r, 10));
  }
  if (threads.size < n) throw new Error(`only ${threads.size} of ${n} workers answered`);
}

async function until(probe: () => boolean): Promise<void> {
  for (let waited = 0; !probe() && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
}

describe("ReadPool", () => {
  it("answers a call with no company on this thread, and concurrent calls on workers", async () => {
    const pool = new ReadPool(WORKER, options(2));
    try {
      expect(textOf(await pool.run(call("echo", 1), false))).toBe("1 inline");
      expect(pool.workers).toBe(0);
      await warm(pool);
      expect(textOf(await pool.run(call("echo", 2), false))).toBe("2 inline");
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => pool.run(call("echo", n), true)));
      answers.forEach((a, n) => expect(textOf(a)).toMatch(new RegExp(`^${n} from \\d+$`)));
      expect(pool.workers).toBeGreaterThanOrEqual(1);
      expect(pool.workers).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });

  it("hands each call to the worker holding the fewest", async () => {
    const pool = new ReadPool(WORKER, options(2));
    try {
      await warm(pool, 2);
      // Both workers busy with a slow call each; four more calls then go two to each, rather than
      // filling the first worker's queue behind its slow call.
      const slowCall = (n: number): ToolCall => ({ ...call("slow", n), args: { n, ms: 300 } });
      const slow = [pool.run(slowCall(0), true), pool.run(slowCall(1), true)];
      const quick = await Promise.all([2, 3, 4, 5].map((n) => pool.run(call("echo", n), true)));
      const byThread = new Map<string, number>();
      for (const a of quick) {
        const thread = threadOf(a)!;
        byThread.set(thread, (byThread.get(thread) ?? 0) + 1);
      }
      expect([...byThread.values()]).toEqual([2, 2]);
      const slowThreads = new Set((await Promise.all(slow)).map(threadOf));
      expect(slowThreads.size).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("does not queue a call behind a slow one while another worker will be free sooner", async () => {
    const pool = new ReadPool(WORKER, options(2));
    try {
      await warm(pool, 2);
      const slowCall = (n: number): ToolCall => ({ ...call("slow", n), args: { n, ms: 400 } });
      // Learnt: a `slow` call takes 400 ms, an `echo` next to nothing.
      await Promise.all([pool.run(slowCall(0), true), pool.run(call("echo", 1), true)]);
      // One worker takes a slow call, the other a quick one; every quick call after them goes to the
      // second worker (it has room for four), none behind the slow call, and all are answered first.
      let slowDone = false;
      const slow = pool.run(slowCall(2), true).then((a) => ((slowDone = true), a));
      const quick = await Promise.all([3, 4, 5, 6].map((n) => pool.run(call("echo", n), true)));
      expect(slowDone).toBe(false);
      const slowThread = threadOf(await slow);
      for (const a of quick) expect(threadOf(a)).not.toBe(slowThread);
    } finally {
      await pool.close();
    }
  });

  it("answers a call whose worker died with an error, and goes on with a new worker", async () => {
    const pool = new ReadPool(WORKER, options(1));
    try {
      await warm(pool);
      const crashed = pool.run(call("crash", 0), true);
      const behind = pool.run(call("echo", 1), true); // queued behind the crash on the only worker
      const first = await crashed;
      expect(first.result.isError).toBe(true);
      expect(textOf(first)).toMatch(/^Error: Internal error in a read worker: the read worker exited with code 3/);
      expect(first.internal).toMatch(/exited with code 3/);
      expect(textOf(await behind)).toMatch(fromWorker);
      expect(textOf(await pool.run(call("echo", 2), true))).toMatch(fromWorker);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("stops its workers when idle, and answers the next call on this thread until one is ready", async () => {
    const pool = new ReadPool(WORKER, options(2, 20));
    try {
      await warm(pool);
      await until(() => pool.workers === 0);
      expect(pool.workers).toBe(0);
      expect(textOf(await pool.run(call("echo", 2), true))).toBe("2 inline");
    } finally {
      await pool.close();
    }
  });

  it("answers on its own thread when a worker cannot start, and says so once", async () => {
    const logged: string[] = [];
    const pool = new ReadPool(new URL("../helpers/no-such-worker.mjs", import.meta.url), {
      size: 2,
      inline,
      log: (l) => logged.push(l),
    });
    try {
      const answers = await Promise.all([1, 2, 3].map((n) => pool.run(call("echo", n), true)));
      expect(answers.map(textOf)).toEqual(["1 inline", "2 inline", "3 inline"]);
      await until(() => logged.length > 0);
      expect(textOf(await pool.run(call("echo", 4), true))).toBe("4 inline");
      expect(textOf(await pool.run(call("echo", 5), true))).toBe("5 inline");
      expect(pool.workers).toBe(0);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/^read workers unavailable \(.*\); answering on the main thread$/);
    } finally {
      await pool.close();
    }
  });
});
