import { MAX_PATH_CHARS } from "../core/paths.js";
import type { StoredFile } from "./reader.js";
import type { Db } from "./database.js";
import { prepared, sqlLimit, unplanned } from "./statements.js";

const FILE_COLS = "id, path, size, mtime_ms AS mtimeMs, sha256, language";

/** One indexed file's record by its exact project-relative path. */
export function fileRecord(db: Db, path: string): StoredFile | undefined {
  return prepared(db, `SELECT ${FILE_COLS} FROM files WHERE path = ?`).get(path) as StoredFile | undefined;
}

/** The package or namespace an indexed file declares (Java, Kotlin, Go, C#, PHP), dotted; null where none. */
export function filePackage(db: Db, path: string): string | null {
  return (prepared(db, "SELECT package FROM files WHERE path = ?").pluck().get(path) as string | null) ?? null;
}

/** An indexed file as `files` lists it: its language, size, symbols and syntax errors. */
export interface FileEntry {
  path: string;
  language: string;
  size: number;
  symbols: number;
  syntaxErrors: number;
}

/**
 * Indexed files at or under `prefix` (all for ""), sorted by path. Paths compare case-sensitively, as
 * the file system does (LIKE alone ignores ASCII case: `SRC/Sync` listed src/sync).
 */
export function fileEntries(db: Db, prefix: string): FileEntry[] {
  if (prefix.length > MAX_PATH_CHARS) return [];
  return prepared(
    db,
    `SELECT f.path, f.language, f.size, f.syntax_errors AS syntaxErrors,
         (SELECT count(*) FROM nodes n WHERE n.file_id = f.id AND n.kind NOT IN ('file','import')) AS symbols
         FROM files f WHERE ? = '' OR f.path = ?
           OR (f.path LIKE ${unplanned("?")} ESCAPE '\\' AND substr(f.path, 1, ?) = ?) ORDER BY f.path`,
  ).all(
    prefix,
    prefix,
    `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`,
    prefix.length + 1,
    `${prefix}/`,
  ) as FileEntry[];
}

/** Every indexed file's size in bytes, by path. */
export function fileSizes(db: Db): Map<string, number> {
  const rows = prepared(db, "SELECT path, size FROM files").raw().all() as [string, number][];
  return new Map(rows);
}

/** The languages of the indexed files, sorted. */
export function indexedLanguages(db: Db): string[] {
  return prepared(db, "SELECT DISTINCT language FROM files ORDER BY language").pluck().all() as string[];
}

/** Paths of the indexed files directly in a folder ("" for the project's root). */
export function pathsInFolder(db: Db, dir: string): string[] {
  if (dir.length > MAX_PATH_CHARS) return [];
  const prefix = dir ? `${dir}/` : "";
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return (
    prepared(db, `SELECT path FROM files WHERE path LIKE ${unplanned("?")} ESCAPE '\\'`)
      .pluck()
      .all(like) as string[]
  ).filter((p) => !p.slice(prefix.length).includes("/"));
}

/** Indexed files that parsed only in part, most syntax errors first. */
export function filesWithSyntaxErrors(db: Db, limit: number): { path: string; errors: number; size: number }[] {
  return prepared(
    db,
    `SELECT path, syntax_errors AS errors, size FROM files WHERE syntax_errors > 0
       ORDER BY syntax_errors DESC, path LIMIT ${sqlLimit(limit)}`,
  ).all() as { path: string; errors: number; size: number }[];
}
