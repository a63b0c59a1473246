import { CALLABLE_KINDS, TYPE_KINDS, type NodeKind } from "../core/kinds.js";

/** How many names, imports and receivers a chain is followed through before resolution gives up. */
export const MAX_DEPTH = 8;

/** What a call may reach: callables, types (a call of a type makes one), and values holding functions. */
export const CALL_TARGETS: ReadonlySet<NodeKind> = new Set([
  ...CALLABLE_KINDS,
  ...TYPE_KINDS,
  "variable",
  "constant",
  "property",
]);
