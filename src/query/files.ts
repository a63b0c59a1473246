import type { Db } from "../store/database.js";
import { fileEntries, type FileEntry } from "../store/file-lookup.js";

export type { FileEntry };

/** Indexed files under a folder (all when omitted), sorted by path. */
export function listFiles(db: Db, under?: string): FileEntry[] {
  const prefix = (under ?? "").replace(/^\.\/?/, "").replace(/\/+$/, "");
  return fileEntries(db, prefix);
}
