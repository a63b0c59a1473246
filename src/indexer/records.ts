import type { ExtractResult, RawReference } from "../core/extraction.js";
import { stableId } from "../core/hash.js";
import { TYPE_KINDS, type NodeKind } from "../core/kinds.js";
import type { FileRecord, NodeRow, RefRow } from "../core/rows.js";
import { bindingNames, localTypeFacts, type Facts } from "../store/reader.js";
import { roleOf, type NamedRole } from "../core/changed-names.js";

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
 * specifier, one `exports` per named re-export, one `overrides` per method of a type with bases
 * (and per property, in Kotlin and Swift).
 */
export function toRecord(
  facts: FileFacts,
  r: ExtractResult,
  ids: IdAllocator,
  reuse?: { fileId: number; nodeIds: ReadonlyMap<string, number> },
): FileRecord {
  // A modified file keeps its file id and the node ids of declarations that survive (same stable id).
  const idFor = (uid: string) => reuse?.nodeIds.get(uid) ?? ids.nextNode++;
  const fileId = reuse?.fileId ?? ids.nextFile++;
  const fileUid = stableId(facts.path, "file", facts.path, 0);
  const fileNodeId = idFor(fileUid);
  const base = facts.path.slice(facts.path.lastIndexOf("/") + 1);
  const fileNode: NodeRow = {
    id: fileNodeId,
    uid: fileUid,
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
  // Loops rather than `map`: with `map`, V8 threw away the optimised code reading these arrays
  // ("wrong map" in --trace-deopt) and compiled it again.
  const uids: string[] = [];
  const nodeIds: number[] = [];
  for (const s of r.symbols) {
    const key = `${s.kind}\0${s.qualifiedName}`;
    const ordinal = ordinals.get(key) ?? 0;
    ordinals.set(key, ordinal + 1);
    const uid = stableId(facts.path, s.kind, s.qualifiedName, ordinal);
    uids.push(uid);
    nodeIds.push(idFor(uid));
  }
  let lastLine = 1;
  r.symbols.forEach((s, i) => {
    lastLine = Math.max(lastLine, s.endLine);
    nodes.push({
      id: nodeIds[i]!,
      uid: uids[i]!,
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
  // A Rust trait's method overrides none of its supertraits' (`trait AsyncBufReadExt: AsyncBufRead`
  // declares a `consume` of its own beside `AsyncBufRead::consume`; a call names one or the other).
  const rust = facts.language === "rust";
  const overriding = (kind: NodeKind | undefined) => TYPE_KINDS.has(kind ?? "file") && !(rust && kind === "trait");
  const properties = PROPERTY_OVERRIDES.has(facts.language);
  r.symbols.forEach((s, i) => {
    if (
      (s.kind === "method" || (properties && s.kind === "property")) &&
      hasBases.has(s.parent) &&
      overriding(r.symbols[s.parent]?.kind) &&
      mayOverride(facts.language, s)
    ) {
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
    localTypes: r.localTypes.map((t) => ({
      scopeId: nodeOf(t.scope),
      name: t.name,
      typeName: t.typeName,
      line: t.line,
    })),
  };
}

/** The same facts `storedFacts` reads back from the index, computed from a record before it is written. */
export function recordFacts(r: FileRecord): Facts {
  const byId = new Map(r.nodes.map((n) => [n.id, n]));
  const facts: string[] = [];
  const names: NamedRole[][] = [];
  for (const n of r.nodes) {
    const parent = n.parentId === null ? undefined : byId.get(n.parentId);
    facts.push(
      `s|${n.uid}|${n.kind}|${n.paramCount ?? ""}|${n.exported ? 1 : 0}|${n.isStatic ? 1 : 0}|${parent?.uid ?? ""}`,
    );
    names.push([{ name: n.name, role: roleOf(n.kind, parent?.kind ?? null) }]);
  }
  for (const i of r.imports) {
    facts.push(`i|${i.local}|${i.imported ?? ""}|${i.specifier}|${i.reexport ? 1 : 0}`);
    names.push(bindingNames(i));
  }
  localTypeFacts(
    r.localTypes.map((t) => {
      const scope = byId.get(t.scopeId);
      const where = { scope: scope?.uid ?? "", scopeKind: scope?.kind ?? null, scopeName: scope?.name ?? null };
      return { ...where, name: t.name, typeName: t.typeName };
    }),
    facts,
    names,
  );
  return { facts, names };
}

/** Names involved in facts present on one side only. */
export function changedNames(before: Facts, after: Facts): NamedRole[] {
  const out: NamedRole[] = [];
  const diff = (a: Facts, b: Facts) => {
    const other = new Set(b.facts);
    a.facts.forEach((f, i) => {
      if (!other.has(f)) for (const n of a.names[i]!) if (n.name) out.push(n);
    });
  };
  diff(before, after);
  diff(after, before);
  return out;
}

/**
 * Languages whose properties override their bases' as methods do: Kotlin's `override val`, Swift's
 * `override var` and properties satisfying a protocol's requirement.
 */
const PROPERTY_OVERRIDES = new Set(["kotlin", "swift"]);

/**
 * Whether a method (or property) may override one of its bases': in Java not a private or static one
 * (a private method is not inherited, a static one hides), in Kotlin only one declared `override`.
 */
function mayOverride(
  language: string,
  s: { visibility: string | null; isStatic: boolean; signature: string | null },
): boolean {
  if (language === "java") return s.visibility !== "private" && !s.isStatic;
  if (language === "kotlin") return /(^|\s)override\s/.test(s.signature?.split(/\b(?:fun|val|var)\b/)[0] ?? "");
  return true;
}
