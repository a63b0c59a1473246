import type { LanguageId } from "../extract/language.js";
import type { ParseJob } from "./messages.js";

/** Most files in one batch: a reply carries every file's extraction, and the main thread stores it. */
export const MAX_FILES = 24;
/** Least source in one batch, so that the last, small files do not cost a message each. */
export const MIN_BATCH_BYTES = 64 * 1024;
/**
 * Most source in one batch (a larger file goes alone), so that results reach the main thread, which
 * stores them as they come, in a steady stream from the start.
 */
const MAX_BYTES = 256 * 1024;
/** Batches each worker should still get from what remains: smaller shares balance the finish. */
const SHARES_PER_WORKER = 4;

/**
 * Hands out parse jobs in batches sized by bytes, which shrink as the work runs out. Whichever worker
 * finishes last decides the wall time: with batches of 24 files, a worker still parsing its last batch,
 * with another queued behind it, kept the other idle for 200 ms at the end (jdk-util, 9 MB of Java).
 * Files stay in the scan's order (biggest first was no faster: the main thread then stored the
 * largest results all at once), grouped by language, so that a language with only a batch or two of
 * files is loaded (grammar and queries) by one worker only. The `first` languages come ahead of the
 * others, each group where its first file was scanned otherwise.
 */
export class BatchQueue {
  private readonly jobs: ParseJob[];
  private next = 0;
  private remainingBytes = 0;

  constructor(
    jobs: ParseJob[],
    private readonly workers: number,
    /** Languages to hand out before the others. */
    first: ReadonlySet<LanguageId> = new Set(),
  ) {
    this.jobs = byLanguage(jobs, first);
    for (const j of jobs) this.remainingBytes += j.size;
  }

  get empty(): boolean {
    return this.next >= this.jobs.length;
  }

  /** The next batch: at least one file, up to a share of what remains. Empty when all are handed out. */
  take(): ParseJob[] {
    const share = this.remainingBytes / (this.workers * SHARES_PER_WORKER);
    const target = Math.min(MAX_BYTES, Math.max(MIN_BATCH_BYTES, share));
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

function byLanguage(jobs: ParseJob[], first: ReadonlySet<LanguageId>): ParseJob[] {
  const groups = new Map<LanguageId, ParseJob[]>();
  for (const j of jobs) {
    let g = groups.get(j.language);
    if (!g) groups.set(j.language, (g = []));
    g.push(j);
  }
  const ordered = [...groups].sort(([a], [b]) => Number(first.has(b)) - Number(first.has(a)));
  return ordered.flatMap(([, g]) => g);
}
