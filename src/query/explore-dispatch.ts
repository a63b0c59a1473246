import { edgesInto, edgesOutOf } from "../store/edge-reader.js";
import type { Db } from "../store/database.js";
import { EXPLORE_LIMITS } from "./explore-budget.js";
import type { ExploreRef } from "./explore.js";
import { symbolById } from "./symbols.js";

/**
 * Where a method's calls dispatch beyond the edges drawn to it (the reference's "dynamic-dispatch
 * boundaries"): the method it overrides or implements, and the methods overriding it, any of which
 * a call of it may run.
 */
export interface ExploreDispatch {
  overrides: ExploreRef[];
  overriddenBy: ExploreRef[];
  overriddenTotal: number;
}

export function dispatchOf(db: Db, symbolId: number): ExploreDispatch {
  const asRefs = (ids: number[]): ExploreRef[] =>
    ids.flatMap((id) => {
      const s = symbolById(db, id);
      return s ? [{ name: s.qualifiedName, kind: s.kind, file: s.file, line: s.startLine }] : [];
    });
  const overriding = edgesInto(db, symbolId, ["overrides"]);
  return {
    overrides: asRefs(edgesOutOf(db, symbolId, ["overrides"]).map((e) => e.nodeId)),
    overriddenBy: asRefs(overriding.slice(0, EXPLORE_LIMITS.relatedRows).map((e) => e.nodeId)),
    overriddenTotal: overriding.length,
  };
}
