import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { CodegraphError, isCodegraphError } from "./errors.js";
import { writeOwnFile } from "./own-file.js";
import { readRegularFile } from "./regular-file.js";

/**
 * Whether an error says the index file itself is damaged: a page that fails SQLite's checks
 * (`SQLITE_CORRUPT` and its extended codes, FTS5's `SQLITE_CORRUPT_VTAB` among them), or a file that
 * is not a database (`SQLITE_NOTADB`). SQLite reads a page only when a statement first needs it, so
 * any statement may find the damage, long after the open succeeded. Our own `INDEX_DAMAGED` error
 * counts too, so callers need ask one question.
 */
export function isDamagedIndex(e: unknown): boolean {
  if (isCodegraphError(e)) return e.code === "INDEX_DAMAGED";
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}

/** What SQLite said about the damage (`database disk image is malformed`), without our advice. */
export function damageDetail(e: unknown): string {
  const cause = isCodegraphError(e) ? e.cause : e;
  return (cause as Error | undefined)?.message ?? String(cause);
}

/**
 * Left beside the index by a reader that found it damaged, for the next sync to rebuild it. A sync
 * may read none of the damaged pages (it reads files and counts, a search reads names and text), so
 * without the mark the fix a reader names could answer "nothing to do". A watching daemon starts that
 * sync when the mark appears.
 */
export const DAMAGE_MARK = "graph.db.damaged";

const markPath = (dbPath: string) => join(dirname(dbPath), DAMAGE_MARK);

/**
 * The error a reader gives for a damaged index: what is wrong and the command that fixes it, `sync`
 * (or `init`), which rebuilds such an index as it rebuilds one of another schema: it is derived data.
 * The index is marked for that sync. Anything that is not damage is returned as it came.
 */
export function reportDamage(dbPath: string, e: unknown): unknown {
  if (!isDamagedIndex(e) || isCodegraphError(e)) return e;
  const detail = damageDetail(e);
  try {
    writeOwnFile(markPath(dbPath), `${detail}\n`);
  } catch {
    // A folder we may not write to: the sync finds the damage itself when it reads those pages.
  }
  return new CodegraphError(
    "INDEX_DAMAGED",
    `The index at ${dbPath} is damaged (${detail}). Run \`codegraph sync\` to rebuild it.`,
    { cause: e },
  );
}

/** What a reader found wrong with the index (null when nothing was reported), for a sync to rebuild it. */
export function reportedDamage(dbPath: string): string | null {
  // Not followed if a link, and cut short: the mark is ours, but the folder is the project's.
  return readRegularFile(markPath(dbPath), { followLink: false })?.trim().slice(0, 200) || null;
}

/** Forget reported damage: the index it was found in has just been replaced. */
export function clearReportedDamage(dbPath: string): void {
  rmSync(markPath(dbPath), { force: true });
}
