import type { Db } from "../store/database.js";
import { prepared } from "../store/statements.js";

export interface FileEntry {
  path: string;
  language: string;
  size: number;
  symbols: number;
  syntaxErrors: number;
}

/** Indexed files under a folder (all when omitted), sorted by path. */
export function listFiles(db: Db, under?: string): FileEntry[] {
  const prefix = (under ?? "").replace(/^\.\/?/, "").replace(/\/+$/, "");
  return prepared(
    db,
    `SELECT f.path, f.language, f.size, f.syntax_errors AS syntaxErrors,
         (SELECT count(*) FROM nodes n WHERE n.file_id = f.id AND n.kind NOT IN ('file','import')) AS symbols
         FROM files f WHERE ? = '' OR f.path = ? OR f.path LIKE ? ESCAPE '\\' ORDER BY f.path`,
  ).all(prefix, prefix, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`) as FileEntry[];
}
