import type { ImportBinding } from "../core/extraction.js";
import type { FileInfo, LocalTypeInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import type { RefRow } from "../core/rows.js";
import { dirOf } from "../core/paths.js";

/** One file's resolver-facing data, as a full index holds it before (and after) writing it. */
export interface MemoryFile {
  file: FileInfo;
  nodes: readonly SymbolInfo[];
  refs: readonly RefRow[];
  imports: readonly ImportBinding[];
  localTypes: readonly LocalTypeInfo[];
}

const EMPTY: never[] = [];

/** The resolver's questions answered from memory during a full index: no SQL on the hot path. */
export class MemoryLookup implements Lookup {
  readonly inMemory = true;
  private readonly files = new Map<number, MemoryFile>();
  private readonly byPath = new Map<string, FileInfo>();
  private readonly byBasename = new Map<string, FileInfo[]>();
  private readonly byDir = new Map<string, FileInfo[]>();
  private readonly byPackage = new Map<string, FileInfo[]>();
  private readonly symbols = new Map<number, SymbolInfo>();
  // Keyed by id, then name: the resolver's hottest questions, so no key string is built per call.
  private readonly childIndex = new Map<number, Map<string, SymbolInfo[]>>();
  private readonly topLevelIndex = new Map<number, SymbolInfo[]>();
  private readonly importIndex = new Map<number, SymbolInfo[]>();
  private readonly qnameIndex = new Map<number, Map<string, SymbolInfo[]>>();
  private readonly heritageIndex = new Map<number, RefInfo[]>();
  private readonly heritageByName = new Map<string, RefInfo[]>();
  private nameIndex: Map<string, SymbolInfo[]> | null = null;
  /** What `bearsName` answers from: every symbol's name, import's local name and typed local's. */
  private readonly names = new Set<string>();

  /** Whether the file lists by folder, package and base name are in path order (see `sortLists`). */
  private sorted = true;

  constructor(all: Iterable<MemoryFile> = []) {
    for (const mf of all) this.add(mf);
  }

  /**
   * Take in one more file. A full index adds each file as its parse arrives, while the other thread
   * still parses: built after the last, the lookup was 12-26 ms of the serial tail on Django.
   */
  add(mf: MemoryFile): void {
    const f = mf.file;
    this.files.set(f.id, mf);
    this.byPath.set(f.path, f);
    push(this.byBasename, f.path.slice(f.path.lastIndexOf("/") + 1), f);
    push(this.byDir, `${f.language}\0${dirOf(f.path)}`, f);
    if (f.packageName !== null) push(this.byPackage, `${f.language}\0${f.packageName}`, f);
    for (const n of mf.nodes) {
      this.symbols.set(n.id, n);
      if (n.parentId !== null) push(inner(this.childIndex, n.parentId), n.name, n);
      if (n.parentId === f.nodeId) push(this.topLevelIndex, f.id, n);
      if (n.kind === "import") push(this.importIndex, f.id, n);
      push(inner(this.qnameIndex, n.fileId), n.qualifiedName, n);
      this.names.add(n.name);
    }
    for (const b of mf.imports) this.names.add(b.local);
    for (const t of mf.localTypes) this.names.add(t.name);
    for (const r of mf.refs)
      if (r.kind === "extends" || r.kind === "implements") {
        push(this.heritageIndex, r.fromId, r);
        push(this.heritageByName, r.name, r);
      }
    this.sorted = false;
    this.nameIndex = null;
  }

  /** Files come in the order parsing finished them; the lists hand them out in path order. */
  private sortLists(): void {
    if (this.sorted) return;
    for (const list of [...this.byDir.values(), ...this.byPackage.values(), ...this.byBasename.values()]) {
      list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
    this.sorted = true;
  }

  file(id: number): FileInfo | undefined {
    return this.files.get(id)?.file;
  }
  fileByPath(path: string): FileInfo | undefined {
    return this.byPath.get(path);
  }
  filesByPathSuffix(suffix: string): FileInfo[] {
    this.sortLists();
    const base = suffix.slice(suffix.lastIndexOf("/") + 1);
    return (this.byBasename.get(base) ?? EMPTY).filter((f) => f.path === suffix || f.path.endsWith(`/${suffix}`));
  }
  filesInDir(dir: string, language: string): FileInfo[] {
    this.sortLists();
    return this.byDir.get(`${language}\0${dir}`) ?? EMPTY;
  }
  filesUnder(dir: string, language: string): FileInfo[] {
    const prefix = dir ? `${dir}/` : "";
    const out: FileInfo[] = [];
    for (const mf of this.files.values())
      if (mf.file.language === language && mf.file.path.startsWith(prefix)) out.push(mf.file);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  filesInPackage(packageName: string, language: string): FileInfo[] {
    this.sortLists();
    return this.byPackage.get(`${language}\0${packageName}`) ?? EMPTY;
  }
  symbol(id: number): SymbolInfo | undefined {
    return this.symbols.get(id);
  }
  topLevel(fileId: number, name: string): SymbolInfo[] {
    const f = this.files.get(fileId);
    return f ? this.children(f.file.nodeId, name) : EMPTY;
  }
  allTopLevel(fileId: number): SymbolInfo[] {
    return this.topLevelIndex.get(fileId) ?? EMPTY;
  }
  importNodes(fileId: number): readonly SymbolInfo[] {
    return this.importIndex.get(fileId) ?? EMPTY;
  }
  topLevelIn(files: readonly FileInfo[], name: string): SymbolInfo[] {
    return files.flatMap((f) => this.topLevel(f.id, name));
  }
  children(parentId: number, name: string): SymbolInfo[] {
    return this.childIndex.get(parentId)?.get(name) ?? EMPTY;
  }
  byQualifiedName(fileId: number, qualifiedName: string): SymbolInfo[] {
    return this.qnameIndex.get(fileId)?.get(qualifiedName) ?? EMPTY;
  }
  named(name: string): SymbolInfo[] {
    // Built on first use: only C-family resolution asks project-wide.
    if (!this.nameIndex) {
      this.nameIndex = new Map();
      // Files by path, so the order does not depend on which worker finished a file first.
      const files = [...this.files.values()].sort((a, b) =>
        a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0,
      );
      for (const mf of files) for (const n of mf.nodes) push(this.nameIndex, n.name, n);
    }
    return this.nameIndex.get(name) ?? EMPTY;
  }
  imports(fileId: number): readonly ImportBinding[] {
    return this.files.get(fileId)?.imports ?? EMPTY;
  }
  localTypes(fileId: number): readonly LocalTypeInfo[] {
    return this.files.get(fileId)?.localTypes ?? EMPTY;
  }
  heritageNamed(name: string): readonly RefInfo[] {
    return this.heritageByName.get(name) ?? EMPTY;
  }
  heritage(typeId: number): readonly RefInfo[] {
    return this.heritageIndex.get(typeId) ?? EMPTY;
  }
  bearsName(name: string): boolean {
    return this.names.has(name);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function inner<K, V>(map: Map<K, Map<string, V[]>>, key: K): Map<string, V[]> {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map()));
  return m;
}
