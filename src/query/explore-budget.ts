/**
 * How much source one explore answer may carry. A bigger project gets a somewhat bigger answer (its
 * questions span more files), but never one that floods an agent's context: incidental matches are
 * what an agent pays for and does not read.
 */
export interface ExploreBudget {
  /** Characters of source in the whole answer. */
  total: number;
  /** Files shown with source. */
  files: number;
  /** Characters of source one file is given on the first pass. */
  perFile: number;
}

/** Tiers by the number of indexed files: the first whose bound is at least the project's size. */
export const BUDGET_TIERS: readonly (ExploreBudget & { upToFiles: number })[] = [
  { upToFiles: 150, total: 12_000, files: 6, perFile: 5_000 },
  { upToFiles: 1_500, total: 16_000, files: 8, perFile: 6_000 },
  { upToFiles: 10_000, total: 20_000, files: 8, perFile: 7_000 },
  { upToFiles: Infinity, total: 24_000, files: 10, perFile: 7_500 },
];

/** A file is never given more than this multiple of the per-file budget on the first pass. */
export const FILE_CEILING = 1.5;

/** Files whose score is under this share of the best file's are listed by name, without source. */
export const LOW_SCORE_SHARE = 0.3;

/** The most source characters an answer may be asked for: the largest tier's. */
export const MAX_SOURCE_CHARS = BUDGET_TIERS[BUDGET_TIERS.length - 1]!.total;

/**
 * The budget for a project of `fileCount` files, with `maxFiles` and `maxChars` (when given) setting
 * the file count and the source characters in place of the tier's, up to 30 files and
 * MAX_SOURCE_CHARS. Each file's share follows the total in proportion: a short answer still spans
 * several files, and a caller who asks a small project for more gets longer files, not just the
 * tier's few thousand characters of each (a file the question names could not be shown whole).
 */
export function budgetFor(fileCount: number, maxFiles?: number, maxChars?: number): ExploreBudget {
  const tier = BUDGET_TIERS.find((t) => fileCount <= t.upToFiles) ?? BUDGET_TIERS[BUDGET_TIERS.length - 1]!;
  const total = Math.min(maxChars ?? tier.total, MAX_SOURCE_CHARS);
  return {
    total,
    files: Math.max(1, Math.min(maxFiles ?? tier.files, 30)),
    perFile: Math.round((tier.perFile * total) / tier.total),
  };
}

/**
 * The characters one file may use on the first pass: its share, raised for files the query names
 * (up to the ceiling), never more than what is left.
 */
export function fileAllowance(budget: ExploreBudget, remaining: number, named: boolean): number {
  const share = named ? budget.perFile * FILE_CEILING : budget.perFile;
  return Math.max(0, Math.min(remaining, share));
}

/** The limits of one explore answer that do not depend on the project's size (see explore-budget.ts). */
export const EXPLORE_LIMITS = {
  /** A symbol's body is shown up to this many lines. */
  symbolLines: 120,
  /** A class (or other type) longer than symbolLines shows only its head: its members are ranked on their own. */
  typeHeadLines: 15,
  /** An exact target too big for its file's budget shows this many head lines, then windows. */
  targetHeadLines: 12,
  /** Lines either side of an anchored line, and of a call to another named symbol, in a clipped target. */
  anchorContext: 6,
  callContext: 2,
  /** A bare line anchor no callable encloses renders this many lines either side. */
  spanContext: 15,
  /** Candidates scoring under this share of the best one are dropped: FTS's long tail is noise next to an exact name. */
  relativeFloor: 0.4,
  /** Symbols whose callers and callees are listed, and how many of each. */
  related: 5,
  relatedRows: 5,
  /** Roots of the blast-radius block. */
  blastRoots: 3,
} as const;
