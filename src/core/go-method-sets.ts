/**
 * What Go's implicit interfaces are derived from, and the edges derived (see
 * `resolve/go-interfaces.ts`). A full index collects it in memory, a sync reads it from the index
 * (`store/go-method-sets.ts`): both hand the derivation the same rows.
 */

/** Go exports a name that starts with an upper-case letter. */
export const isExported = (name: string): boolean => name[0] !== undefined && name[0] !== name[0].toLowerCase();

export interface GoFile {
  id: number;
  path: string;
  packageName: string | null;
  /** The file's own node: the parent of what it declares at its top level. */
  nodeId: number;
}

/** A type (struct, interface, other named type) or a method, of a Go file. */
export interface GoDeclaration {
  id: number;
  kind: string;
  name: string;
  qualifiedName: string;
  parentId: number | null;
  paramCount: number | null;
  fileId: number;
  line: number;
}

/** A field or interface embedded in a type, and what it resolved to (null: nothing in the project). */
export interface GoEmbed {
  sourceId: number;
  targetId: number | null;
  name: string;
  receiver: string | null;
}

export interface GoDeclarations {
  files: readonly GoFile[];
  declarations: readonly GoDeclaration[];
  embeds: readonly GoEmbed[];
}

/** The node kinds `GoDeclarations` holds. */
export const GO_DECLARATION_KINDS = ["struct", "interface", "type_alias", "method"] as const;

export interface DerivedEdge {
  sourceId: number;
  targetId: number;
  kind: "implements" | "overrides";
  fileId: number;
  line: number;
}

/** A declaration as `goFileShape` reads it: what the method sets of the project depend on. */
export interface GoShapeDeclaration {
  kind: string;
  qualifiedName: string;
  parentKind: string | null;
  paramCount: number | null;
}

/**
 * What a Go file contributes to the project's method sets, as text: its package, its types and
 * methods (by kind, qualified name, parameter count and what holds them), what its types embed and
 * the imports those are read through. An edit that leaves it as it was (a function's body, a
 * comment) changes no implicit interface, whatever lines it moves.
 */
export function goFileShape(
  packageName: string | null,
  declarations: readonly GoShapeDeclaration[],
  embeds: readonly { from: string; name: string; receiver: string | null }[],
  imports: readonly { local: string; specifier: string }[],
): string {
  // Of the imports, those an embedded name is read through (`pkg.Base`): a file's others change
  // with every new use of a package (Go's imports are bound by use).
  const through = new Set(embeds.flatMap((e) => (e.receiver === null ? [] : [e.receiver, `${e.receiver}.${e.name}`])));
  const lines = [
    ...declarations.map((d) => `d ${d.kind} ${d.qualifiedName} ${d.parentKind ?? ""} ${d.paramCount ?? ""}`),
    ...embeds.map((e) => `e ${e.from} ${e.receiver ?? ""} ${e.name}`),
    ...imports.flatMap((i) => (through.has(i.local) ? [`i ${i.local} ${i.specifier}`] : [])),
  ];
  return `${packageName ?? ""}\n${lines.sort().join("\n")}`;
}

/**
 * How a Go file's shape changed: the names of the methods of concrete types that came, went or
 * changed their parameters, when nothing else did; null when anything else did (a type, an
 * interface, an embedding, an import read through, the package). Such methods change the project's
 * implicit interfaces only where an interface asks for one of those names.
 */
export function goMethodsChanged(before: string, after: string): string[] | null {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a[0] !== b[0]) return null;
  const was = new Set(a.slice(1).filter(Boolean));
  const is = new Set(b.slice(1).filter(Boolean));
  const names = new Set<string>();
  for (const line of [...[...was].filter((l) => !is.has(l)), ...[...is].filter((l) => !was.has(l))]) {
    // `d method T.M <parent kind> <parameters>`: a concrete type's method is top-level (its parent is the file).
    const [tag, kind, qualified, parentKind] = line.split(" ");
    if (tag !== "d" || kind !== "method" || parentKind !== "file") return null;
    names.add(qualified!.slice(qualified!.lastIndexOf(".") + 1));
  }
  return [...names];
}
