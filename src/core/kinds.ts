/** Every kind of node the graph holds. Order is stable: it is stored as text, never as an index. */
export const NODE_KINDS = [
  "file",
  "module",
  "namespace",
  "class",
  "struct",
  "interface",
  "trait",
  "enum",
  "enum_member",
  "type_alias",
  "function",
  "method",
  "constructor",
  "property",
  "variable",
  "constant",
  "import",
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** Every kind of edge the graph holds. */
export const EDGE_KINDS = [
  "contains",
  "calls",
  "instantiates",
  "imports",
  "exports",
  "extends",
  "implements",
  "references",
  "overrides",
] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** How an edge was found; stored with it so a reader can judge how far to trust it. */
export const RESOLUTIONS = [
  "lexical",
  "import",
  "package",
  "member",
  "inherited",
  "typed",
  "static",
  "module",
  "syntax",
  "extension",
  /** One of several overloads the call's argument count allows (the first); which one needs the arguments' types. */
  "overload",
  /** Derived from the project's declarations, with no reference: Go's implicit interfaces (resolve/go-interfaces.ts). */
  "structural",
] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** Kinds that own members, so `this.x` / `Type.x` look inside them. */
export const TYPE_KINDS: ReadonlySet<NodeKind> = new Set([
  "class",
  "struct",
  "interface",
  "trait",
  "enum",
  "type_alias",
]);

/** Kinds whose body can make calls. */
export const CALLABLE_KINDS: ReadonlySet<NodeKind> = new Set(["function", "method", "constructor"]);
