import type { Db } from "../store/database.js";
import { membersOutside } from "../store/outside-members.js";
import {
  edgesIntoEach,
  edgesOutOf,
  overriddenBy,
  selfAndDescendants,
  sourcesInto,
  type EdgeRow,
} from "../store/edge-reader.js";

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
  /**
   * The method `via` overrides or implements, when this node uses that one (`self.m()` in the base,
   * a call through the interface) and so may run `via` at run time.
   */
  through?: number;
}

/** The dependents a walk found, and how many there are in all. */
export interface ImpactWalk {
  /** The first `limit` dependents, nearest first. */
  hits: ImpactHit[];
  /** Dependents were found past the limit. */
  truncated: boolean;
  /** Dependents within the depth: all of them, or, when `atLeast`, as many as were counted. */
  total: number;
  /** Counting stopped at COUNT_PAST_LIMIT past the limit: there are at least `total`. */
  atLeast: boolean;
}

/**
 * How far past the limit a walk goes on counting, so that a cut answer can say how much it left out
 * without walking the whole blast radius of a hub (`toString` in the JDK reaches most of it).
 */
export const COUNT_PAST_LIMIT = 2000;

/** Uses of an overridden method that may dispatch to an override: calls, and references (a callback). */
const DISPATCH_KINDS = ["calls", "references"] as const;

/** How far up a hierarchy of overrides is followed (cycles are cut anyway). */
const MAX_OVERRIDE_GENERATIONS = 16;

/**
 * Everything that depends on the start nodes, breadth first up to `maxDepth` hops along incoming use
 * edges. Each node appears once, at its shortest distance. A method's dependents include the users
 * of the methods it overrides or implements (transitively), but for calls through `super`: a call of
 * `Field.get_prep_value` on a field, or of `EntityPersister::loadById` on the interface, may run
 * `CharField.get_prep_value` or `BasicEntityPersister::loadById`. At each depth the direct users come
 * first, so a limit keeps them over those reached through a base.
 */
export function impactOf(db: Db, start: number[], maxDepth: number, limit: number): ImpactWalk {
  const sources = sourcesInto(
    db,
    USE_KINDS.filter((k) => k !== "exports"),
  );
  const overridden = overriddenBy(db);
  const dispatching = sourcesInto(db, DISPATCH_KINDS, true);
  const seen = new Set<number>(start);
  const hits: ImpactHit[] = [];
  const countUpTo = limit + COUNT_PAST_LIMIT;
  let frontier = start;
  let total = 0;
  for (let depth = 1; depth <= maxDepth && frontier.length && total < countUpTo; depth++) {
    const next: number[] = [];
    const add = (row: { nodeId: number; kind: string }, via: number, through?: number) => {
      if (seen.has(row.nodeId) || total >= countUpTo) return;
      seen.add(row.nodeId);
      total++;
      next.push(row.nodeId);
      if (hits.length < limit) {
        hits.push({ nodeId: row.nodeId, depth, via, kind: row.kind, ...(through === undefined ? {} : { through }) });
      }
    };
    for (const id of frontier) for (const row of sources(id)) add(row, id);
    for (const id of frontier) {
      for (const base of overriddenAbove(overridden, id)) for (const row of dispatching(base)) add(row, id, base);
    }
    frontier = next;
  }
  return { hits, truncated: total > hits.length, total, atLeast: total >= countUpTo };
}

/** The methods `id` overrides or implements, nearest first, up the whole hierarchy. */
function overriddenAbove(overridden: (id: number) => number[], id: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>([id]);
  let level = [id];
  for (let generation = 0; level.length && generation < MAX_OVERRIDE_GENERATIONS; generation++) {
    const up: number[] = [];
    for (const m of level) {
      for (const base of overridden(m)) {
        if (seen.has(base)) continue;
        seen.add(base);
        out.push(base);
        up.push(base);
      }
    }
    level = up;
  }
  return out;
}
