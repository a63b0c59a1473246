import type { Db } from "../store/database.js";
import { prepared } from "../store/statements.js";

/** Edge kinds that mean "depends on" for callers, callees and impact. `contains` is structure, not use. */
export const USE_KINDS = [
  "calls",
  "instantiates",
  "references",
  "extends",
  "implements",
  "overrides",
  "imports",
  "exports",
] as const;
export const CALL_KINDS = ["calls", "instantiates"] as const;

export interface Neighbour {
  nodeId: number;
  kind: string;
  line: number | null;
  resolution: string;
}

const inList = (kinds: readonly string[]) => kinds.map((k) => `'${k}'`).join(",");

/** Nodes with an edge into `nodeId` (callers, users), one row per edge. */
export function incoming(db: Db, nodeId: number, kinds: readonly string[]): Neighbour[] {
  return prepared(
    db,
    `SELECT source_id AS nodeId, kind, line, resolution FROM edges
       WHERE target_id = ? AND kind IN (${inList(kinds)}) ORDER BY file_id, line`,
  ).all(nodeId) as Neighbour[];
}

/** Nodes `nodeId` has an edge to (callees, dependencies), one row per edge. */
export function outgoing(db: Db, nodeId: number, kinds: readonly string[]): Neighbour[] {
  return prepared(
    db,
    `SELECT target_id AS nodeId, kind, line, resolution FROM edges
       WHERE source_id = ? AND kind IN (${inList(kinds)}) ORDER BY line`,
  ).all(nodeId) as Neighbour[];
}

/** Ids of a node and everything it contains (a class and its methods), so "callers of a class" includes its members'. */
export function withDescendants(db: Db, nodeId: number): number[] {
  return (
    prepared(
      db,
      `WITH RECURSIVE d(id) AS (SELECT ? UNION SELECT n.id FROM nodes n JOIN d ON n.parent_id = d.id) SELECT id FROM d`,
    ).all(nodeId) as { id: number }[]
  ).map((r) => r.id);
}

export interface ImpactHit {
  nodeId: number;
  depth: number;
  via: number;
  kind: string;
}

/**
 * Everything that depends on the start nodes, breadth first up to `maxDepth` hops along incoming use
 * edges. Each node appears once, at its shortest distance.
 */
export function impactOf(
  db: Db,
  start: number[],
  maxDepth: number,
  limit: number,
): { hits: ImpactHit[]; truncated: boolean } {
  const stmt = prepared(
    db,
    `SELECT source_id AS nodeId, kind FROM edges WHERE target_id = ? AND kind IN (${inList(USE_KINDS.filter((k) => k !== "exports"))})`,
  );
  const seen = new Set<number>(start);
  const hits: ImpactHit[] = [];
  let frontier = start;
  let truncated = false;
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const row of stmt.all(id) as { nodeId: number; kind: string }[]) {
        if (seen.has(row.nodeId)) continue;
        seen.add(row.nodeId);
        if (hits.length >= limit) {
          truncated = true;
          continue;
        }
        hits.push({ nodeId: row.nodeId, depth, via: id, kind: row.kind });
        next.push(row.nodeId);
      }
    }
    frontier = next;
  }
  return { hits, truncated };
}
