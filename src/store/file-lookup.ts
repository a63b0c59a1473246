import type { StoredFile } from "./reader.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

const FILE_COLS = "id, path, size, mtime_ms AS mtimeMs, sha256, language";

/** One indexed file's record by its exact project-relative path. */
export function fileRecord(db: Db, path: string): StoredFile | undefined {
  return prepared(db, `SELECT ${FILE_COLS} FROM files WHERE path = ?`).get(path) as StoredFile | undefined;
}

/**
 * Indexed paths that end with `suffix` on a segment boundary (`app.ts` matches `src/app.ts`, never
 * `src/myapp.ts`), sorted, at most `limit`.
 */
export function pathsEndingWith(db: Db, suffix: string, limit: number): string[] {
  const escaped = suffix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return (
    prepared(db, `SELECT path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\' ORDER BY path LIMIT ?`).all(
      suffix,
      `%/${escaped}`,
      limit,
    ) as { path: string }[]
  ).map((r) => r.path);
}
