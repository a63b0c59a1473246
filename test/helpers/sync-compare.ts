import { cpSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { graphSnapshot } from "./graph-snapshot.js";
import { runJson, tempRepo } from "./cli.js";

/** The resolution fixtures, which the sync tests copy, edit and compare. */
export const fixtures = join(import.meta.dirname, "..", "resolve", "fixtures");

/** Every folder and file of the project an hour back (not .git, not the index). */
export function settleTree(dir: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === ".git" || e.name === ".codegraph") continue;
    if (e.isDirectory()) settleTree(join(dir, e.name));
    utimesSync(join(dir, e.name), hourAgo, hourAgo);
  }
  utimesSync(dir, hourAgo, hourAgo);
}

export interface Summary {
  files: number;
  nodes: number;
  edges: number;
  added: number;
  modified: number;
  removed: number;
}

export interface SyncedProject {
  /** The project's folder (once the describe's `beforeAll` has made it). */
  readonly dir: string;
  at: (path: string) => string;
  /** Syncs, checks the changes it reports, then that `init --force` builds exactly the same graph. */
  syncThenCompare: (expectChange: Partial<Summary>) => Promise<Summary>;
}

/**
 * A project holding the TypeScript, Python, Go and Java fixtures, indexed before the tests of the
 * describe it is called in and removed after them: each test edits it, syncs and compares.
 */
export function syncedProject(): SyncedProject {
  let repo: { dir: string; cleanup: () => void };
  const at = (p: string) => join(repo.dir, p);

  beforeAll(async () => {
    repo = tempRepo();
    for (const lang of ["typescript", "python", "go", "java"])
      cpSync(join(fixtures, lang), at(lang), { recursive: true });
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  async function syncThenCompare(expectChange: Partial<Summary>): Promise<Summary> {
    const synced = await runJson<Summary>(["sync", repo.dir]);
    for (const [k, v] of Object.entries(expectChange)) expect(synced[k as keyof Summary], k).toBe(v);
    const afterSync = graphSnapshot(repo.dir);
    // `status` counts the references without an edge as the view lists them.
    const status = await runJson<{ unresolved: number }>(["status", "-p", repo.dir]);
    expect(status.unresolved).toBe(afterSync.unresolved.length);
    const rebuilt = await runJson<Summary>(["init", "--force", repo.dir]);
    const afterInit = graphSnapshot(repo.dir);
    expect(afterSync.nodes).toEqual(afterInit.nodes);
    expect(afterSync.edges).toEqual(afterInit.edges);
    expect(afterSync.unresolved).toEqual(afterInit.unresolved);
    expect(afterSync.searchTerms).toEqual(afterInit.searchTerms);
    // The counts `status` shows, kept by triggers through every edit, are the rows' own.
    expect(afterSync.kindCounts.kept).toEqual(afterSync.kindCounts.counted);
    expect(afterInit.kindCounts.kept).toEqual(afterInit.kindCounts.counted);
    expect(synced.nodes).toBe(rebuilt.nodes);
    expect(synced.edges).toBe(rebuilt.edges);
    return synced;
  }

  return {
    get dir() {
      return repo.dir;
    },
    at,
    syncThenCompare,
  };
}
