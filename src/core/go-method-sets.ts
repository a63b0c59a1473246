/**
 * What Go's implicit interfaces are derived from, and the edges derived (see
 * `resolve/go-interfaces.ts`). A full index collects it in memory, a sync reads it from the index
 * (`store/go-method-sets.ts`): both hand the derivation the same rows.
 */

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
