import type { Db } from "../store/database.js";
import { fileEntries, type FileEntry } from "../store/file-lookup.js";
import { projectRelative } from "./read-project-file.js";

export type { FileEntry };

/** Indexed files under a folder (all when omitted), sorted by path. */
export function listFiles(db: Db, under?: string): FileEntry[] {
  const prefix = (under ?? "").replace(/^\.\/?/, "").replace(/\/+$/, "");
  return fileEntries(db, prefix);
}

/**
 * A folder (or file) argument of files and check as the index names it: project-relative, `./` or
 * absolute (agents pass `/home/me/app/src`), "" for the whole project. Null when it lies outside the
 * project, which is no folder to list.
 */
export function projectFolder(root: string, under: string | undefined): string | null {
  const text = under?.trim();
  if (!text) return "";
  const rel = projectRelative(root, text);
  return rel === null ? null : rel.replace(/\/+$/, "");
}
