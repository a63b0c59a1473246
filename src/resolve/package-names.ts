import type { FileInfo, Lookup, SymbolInfo } from "../core/lookup.js";

/** Names of one package read one by one before its whole index is built instead. */
const ASKS_BEFORE_INDEX = 32;

interface Package {
  files: readonly FileInfo[];
  asks: number;
  index?: Map<string, SymbolInfo[]>;
}

/**
 * Top-level declarations by name among several files: a Go or Java package, a Rust crate, a module of
 * many files. A full index asks for many names of each package and has every file's symbols in
 * memory, so a package's names are indexed at once. A sync asks for a few, and there indexing a
 * package read every file's symbols with a query per file (a one-file sync of tokio read all 400
 * files of its crate for one macro: 20 ms), so the first names are looked up one by one, and only a
 * package asked often is indexed. Both give the same symbols in the same order: the files' order,
 * then each file's.
 */
export class PackageNames {
  private readonly byKey = new Map<string, Package>();
  private readonly byList = new WeakMap<readonly FileInfo[], Package>();

  constructor(private readonly lookup: Lookup) {}

  /** Top-level declarations named `name` in the package `key` names; `filesOf` lists its files (asked once). */
  named(key: string, filesOf: () => readonly FileInfo[], name: string): SymbolInfo[] {
    let pkg = this.byKey.get(key);
    if (!pkg) this.byKey.set(key, (pkg = { files: filesOf(), asks: 0 }));
    return this.find(pkg, name);
  }

  /** Top-level declarations named `name` in a list of files (a module of many). */
  namedIn(files: readonly FileInfo[], name: string): SymbolInfo[] {
    let pkg = this.byList.get(files);
    if (!pkg) this.byList.set(files, (pkg = { files, asks: 0 }));
    return this.find(pkg, name);
  }

  private find(pkg: Package, name: string): SymbolInfo[] {
    if (!pkg.index && (this.lookup.inMemory || ++pkg.asks > ASKS_BEFORE_INDEX)) pkg.index = this.index(pkg.files);
    if (pkg.index) return pkg.index.get(name) ?? [];
    return this.lookup.topLevelIn(pkg.files, name).filter(isDeclaration);
  }

  private index(files: readonly FileInfo[]): Map<string, SymbolInfo[]> {
    const index = new Map<string, SymbolInfo[]>();
    for (const f of files) {
      for (const s of this.lookup.allTopLevel(f.id)) {
        if (!isDeclaration(s)) continue;
        const list = index.get(s.name);
        if (list) list.push(s);
        else index.set(s.name, [s]);
      }
    }
    return index;
  }
}

export function isDeclaration(s: SymbolInfo): boolean {
  return s.kind !== "import";
}
