import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { readEnv } from "../config/env.js";
import type { IndexConnections } from "../query/open-index.js";
import { setV8Flag } from "../core/v8-flag-hook.js";
import { answerTool, failureAnswer, type ToolAnswer, type ToolCall } from "./answer.js";

/** A worker stops after this long without a call, so an idle daemon holds no more memory than it did. */
const IDLE_MS = 60_000;

/** What a read worker is sent, and what it answers: `ready` once, when loaded, then one answer a call. */
export interface ReadRequest {
  call: ToolCall;
}
export type ReadReply = { ready: true } | { answer: ToolAnswer };

export interface ReadPoolOptions {
  /** Workers at most. */
  size: number;
  /** Answers a call on this thread: used for every call once a worker fails to start. */
  inline: (call: ToolCall) => ToolAnswer;
  log: (line: string) => void;
  /** How long the workers stay without a call (default a minute). */
  idleMs?: number;
}

interface Job {
  call: ToolCall;
  done: (answer: ToolAnswer) => void;
}

/**
 * Calls a worker holds at once: the one it answers and three more, so that it does not wait for this
 * thread to hand it the next: this thread also reads and writes every HTTP exchange, and now and then
 * collects its garbage for several milliseconds. A slow call holds back at most three others, and a
 * new call goes to the worker holding the fewest. Two servers side by side on two cores (50 clients,
 * the load test's mix, alternating runs): 3 against 2 gave 2-5% more requests a second in 9 runs of
 * 10, and 4 against 3 another 1-4% in 5 of 5, with p99 lower in each of those five.
 */
const DEPTH = 4;

interface Slot {
  worker: Worker;
  /** It said it was loaded: a worker that dies before that could not start at all. */
  loaded: boolean;
  /** The calls it was sent, in order: it answers them one at a time, in that order. */
  jobs: Job[];
  /** When it began answering the first of `jobs` (performance.now()). */
  headStarted: number;
}

/** How much each answer moves a tool's expected time toward itself. */
const LEARNING_RATE = 0.2;

/**
 * How long each tool's answers take on a worker, learnt from this pool's own answers (a moving
 * average): the work a worker still holds is what decides where a call waits least. An explore of
 * a pasted message reads files for a third of a second on a large project, where a search takes a
 * few milliseconds.
 */
class AnswerTimes {
  private readonly ms = new Map<string, number>();

  expected(tool: string): number {
    return this.ms.get(tool) ?? 1;
  }

  learn(tool: string, ms: number): void {
    const old = this.ms.get(tool);
    this.ms.set(tool, old === undefined ? ms : old + LEARNING_RATE * (ms - old));
  }

  /**
   * The time a worker's calls should take yet: the rest of the one it answers, then the others. A call
   * that has run for more than half its tool's usual time is expected to run as long again as it has:
   * one far past it (an explore reading files for a pasted message) is likely to go on.
   */
  held(slot: Slot, now: number): number {
    const [head, ...rest] = slot.jobs;
    if (!head) return 0;
    const ran = now - slot.headStarted;
    let ms = Math.max(this.expected(head.call.name) - ran, ran);
    for (const job of rest) ms += this.expected(job.call.name);
    return ms;
  }
}

/**
 * Read tool calls answered on worker threads, each with its own read-only index connections, so that
 * concurrent calls use every core and the owning thread stays free to sync (SQLite's WAL lets readers
 * and the writer overlap). Calls wait in one queue, first come first served; a worker holds the call
 * it answers and up to three next ones (DEPTH), and a call goes to the worker whose calls should be
 * done first (AnswerTimes), so a slow call (an explore over a large project) holds back others only
 * when every worker is as busy.
 * A worker is started when every running one is busy, up to `size`; all stop after a minute without
 * calls. A call with no other in progress is answered on this thread: a worker would only add a hop
 * (a sequential client's calls) or its start-up (a prompt hook's one call). So is a call that finds
 * no worker ready yet: concurrent calls start one for those that follow.
 * If a worker cannot start (its script missing from a broken install), every call from then on
 * is answered on this thread: slower under load, but answered.
 */
export class ReadPool {
  private slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private inlineOnly = false;
  private readonly times = new AnswerTimes();

  constructor(
    private readonly workerUrl: URL,
    private readonly options: ReadPoolOptions,
  ) {}

  /** Worker threads running now. */
  get workers(): number {
    return this.slots.length;
  }

  /** Answer a call; `concurrent` says whether other calls are in progress in this process. */
  run(call: ToolCall, concurrent: boolean): Promise<ToolAnswer> {
    if (this.inlineOnly || !concurrent) return Promise.resolve(this.options.inline(call));
    clearTimeout(this.idleTimer);
    if (!this.slots.some((s) => s.loaded)) {
      // No worker is ready: answer here rather than wait about 40 ms for one to start.
      if (!this.slots.length) this.start();
      const answer = this.options.inline(call);
      this.dispatch();
      return Promise.resolve(answer);
    }
    return new Promise<ToolAnswer>((done) => {
      this.queue.push({ call, done });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.next();
      if (!slot) return;
      const job = this.queue.shift()!;
      if (!slot.jobs.length) slot.headStarted = performance.now();
      slot.jobs.push(job);
      slot.worker.postMessage({ call: job.call } satisfies ReadRequest);
    }
    if (this.slots.every((s) => !s.jobs.length)) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.close(), this.options.idleMs ?? IDLE_MS);
      this.idleTimer.unref();
    }
  }

  /**
   * The worker to send the next call to: an idle one, else a new one, else, of those with room, the
   * one whose calls should be done first. By count alone, a call could wait behind a slow explore
   * while the other worker was about to be free.
   */
  private next(): Slot | null {
    const idle = this.slots.find((s) => !s.jobs.length);
    if (idle) return idle;
    if (this.slots.length < this.options.size) return this.start();
    const now = performance.now();
    let best: Slot | null = null;
    let least = Infinity;
    for (const s of this.slots) {
      if (s.jobs.length >= DEPTH) continue;
      const held = this.times.held(s, now);
      if (held >= least) continue;
      best = s;
      least = held;
    }
    return best;
  }

  private start(): Slot {
    const slot: Slot = { worker: new Worker(this.workerUrl), loaded: false, jobs: [], headStarted: 0 };
    this.slots.push(slot);
    slot.worker.on("message", (reply: ReadReply) => {
      if ("ready" in reply) slot.loaded = true;
      else {
        const job = slot.jobs.shift();
        const now = performance.now();
        if (job) this.times.learn(job.call.name, now - slot.headStarted);
        slot.headStarted = now;
        job?.done(reply.answer);
      }
      this.dispatch();
    });
    const lost = (why: Error) => {
      if (!this.slots.includes(slot)) return;
      this.slots = this.slots.filter((s) => s !== slot);
      const [current, ...waiting] = slot.jobs.splice(0);
      if (!slot.loaded) {
        // It never started: no worker will. Answer everything here from now on, the calls the other
        // workers hold included.
        this.options.log(`read workers unavailable (${why.message}); answering on the main thread`);
        this.inlineOnly = true;
        const held = [current, ...waiting, ...this.slots.flatMap((s) => s.jobs.splice(0)), ...this.queue.splice(0)];
        void this.close();
        for (const job of held) if (job) job.done(this.options.inline(job.call));
        return;
      }
      // A worker that dies takes the call it was answering with it: that call gets an error (every
      // tool is read-only, so the client may simply call again). The one waiting behind it goes back
      // to the head of the queue, for the other workers or a new one.
      this.queue.unshift(...waiting);
      current?.done(failureAnswer("a read worker", why));
      this.dispatch();
    };
    slot.worker.on("error", lost);
    slot.worker.on("exit", (code) => lost(new Error(`the read worker exited with code ${code}`)));
    // Calls keep the process busy, not the workers: an exiting daemon does not wait for them.
    slot.worker.unref();
    return slot;
  }
}

/**
 * The pool a server answers tool calls with: at most CODEGRAPH_WORKERS workers, else one per core up
 * to four, and the server's own index connections for the calls answered in place.
 */
export function toolPool(
  workerUrl: URL,
  indexes: IndexConnections,
  languageOf: (path: string) => string | null,
  log: (line: string) => void,
): ReadPool {
  keepArrayBuiltinsCalled();
  return new ReadPool(workerUrl, {
    size: readEnv().workers ?? Math.min(4, availableParallelism()),
    inline: (call) => answerTool(call, indexes, languageOf),
    log,
  });
}

/**
 * Have V8's optimising compiler call the array builtins (`map`, `filter`, `some`, `find`...) rather
 * than inline them, for the rest of the process (V8 flags are per process; set before the workers
 * start, as their code is compiled after). An inlined `map` returns a holey array where the builtin
 * returns a packed one, so an array's map depended on whether the function that made it was
 * optimised yet, and every optimised function that took such an array with another map was thrown
 * away ("wrong map") and compiled again. On a server that was a chain of recompiles lasting 50,000
 * calls (see docs/decisions.md, session 45).
 */
function keepArrayBuiltinsCalled(): void {
  setV8Flag("--no-turbo-inline-array-builtins");
}
