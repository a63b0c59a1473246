import {
  GO_DECLARATION_KINDS,
  goFileShape,
  type GoDeclaration,
  type GoDeclarations,
  type GoEmbed,
  type GoFile,
} from "../core/go-method-sets.js";
import type { RefInfo } from "../core/lookup.js";
import type { FileRecord } from "../core/rows.js";
import { implicitImplementations } from "../resolve/go-interfaces.js";
import type { Db } from "../store/database.js";
import { goDeclarations, writeStructuralEdges } from "../store/go-method-sets.js";

const KINDS: ReadonlySet<string> = new Set(GO_DECLARATION_KINDS);

/**
 * Derive Go's implicit interfaces again (see resolve/go-interfaces.ts) after a sync changed a Go file:
 * they depend on every Go file's types, methods and embeddings, so all are read from the index, and
 * what changed is written. (A full index derives them from what it gathered, `GoDeclarationsSeen`,
 * and writes them with the resolved edges.)
 */
export function linkGoInterfaces(db: Db): void {
  const seen = goDeclarations(db);
  writeStructuralEdges(
    db,
    implicitImplementations(seen),
    seen.declarations.map((d) => d.id),
  );
}

/** What a full index gathers of its Go files for `implicitImplementations`, in the order `goDeclarations` reads it. */
export class GoDeclarationsSeen implements GoDeclarations {
  readonly files: GoFile[] = [];
  readonly declarations: GoDeclaration[] = [];
  readonly embeds: GoEmbed[] = [];

  /** A file as parsed (records come in id order). */
  file(r: FileRecord): void {
    if (r.file.language !== "go") return;
    const { id, path, packageName, nodeId } = r.file;
    this.files.push({ id, path, packageName, nodeId });
    for (const n of r.nodes)
      if (KINDS.has(n.kind))
        this.declarations.push({
          id: n.id,
          kind: n.kind,
          name: n.name,
          qualifiedName: n.qualifiedName,
          parentId: n.parentId,
          paramCount: n.paramCount,
          fileId: n.fileId,
          line: n.startLine,
        });
  }

  /** A reference of a Go file as resolved: an embedding, and what it reached. */
  resolved(ref: RefInfo, targets: readonly { targetId: number }[]): void {
    if (ref.kind !== "extends") return;
    const { fromId: sourceId, name, receiver } = ref;
    if (!targets.length) this.embeds.push({ sourceId, targetId: null, name, receiver });
    for (const t of targets) this.embeds.push({ sourceId, targetId: t.targetId, name, receiver });
  }
}

/** What a parsed Go file contributes to the project's method sets (see `goFileShape`). */
export function parsedGoShape(r: FileRecord): string {
  const byId = new Map(r.nodes.map((n) => [n.id, n]));
  return goFileShape(
    r.file.packageName,
    r.nodes
      .filter((n) => KINDS.has(n.kind))
      .map((n) => ({
        kind: n.kind,
        qualifiedName: n.qualifiedName,
        parentKind: (n.parentId === null ? undefined : byId.get(n.parentId)?.kind) ?? null,
        paramCount: n.paramCount,
      })),
    r.refs.flatMap((ref) => {
      const from = byId.get(ref.fromId);
      return ref.kind === "extends" && from
        ? [{ from: from.qualifiedName, name: ref.name, receiver: ref.receiver }]
        : [];
    }),
    r.imports,
  );
}
