import { forEachEdge, type EdgeBatch } from "../core/edge-batch.js";
import type { RefInfo } from "../core/lookup.js";
import type { FileRecord, RefRow } from "../core/rows.js";
import type { Db } from "./database.js";
import { RowBatch } from "./row-batch.js";
import { prepared } from "./statements.js";
import { searchWords } from "./words.js";

/** Prepared statements for writing, compiled once per connection. */
export class Writer {
  private readonly insFile;
  private readonly insSearch;
  private readonly clearEdges;
  /**
   * Rows of nodes, edges, references, imports and local types, written many to a statement
   * (RowBatch). They wait only inside a bulk operation (`insertFile(r, false)`, `insertResolved`)
   * until `flush`; every other method writes its rows before it returns.
   */
  private readonly nodeRows;
  private readonly edgeRows;
  private readonly refRows;
  private readonly importRows;
  private readonly typeRows;
  /** Nodes and edges this writer inserted, by kind: what a full index records in `kind_counts`. */
  readonly written = { nodes: new Map<string, number>(), edges: new Map<string, number>() };

  /**
   * `bulk: true` (a full index) leaves the full-text index and the containment edges to
   * `finishParsedTables`, which derives both from the nodes table in a statement each, on the
   * finishing thread: a fifth of the rows parsing stored on the main thread were containment edges.
   */
  constructor(
    readonly db: Db,
    private readonly options: { bulk: boolean } = { bulk: false },
  ) {
    this.insFile = db.prepare(
      "INSERT INTO files(id, path, language, size, mtime_ms, sha256, package, syntax_errors, node_id) VALUES (?,?,?,?,?,?,?,?,?)",
    );
    this.insSearch = db.prepare(
      "INSERT INTO search(rowid, name, words, qualified_name, signature, docstring) VALUES (?,?,?,?,?,?)",
    );
    this.clearEdges = db.prepare("DELETE FROM edges WHERE ref_id IN (SELECT value FROM json_each(?))");
    this.nodeRows = new RowBatch(
      db,
      `INSERT INTO nodes(id, uid, file_id, parent_id, kind, name, qualified_name, start_line, start_col, end_line, end_col,
        signature, docstring, exported, visibility, param_count, is_static)`,
      17,
    );
    this.edgeRows = new RowBatch(
      db,
      "INSERT INTO edges(source_id, target_id, kind, file_id, line, resolution, ref_id)",
      7,
    );
    this.refRows = new RowBatch(
      db,
      "INSERT INTO refs(id, file_id, from_id, kind, name, receiver, line, col, arg_count)",
      9,
    );
    this.importRows = new RowBatch(db, "INSERT INTO imports(file_id, local, imported, specifier, line, reexport)", 6);
    this.typeRows = new RowBatch(db, "INSERT INTO local_types(file_id, scope_id, name, type_name, line)", 5);
  }

  /** Write the rows a bulk operation left waiting; before its transaction ends. */
  flush(): void {
    this.nodeRows.flush();
    this.edgeRows.flush();
    this.refRows.flush();
    this.importRows.flush();
    this.typeRows.flush();
  }

  /**
   * Insert one file's nodes, references and imports, and, but in a bulk load, its full-text rows and
   * containment edges. With `flush` false the rows may wait for more (a bulk load of many files):
   * call `flush` before the transaction ends.
   */
  insertFile(r: FileRecord, flush = true): void {
    const f = r.file;
    this.insFile.run(f.id, f.path, f.language, f.size, f.mtimeMs, f.sha256, f.packageName, f.syntaxErrors, f.nodeId);
    for (const n of r.nodes) {
      this.nodeRows.add(
        n.id,
        n.uid,
        n.fileId,
        n.parentId,
        n.kind,
        n.name,
        n.qualifiedName,
        n.startLine,
        n.startCol,
        n.endLine,
        n.endCol,
        n.signature,
        n.docstring,
        n.exported ? 1 : 0,
        n.visibility,
        n.paramCount,
        n.isStatic ? 1 : 0,
      );
      tally(this.written.nodes, n.kind);
      if (!this.options.bulk && n.kind !== "import") {
        this.insSearch.run(n.id, n.name, searchWords(n.name), n.qualifiedName, n.signature ?? "", n.docstring ?? "");
      }
      if (n.parentId !== null) {
        if (!this.options.bulk) this.edgeRows.add(n.parentId, n.id, "contains", n.fileId, n.startLine, "syntax", null);
        tally(this.written.edges, "contains");
      }
    }
    for (const ref of r.refs) this.addRef(ref);
    for (const b of r.imports) this.importRows.add(f.id, b.local, b.imported, b.specifier, b.line, b.reexport ? 1 : 0);
    for (const t of r.localTypes) this.typeRows.add(f.id, t.scopeId, t.name, t.typeName, t.line);
    if (flush) this.flush();
  }

  /** One reference, in a bulk load: it may wait for `flush`. */
  private addRef(ref: RefRow): void {
    this.refRows.add(ref.id, ref.fileId, ref.fromId, ref.kind, ref.name, ref.receiver, ref.line, ref.col, ref.argCount);
  }

  /**
   * The edges one reference resolved to, each from the reference's enclosing symbol at its line. They
   * may wait for `flush`, which must come before edges are read.
   */
  insertResolved(ref: RefInfo, targets: readonly { targetId: number; kind: string; resolution: string }[]): void {
    for (const t of targets) this.addEdge(ref, t.targetId, t.kind, t.resolution);
  }

  private addEdge(ref: RefInfo, targetId: number, kind: string, resolution: string): void {
    this.edgeRows.add(ref.fromId, targetId, kind, ref.fileId, ref.line, resolution, ref.id);
    tally(this.written.edges, kind);
  }

  /** Resolved edges a full index collected, in one transaction. */
  insertEdges(batch: EdgeBatch): void {
    this.db.transaction(() => {
      forEachEdge(batch, (source, target, kind, file, line, resolution, ref) => {
        this.edgeRows.add(source, target, kind, file, line, resolution, ref);
      });
      this.edgeRows.flush();
    })();
  }

  /**
   * Remove everything a file contributed. Edges from other files into its nodes are dropped too, except
   * into the nodes listed in `keep`: a modified file keeps the ids of declarations that survive, so
   * references elsewhere that found them stay valid. Returns the references that lost their target.
   */
  deleteFile(fileId: number, keep: ReadonlySet<number> = new Set()): number[] {
    const db = this.db;
    db.exec("CREATE TEMP TABLE IF NOT EXISTS sync_keep(id INTEGER PRIMARY KEY)");
    db.exec("DELETE FROM sync_keep");
    const ins = prepared(db, "INSERT INTO sync_keep(id) VALUES (?)");
    for (const id of keep) ins.run(id);
    const lost = `SELECT id FROM nodes WHERE file_id = ? AND id NOT IN (SELECT id FROM sync_keep)`;
    const orphaned = prepared(
      db,
      `SELECT DISTINCT ref_id AS id FROM edges WHERE target_id IN (${lost}) AND ref_id IS NOT NULL AND file_id <> ?`,
    ).all(fileId, fileId) as { id: number }[];
    prepared(db, `DELETE FROM edges WHERE target_id IN (${lost})`).run(fileId);
    // A file's edges start at its nodes (the file's own node for its imports): found through the
    // source index, where an index of their file would cost a full index 0.3 s on the JDK to build.
    prepared(db, "DELETE FROM edges WHERE source_id IN (SELECT id FROM nodes WHERE file_id = ?)").run(fileId);
    prepared(db, "DELETE FROM search WHERE rowid IN (SELECT id FROM nodes WHERE file_id = ?)").run(fileId);
    prepared(db, "DELETE FROM nodes WHERE file_id = ?").run(fileId);
    prepared(db, "DELETE FROM refs WHERE file_id = ?").run(fileId);
    prepared(db, "DELETE FROM imports WHERE file_id = ?").run(fileId);
    prepared(db, "DELETE FROM local_types WHERE file_id = ?").run(fileId);
    prepared(db, "DELETE FROM files WHERE id = ?").run(fileId);
    db.exec("DELETE FROM sync_keep");
    return orphaned.map((o) => o.id);
  }

  /**
   * Drop the edges these references produced, before resolving them again: in one statement, which
   * a go-stdlib sync re-resolving 120k references spent a second on one by one.
   */
  clearRefEdges(refIds: readonly number[]): void {
    if (refIds.length) this.clearEdges.run(JSON.stringify(refIds));
  }
}

function tally(counts: Map<string, number>, kind: string): void {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}
