import { CALLABLE_KINDS, TYPE_KINDS, type NodeKind } from "../core/kinds.js";

/**
 * How many names, imports and receivers a chain is followed through before resolution gives up.
 * 10 follows Django's `self.filter(..).order_by()` (filter returns `_filter_or_exclude`'s local, made
 * by `_chain()`, made by `_clone()`); 8 stopped a step short. Going deeper costs where chains lead
 * nowhere: 12 made 48% more expression lookups on Django for one edge more.
 */
export const MAX_DEPTH = 10;

/** What a call may reach: callables, types (a call of a type makes one), and values holding functions. */
export const CALL_TARGETS: ReadonlySet<NodeKind> = new Set([
  ...CALLABLE_KINDS,
  ...TYPE_KINDS,
  "variable",
  "constant",
  "property",
]);
