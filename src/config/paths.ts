import { basename, dirname, join } from "node:path";

/** The folder at a project's root holding its index, config and logs. */
export const INDEX_DIR = ".codegraph";
export const DB_FILE = "graph.db";

export function indexDir(root: string): string {
  return join(root, INDEX_DIR);
}

export function dbPath(root: string): string {
  return join(root, INDEX_DIR, DB_FILE);
}

/** The project root of an index file at `<root>/.codegraph/graph.db`, or null for any other file. */
export function rootOfIndex(file: string): string | null {
  const dir = dirname(file);
  return basename(file) === DB_FILE && basename(dir) === INDEX_DIR ? dirname(dir) : null;
}
