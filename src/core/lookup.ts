import type { ImportBinding, RefKind } from "./extraction.js";
import type { NodeKind } from "./kinds.js";

/** A file as the resolver sees it. `nodeId` is the file's own node, the target of module imports. */
export interface FileInfo {
  id: number;
  path: string;
  language: string;
  packageName: string | null;
  nodeId: number;
}

/** A declaration as the resolver sees it. */
export interface SymbolInfo {
  id: number;
  fileId: number;
  parentId: number | null;
  kind: NodeKind;
  name: string;
  qualifiedName: string;
  paramCount: number | null;
  exported: boolean;
  /** A static member (`static create()`), or a class method where the language has them. */
  isStatic: boolean;
}

/** A reference waiting for resolution, as stored. `fromId` is a node id (the file's node at file level). */
export interface RefInfo {
  id: number;
  fileId: number;
  fromId: number;
  kind: RefKind;
  name: string;
  receiver: string | null;
  line: number;
  argCount: number | null;
}

export interface LocalTypeInfo {
  scopeId: number;
  name: string;
  typeName: string;
  /** Where the name gets this type (1-based). */
  line: number;
}

/**
 * Everything the resolver may ask about the project. Two implementations answer it: one from memory
 * during a full index, one from SQLite during incremental sync. The resolver never sees which, so both
 * paths give the same graph.
 */
export interface Lookup {
  /**
   * How the resolver should ask for many files' names, which changes nothing it gets: true when
   * every file's symbols are in memory (index a package at once), false when each file is a query
   * (look a few names up one by one first).
   */
  readonly inMemory: boolean;
  file(id: number): FileInfo | undefined;
  fileByPath(path: string): FileInfo | undefined;
  /** Files whose path is `suffix` or ends with `/suffix`. */
  filesByPathSuffix(suffix: string): FileInfo[];
  filesInDir(dir: string, language: string): FileInfo[];
  /** Files of a language anywhere below a folder ("" for the whole project), by path. */
  filesUnder(dir: string, language: string): FileInfo[];
  filesInPackage(packageName: string, language: string): FileInfo[];
  symbol(id: number): SymbolInfo | undefined;
  /** Symbols declared directly in the file (parent is the file), by name. */
  topLevel(fileId: number, name: string): SymbolInfo[];
  /** Every symbol declared directly in the file. */
  allTopLevel(fileId: number): SymbolInfo[];
  /** The file's `import` nodes at any depth (a Python import inside a function is under it), by id. */
  importNodes(fileId: number): readonly SymbolInfo[];
  /** Symbols declared directly in any of the files, by name: in the files' order, then each file's. */
  topLevelIn(files: readonly FileInfo[], name: string): SymbolInfo[];
  /** Symbols declared directly inside another symbol, by name. */
  children(parentId: number, name: string): SymbolInfo[];
  /** Symbols in a file with an exact qualified name (members of a type: `Type.member`). */
  byQualifiedName(fileId: number, qualifiedName: string): SymbolInfo[];
  /**
   * Every symbol of the project with this name, in any file (C's one namespace of linked names), by
   * file path, then in order of declaration: the same order whichever way the index was built.
   */
  named(name: string): SymbolInfo[];
  imports(fileId: number): readonly ImportBinding[];
  localTypes(fileId: number): readonly LocalTypeInfo[];
  /** The extends/implements references written on a type declaration. */
  heritage(typeId: number): readonly RefInfo[];
  /** Every extends/implements reference that names `name` (as written, last segment), in any file. */
  heritageNamed(name: string): readonly RefInfo[];
  /**
   * False when no symbol, import or typed local of the project bears the name: a reference by it
   * reaches nothing, whatever its receiver. Left out by a lookup that does not hold the whole
   * project at once (the resolver then works every reference out).
   */
  bearsName?(name: string): boolean;
}
