import { GO_DECLARATION_KINDS, type GoDeclarations } from "../core/go-method-sets.js";
import type { RefInfo } from "../core/lookup.js";
import type { FileRecord } from "../core/rows.js";
import { implicitImplementations } from "../resolve/go-interfaces.js";
import type { Db } from "../store/database.js";
import { goDeclarations, writeStructuralEdges } from "../store/go-method-sets.js";

const KINDS: ReadonlySet<string> = new Set(GO_DECLARATION_KINDS);

/**
 * Derive Go's implicit interfaces (see resolve/go-interfaces.ts). They depend on every Go file's types,
 * methods and embeddings: a full index hands over what it gathered (`GoDeclarationsSeen`) and stores
 * them; a sync that changed a Go file reads them all again from the index, and writes what changed.
 * Returns how many edges of each kind were derived.
 */
export function linkGoInterfaces(db: Db, gathered?: GoDeclarations): Map<string, number> {
  const seen = gathered ?? goDeclarations(db);
  const edges = implicitImplementations(seen);
  writeStructuralEdges(db, edges, gathered ? null : seen.declarations.map((d) => d.id));
  const byKind = new Map<string, number>();
  for (const e of edges) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
  return byKind;
}

/** What a full index gathers of its Go files for `linkGoInterfaces`, in the order `goDeclarations` reads it. */
export class GoDeclarationsSeen implements GoDeclarations {
  readonly files: GoDeclarations["files"][number][] = [];
  readonly declarations: GoDeclarations["declarations"][number][] = [];
  readonly embeds: GoDeclarations["embeds"][number][] = [];

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
