/** A range of a file's text: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** The last of `sorted` (ascending by start) that starts at or before `at`, if any. */
export function lastStartingBy<T extends Span>(sorted: readonly T[], at: number): T | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.start <= at) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo - 1];
}

/** Whether `at` is inside one of `sorted` spans, which do not nest: the last that starts by it. */
export function inSpans(sorted: readonly Span[], at: number): boolean {
  const span = lastStartingBy(sorted, at);
  return span !== undefined && at < span.end;
}
