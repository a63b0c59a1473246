import type { Db } from "../store/database.js";
import { membersOutside } from "../store/outside-members.js";
import { edgesIntoEach, edgesOutOf, selfAndDescendants, sourcesInto, type EdgeRow } from "../store/edge-reader.js";

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
/**
 * What the reference's `codegraph_callers` follows: calls, references and imports. A function passed
 * as a callback, or a type written in a signature, is a use to know of before changing it.
 */
export const CALLER_KINDS = ["calls", "instantiates", "references", "imports"] as const;

/** A node at the other end of an edge, and the edge's kind, line and how it was resolved. */
export type Neighbour = EdgeRow;

/** Nodes with an edge into each of `nodeIds` (callers, users): a list per id, one row per edge. */
export const incoming = (db: Db, nodeIds: readonly number[], kinds: readonly string[]): Neighbour[][] =>
  edgesIntoEach(db, nodeIds, kinds);

/** Nodes `nodeId` has an edge to (callees, dependencies), one row per edge. */
export const outgoing = (db: Db, nodeId: number, kinds: readonly string[]): Neighbour[] =>
  edgesOutOf(db, nodeId, kinds);

/**
 * Ids of a node and everything it contains (a class and its methods), and of a type's members written
 * outside its body (Go's and Rust's methods, C++'s out-of-line definitions), so "callers of a class"
 * includes its members'.
 */
export function withMembers(db: Db, nodeId: number): number[] {
  const ids = selfAndDescendants(db, nodeId);
  const outside = membersOutside(db, nodeId);
  return outside.length ? [...new Set([...ids, ...outside])] : ids;
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
  const sources = sourcesInto(
    db,
    USE_KINDS.filter((k) => k !== "exports"),
  );
  const seen = new Set<number>(start);
  const hits: ImpactHit[] = [];
  let frontier = start;
  let truncated = false;
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const row of sources(id)) {
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
