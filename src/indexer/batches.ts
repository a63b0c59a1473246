import type { ParseJob } from "./messages.js";

/** Most files in one batch: a reply carries every file's extraction, and the main thread stores it. */
export const MAX_FILES = 24;
/** Least source in one batch, so that the last, small files do not cost a message each. */
const MIN_BYTES = 64 * 1024;
/**
 * Most source in one batch (a larger file goes alone). The main thread stores results as they come:
 * biggest-first batches of a quarter of each worker's share kept it idle for the first half second on
 * Django, then behind at the end.
 */
const MAX_BYTES = 256 * 1024;
/** Batches each worker should still get from what remains: smaller shares balance the finish. */
const SHARES_PER_WORKER = 4;

/**
 * Hands out parse jobs in batches that shrink as the work runs out, biggest files first. Whichever
 * worker finishes last decides the wall time: handed out in the scan's order, a large file in the
 * last batches, with another batch queued behind it, left one worker parsing for 200 ms while the
 * other sat idle (jdk-util, 9 MB of Java). Biggest first, with batches sized by bytes, leaves only
 * small files for the end. Files stay grouped by language, so that a language with only a batch or
 * two of files is loaded (grammar and queries) by one worker only; the largest language comes last.
 */
export class BatchQueue {
  private readonly jobs: ParseJob[];
  private next = 0;
  private remainingBytes = 0;

  constructor(
    jobs: ParseJob[],
    private readonly workers: number,
  ) {
    this.jobs = biggestFirstByLanguage(jobs);
    for (const j of jobs) this.remainingBytes += j.size;
  }

  get empty(): boolean {
    return this.next >= this.jobs.length;
  }

  /** The next batch: at least one file, up to a share of what remains. Empty when all are handed out. */
  take(): ParseJob[] {
    const share = this.remainingBytes / (this.workers * SHARES_PER_WORKER);
    const target = Math.min(MAX_BYTES, Math.max(MIN_BYTES, share));
    const start = this.next;
    let bytes = 0;
    while (this.next < this.jobs.length && this.next - start < MAX_FILES) {
      const size = this.jobs[this.next]!.size;
      if (this.next > start && bytes + size > target) break;
      bytes += size;
      this.next++;
    }
    this.remainingBytes -= bytes;
    return this.jobs.slice(start, this.next);
  }
}

function biggestFirstByLanguage(jobs: ParseJob[]): ParseJob[] {
  const groups = new Map<string, ParseJob[]>();
  for (const j of jobs) {
    let g = groups.get(j.language);
    if (!g) groups.set(j.language, (g = []));
    g.push(j);
  }
  const bytes = (g: ParseJob[]) => g.reduce((n, j) => n + j.size, 0);
  // The largest language goes last, so that the very end is its smallest files.
  const ordered = [...groups.values()].sort((a, b) => bytes(a) - bytes(b));
  const out: ParseJob[] = [];
  for (const g of ordered) out.push(...g.sort((a, b) => b.size - a.size));
  return out;
}
