import type { Db } from "../store/database.js";
import { sourceFilesInto } from "../store/edge-reader.js";

/** How far up the callers the coverage check walks, and how many caller lookups one root may cost. */
export const TEST_REACH_HOPS = 3;
export const TEST_REACH_LOOKUPS = 64;

export type TestReach =
  /** Test files call the root, directly or through up to three hops of callers. */
  | { outcome: "tested"; testFiles: string[] }
  /** Every caller within three hops was examined and none is in a test file. */
  | { outcome: "untested-within-hops" }
  /** The lookup budget ran out first: the callers are too many to say more than "not directly". */
  | { outcome: "lookup-budget-exhausted" };

/**
 * Measured test coverage of a symbol: walk UP its callers, hop by hop, for up to three hops and 64
 * caller lookups, collecting the test files reached. A hop is finished before the next starts, and
 * all test files of the hops walked are kept (the display decides how many to show).
 */
export function testReach(db: Db, rootIds: readonly number[], isTest: (path: string) => boolean): TestReach {
  const callers = sourceFilesInto(db, ["calls", "instantiates", "references"]);
  const seen = new Set<number>(rootIds);
  const testFiles = new Set<string>();
  let frontier = [...rootIds];
  let lookups = 0;
  let exhausted = false;
  for (let hop = 1; hop <= TEST_REACH_HOPS && frontier.length && !exhausted; hop++) {
    const next: number[] = [];
    for (const id of frontier) {
      if (lookups >= TEST_REACH_LOOKUPS) {
        exhausted = true;
        break;
      }
      lookups++;
      for (const row of callers(id)) {
        if (isTest(row.path)) testFiles.add(row.path);
        if (!seen.has(row.id)) {
          seen.add(row.id);
          next.push(row.id);
        }
      }
    }
    // Tests found at this hop are the answer: walking further would only add more distant ones.
    if (testFiles.size) break;
    frontier = next;
  }
  if (testFiles.size) return { outcome: "tested", testFiles: [...testFiles].sort() };
  return exhausted ? { outcome: "lookup-budget-exhausted" } : { outcome: "untested-within-hops" };
}
