import { join } from "node:path";

/** The folder at a project's root holding its index, config and logs. */
export const INDEX_DIR = ".codegraph";
export const DB_FILE = "graph.db";

export function indexDir(root: string): string {
  return join(root, INDEX_DIR);
}

export function dbPath(root: string): string {
  return join(root, INDEX_DIR, DB_FILE);
}
