import type { Lookup } from "../core/lookup.js";
import type { Resolver } from "../resolve/resolver.js";
import type { Db } from "../store/database.js";
import { edgeTargets, refsByIds } from "../store/reader.js";
import type { StillReaches } from "../store/refs-affected.js";

/**
 * `StillReaches` for a sync whose files are written and whose references are not resolved again
 * yet, so a reference's edges are still those it had: a reference older than this sync, none of whose
 * targets went, that the resolver now sends where it went before, to one declaration in a file this
 * sync did not write or to none in the project (`flag.String` where the standard library is not).
 */
export function stillReaches(
  db: Db,
  resolver: Resolver,
  lookup: Lookup,
  sync: { lost: ReadonlySet<number>; written: ReadonlySet<number>; maxRef: number },
): StillReaches {
  return (refId) => {
    const [ref] = refId > sync.maxRef || sync.lost.has(refId) ? [] : refsByIds(db, [refId]);
    if (!ref) return null;
    // Targets in id order, each once (a call may be both `calls` and `instantiates`).
    const before = [...new Set(edgeTargets(db, refId).split(",").filter(Boolean))].join(",");
    const after = [...new Set(resolver.resolve(ref).map((e) => e.targetId))].sort((a, b) => a - b);
    if (after.join(",") !== before) return null;
    if (!after.length) return [];
    const target = after.length === 1 ? lookup.symbol(after[0]!) : undefined;
    return target && !sync.written.has(target.fileId) ? [target.name] : null;
  };
}
