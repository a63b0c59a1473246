import type { ImportBinding, RefKind } from "../core/extraction.js";
import type { NodeKind } from "../core/kinds.js";
import type { FileInfo, LocalTypeInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import type { Db } from "./database.js";
import { prepared, unplanned } from "./statements.js";

const FILE_COLS = "id, path, language, package AS packageName, node_id AS nodeId";
const NODE_COLS =
  "id, file_id AS fileId, parent_id AS parentId, kind, name, qualified_name AS qualifiedName, param_count AS paramCount, exported, is_static AS isStatic";

interface NodeSqlRow extends Omit<SymbolInfo, "exported" | "kind" | "isStatic"> {
  kind: string;
  exported: number;
  isStatic: number;
}

function toSymbol(r: NodeSqlRow): SymbolInfo {
  return { ...r, kind: r.kind as NodeKind, exported: r.exported === 1, isStatic: r.isStatic === 1 };
}

/**
 * The resolver's questions answered from the index on disk, for incremental sync: only the few
 * references touched by a change are resolved, so a handful of indexed queries beat loading the graph.
 */
export class SqliteLookup implements Lookup {
  readonly inMemory = false;
  private readonly q;
  private readonly fileCache = new Map<number, FileInfo | undefined>();
  private readonly symbolCache = new Map<number, SymbolInfo | undefined>();
  private readonly importCache = new Map<number, ImportBinding[]>();
  private readonly typeCache = new Map<number, LocalTypeInfo[]>();
  /**
   * A scope's declarations by name: each enclosing scope of each reference is asked (a go-stdlib sync
   * resolving 120k references asked 0.3 s of repeats).
   */
  private readonly childCache = new Map<string, SymbolInfo[]>();
  /** A folder's files by language and folder: a package's files, asked for by each of its files. */
  private readonly dirCache = new Map<string, FileInfo[]>();

  constructor(db: Db) {
    this.q = {
      file: prepared(db, `SELECT ${FILE_COLS} FROM files WHERE id = ?`),
      fileByPath: prepared(db, `SELECT ${FILE_COLS} FROM files WHERE path = ?`),
      // LIKE is case-insensitive in SQLite, where paths (and the in-memory lookup) are not: it keeps
      // only the candidates, and the exact test decides.
      bySuffix: prepared(
        db,
        `SELECT ${FILE_COLS} FROM files
         WHERE path = @suffix OR (path LIKE ${unplanned("@pattern")} ESCAPE '\\' AND substr(path, -length(@tail)) = @tail) ORDER BY path`,
      ),
      // A folder's files are a range of the path index: LIKE, case-insensitive, could not use it and read
      // every file's row (a go-stdlib sync looking up packages: 0.65 s).
      inDir: prepared(
        db,
        `SELECT ${FILE_COLS} FROM files WHERE path >= @from AND path < @to AND instr(substr(path, length(@from) + 1), '/') = 0
         AND language = @language ORDER BY path`,
      ),
      under: prepared(
        db,
        `SELECT ${FILE_COLS} FROM files WHERE path >= @from AND path < @to AND language = @language ORDER BY path`,
      ),
      inPackage: prepared(db, `SELECT ${FILE_COLS} FROM files WHERE package = ? AND language = ? ORDER BY path`),
      symbol: prepared(db, `SELECT ${NODE_COLS} FROM nodes WHERE id = ?`),
      childrenAll: prepared(db, `SELECT ${NODE_COLS} FROM nodes WHERE parent_id = ? ORDER BY id`),
      importNodes: prepared(db, `SELECT ${NODE_COLS} FROM nodes WHERE file_id = ? AND kind = 'import' ORDER BY id`),
      topLevelIn: prepared(
        db,
        `SELECT ${NODE_COLS} FROM nodes WHERE name = ? AND parent_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      ),
      children: prepared(db, `SELECT ${NODE_COLS} FROM nodes WHERE parent_id = ? AND name = ? ORDER BY id`),
      byQname: prepared(db, `SELECT ${NODE_COLS} FROM nodes WHERE file_id = ? AND qualified_name = ? ORDER BY id`),
      named: prepared(
        db,
        `SELECT n.id, n.file_id AS fileId, n.parent_id AS parentId, n.kind, n.name, n.qualified_name AS qualifiedName,
           n.param_count AS paramCount, n.exported, n.is_static AS isStatic
         FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.name = ? ORDER BY f.path, n.id`,
      ),
      imports: prepared(
        db,
        "SELECT local, imported, specifier, line, reexport FROM imports WHERE file_id = ? ORDER BY rowid",
      ),
      types: prepared(
        db,
        "SELECT scope_id AS scopeId, name, type_name AS typeName, line FROM local_types WHERE file_id = ? ORDER BY rowid",
      ),
      heritage: prepared(
        db,
        `SELECT id, file_id AS fileId, from_id AS fromId, kind, name, receiver, line, arg_count AS argCount
         FROM refs WHERE from_id = ? AND kind IN ('extends', 'implements') ORDER BY id`,
      ),
      heritageNamed: prepared(
        db,
        `SELECT id, file_id AS fileId, from_id AS fromId, kind, name, receiver, line, arg_count AS argCount
         FROM refs WHERE name = ? AND kind IN ('extends', 'implements') ORDER BY id`,
      ),
    };
  }

  file(id: number): FileInfo | undefined {
    if (!this.fileCache.has(id)) this.fileCache.set(id, this.q.file.get(id) as FileInfo | undefined);
    return this.fileCache.get(id);
  }
  fileByPath(path: string): FileInfo | undefined {
    return this.q.fileByPath.get(path) as FileInfo | undefined;
  }
  filesByPathSuffix(suffix: string): FileInfo[] {
    return this.q.bySuffix.all({ suffix, pattern: `%/${escapeLike(suffix)}`, tail: `/${suffix}` }) as FileInfo[];
  }
  filesInDir(dir: string, language: string): FileInfo[] {
    const key = `${language}\0${dir}`;
    let files = this.dirCache.get(key);
    if (!files) this.dirCache.set(key, (files = this.q.inDir.all({ ...pathRange(dir), language }) as FileInfo[]));
    return files;
  }
  filesUnder(dir: string, language: string): FileInfo[] {
    return this.q.under.all({ ...pathRange(dir), language }) as FileInfo[];
  }
  filesInPackage(packageName: string, language: string): FileInfo[] {
    return this.q.inPackage.all(packageName, language) as FileInfo[];
  }
  symbol(id: number): SymbolInfo | undefined {
    if (!this.symbolCache.has(id)) {
      const row = this.q.symbol.get(id) as NodeSqlRow | undefined;
      this.symbolCache.set(id, row ? toSymbol(row) : undefined);
    }
    return this.symbolCache.get(id);
  }
  topLevel(fileId: number, name: string): SymbolInfo[] {
    const f = this.file(fileId);
    return f ? this.children(f.nodeId, name) : [];
  }
  allTopLevel(fileId: number): SymbolInfo[] {
    const f = this.file(fileId);
    return f ? (this.q.childrenAll.all(f.nodeId) as NodeSqlRow[]).map(toSymbol) : [];
  }
  importNodes(fileId: number): readonly SymbolInfo[] {
    return (this.q.importNodes.all(fileId) as NodeSqlRow[]).map(toSymbol);
  }
  topLevelIn(files: readonly FileInfo[], name: string): SymbolInfo[] {
    const place = new Map(files.map((f, i) => [f.nodeId, i]));
    const rows = this.q.topLevelIn.all(name, JSON.stringify([...place.keys()])) as NodeSqlRow[];
    // By id already: a stable sort by file keeps each file's own order.
    return rows.sort((a, b) => place.get(a.parentId!)! - place.get(b.parentId!)!).map(toSymbol);
  }
  children(parentId: number, name: string): SymbolInfo[] {
    const key = `${parentId}\0${name}`;
    let found = this.childCache.get(key);
    if (!found) this.childCache.set(key, (found = (this.q.children.all(parentId, name) as NodeSqlRow[]).map(toSymbol)));
    return found;
  }
  byQualifiedName(fileId: number, qualifiedName: string): SymbolInfo[] {
    return (this.q.byQname.all(fileId, qualifiedName) as NodeSqlRow[]).map(toSymbol);
  }
  named(name: string): SymbolInfo[] {
    return (this.q.named.all(name) as NodeSqlRow[]).map(toSymbol);
  }
  imports(fileId: number): readonly ImportBinding[] {
    let hit = this.importCache.get(fileId);
    if (!hit) {
      hit = (this.q.imports.all(fileId) as (Omit<ImportBinding, "reexport"> & { reexport: number })[]).map((r) => ({
        ...r,
        reexport: r.reexport === 1,
      }));
      this.importCache.set(fileId, hit);
    }
    return hit;
  }
  localTypes(fileId: number): readonly LocalTypeInfo[] {
    let hit = this.typeCache.get(fileId);
    if (!hit) {
      hit = this.q.types.all(fileId) as LocalTypeInfo[];
      this.typeCache.set(fileId, hit);
    }
    return hit;
  }
  heritage(typeId: number): readonly RefInfo[] {
    return refInfos(this.q.heritage.all(typeId));
  }
  heritageNamed(name: string): readonly RefInfo[] {
    return refInfos(this.q.heritageNamed.all(name));
  }
}

function refInfos(rows: unknown[]): RefInfo[] {
  return (rows as (Omit<RefInfo, "kind"> & { kind: string })[]).map((r) => ({ ...r, kind: r.kind as RefKind }));
}

/** The paths under a folder ("" for the project's root), as a range: `dir/` up to `dir0` ('0' follows '/'). */
function pathRange(dir: string): { from: string; to: string } {
  return dir ? { from: `${dir}/`, to: `${dir}0` } : { from: "", to: "\u{10FFFF}" };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
