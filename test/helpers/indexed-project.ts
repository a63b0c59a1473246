import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { fullIndex } from "../../src/indexer/full-index.js";
import { openDatabase, type Db } from "../../src/store/database.js";

export interface IndexedProject {
  dir: string;
  /** The project's index, opened read-only. */
  db: Db;
  cleanup: () => void;
}

/**
 * A temporary project, a copy of the folder `from` and/or the given files (path → text), indexed in
 * this process from source, with its index open.
 */
export async function indexedProject(
  name: string,
  content: { from?: string; files?: Record<string, string> },
): Promise<IndexedProject> {
  const dir = mkdtempSync(join(tmpdir(), `codegraph-${name}-`));
  if (content.from) cpSync(content.from, dir, { recursive: true });
  for (const [path, text] of Object.entries(content.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  await fullIndex(dir);
  const db = openDatabase(dbPath(dir), { readonly: true });
  return {
    dir,
    db,
    cleanup: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An indexedProject for the tests of a file (or of the `describe` block it is called in): made before
 * they run, removed after them. Its `dir` and `db` are read from within the tests.
 */
export function useIndexedProject(
  name: string,
  content: { from?: string; files?: Record<string, string> },
): IndexedProject {
  let made: IndexedProject | undefined;
  beforeAll(async () => {
    made = await indexedProject(name, content);
  }, 60_000);
  afterAll(() => made?.cleanup());
  return {
    get dir() {
      return made!.dir;
    },
    get db() {
      return made!.db;
    },
    cleanup: () => made?.cleanup(),
  };
}
