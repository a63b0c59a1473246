import type { ExtractResult, RawReference } from "../core/extraction.js";
import { stableId } from "../core/hash.js";
import { TYPE_KINDS } from "../core/kinds.js";
import type { FileRecord, NodeRow, RefRow } from "../core/rows.js";

/** Hands out ids: a full index counts from 1, a sync continues after the largest stored id. */
export class IdAllocator {
  constructor(
    public nextFile: number,
    public nextNode: number,
    public nextRef: number,
  ) {}
}

export interface FileFacts {
  path: string;
  language: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/**
 * One file's extraction as rows with ids, plus the references the indexer derives so that every
 * edge, structural or not, is re-resolved the same way on sync: one `imports` per module
 * specifier, one `exports` per named re-export, one `overrides` per method of a type with bases.
 */
export function toRecord(facts: FileFacts, r: ExtractResult, ids: IdAllocator): FileRecord {
  const fileId = ids.nextFile++;
  const fileNodeId = ids.nextNode++;
  const base = facts.path.slice(facts.path.lastIndexOf("/") + 1);
  const fileNode: NodeRow = {
    id: fileNodeId,
    uid: stableId(facts.path, "file", facts.path, 0),
    fileId,
    parentId: null,
    kind: "file",
    name: base,
    qualifiedName: facts.path,
    startLine: 1,
    startCol: 0,
    endLine: 1,
    endCol: 0,
    signature: null,
    docstring: null,
    exported: false,
    visibility: null,
    paramCount: null,
    isStatic: false,
  };
  const nodes: NodeRow[] = [fileNode];
  const ordinals = new Map<string, number>();
  const nodeIds = r.symbols.map(() => ids.nextNode++);
  let lastLine = 1;
  r.symbols.forEach((s, i) => {
    const key = `${s.kind}\0${s.qualifiedName}`;
    const ordinal = ordinals.get(key) ?? 0;
    ordinals.set(key, ordinal + 1);
    lastLine = Math.max(lastLine, s.endLine);
    nodes.push({
      id: nodeIds[i]!,
      uid: stableId(facts.path, s.kind, s.qualifiedName, ordinal),
      fileId,
      parentId: s.parent >= 0 ? nodeIds[s.parent]! : fileNodeId,
      kind: s.kind,
      name: s.name,
      qualifiedName: s.qualifiedName,
      startLine: s.startLine,
      startCol: s.startCol,
      endLine: s.endLine,
      endCol: s.endCol,
      signature: s.signature,
      docstring: s.docstring,
      exported: s.exported,
      visibility: s.visibility,
      paramCount: s.paramCount,
      isStatic: s.isStatic,
    });
  });
  fileNode.endLine = lastLine;
  const nodeOf = (index: number) => (index >= 0 ? nodeIds[index]! : fileNodeId);
  const refs: RefRow[] = [];
  const addRef = (ref: RawReference) =>
    refs.push({
      id: ids.nextRef++,
      fileId,
      fromId: nodeOf(ref.from),
      kind: ref.kind,
      name: ref.name,
      receiver: ref.receiver,
      line: ref.line,
      col: ref.col,
      argCount: ref.argCount,
    });
  for (const ref of r.refs) addRef(ref);
  const seenSpecifiers = new Set<string>();
  for (const b of r.imports) {
    if (b.specifier && !seenSpecifiers.has(b.specifier)) {
      seenSpecifiers.add(b.specifier);
      addRef({ kind: "imports", from: -1, name: b.specifier, receiver: null, line: b.line, col: 0, argCount: null });
    }
    if (b.reexport && b.local !== "*") {
      addRef({ kind: "exports", from: -1, name: b.local, receiver: null, line: b.line, col: 0, argCount: null });
    }
  }
  const hasBases = new Set(r.refs.filter((x) => x.kind === "extends" || x.kind === "implements").map((x) => x.from));
  r.symbols.forEach((s, i) => {
    if (s.kind === "method" && hasBases.has(s.parent) && TYPE_KINDS.has(r.symbols[s.parent]?.kind ?? "file")) {
      addRef({
        kind: "overrides",
        from: i,
        name: s.name,
        receiver: null,
        line: s.startLine,
        col: s.startCol,
        argCount: null,
      });
    }
  });
  return {
    file: {
      id: fileId,
      path: facts.path,
      language: facts.language,
      packageName: r.packageName,
      nodeId: fileNodeId,
      size: facts.size,
      mtimeMs: facts.mtimeMs,
      sha256: facts.sha256,
      syntaxErrors: r.syntaxErrors,
    },
    nodes,
    refs,
    imports: r.imports,
    localTypes: r.localTypes.map((t) => ({ scopeId: nodeOf(t.scope), name: t.name, typeName: t.typeName })),
  };
}
