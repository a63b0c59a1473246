import { getMeta, setMeta, type Db } from "./database.js";

/**
 * Files with a source ending that were read and skipped for what they hold (binary, not UTF-8, a
 * parse that failed), as they were then: size and mtime. Remembered so that `status` does not call
 * them added after every sync, and a sync does not read them again until they change. An unreadable
 * file is not remembered: a permission change does not move its mtime.
 */
export interface SkippedFile {
  size: number;
  mtimeMs: number;
  reason: string;
}

const KEY = "skipped_files";

/** Remember a file skipped for what it holds (the same bytes give the same answer); not an unreadable one. */
export function rememberSkip(
  files: Map<string, SkippedFile>,
  file: { path: string; size: number; mtimeMs: number; reason: string },
): void {
  if (file.reason !== "unreadable")
    files.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, reason: file.reason });
}

export function readSkippedFiles(db: Db): Map<string, SkippedFile> {
  const raw = getMeta(db, KEY);
  const out = new Map<string, SkippedFile>();
  if (!raw) return out;
  try {
    for (const [path, size, mtimeMs, reason] of JSON.parse(raw) as [string, number, number, string][])
      out.set(path, { size, mtimeMs, reason });
  } catch {
    // Unreadable: every skipped file is read again, as before it was remembered.
  }
  return out;
}

/** Stored sorted by path, so a sync and a rebuild of the same files store the same text. */
export function writeSkippedFiles(db: Db, files: ReadonlyMap<string, SkippedFile>): void {
  const rows = [...files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([p, f]) => [p, f.size, f.mtimeMs, f.reason]);
  setMeta(db, KEY, JSON.stringify(rows));
}

/** Whether a file on disk is still as it was when it was skipped. */
export function stillSkipped(
  skipped: ReadonlyMap<string, SkippedFile>,
  file: { path: string; size: number; mtimeMs: number },
): boolean {
  const s = skipped.get(file.path);
  return s !== undefined && s.size === file.size && s.mtimeMs === file.mtimeMs;
}
