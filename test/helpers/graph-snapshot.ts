import Database from "better-sqlite3";
import { join } from "node:path";

/**
 * The whole graph in a form independent of row ids: every node by (file, qualified name, kind, line),
 * every edge by its two ends, kind and line, and every term of the full-text index by the node it
 * finds, column and position. Two indexes of the same tree must give equal snapshots.
 */
export function graphSnapshot(root: string): {
  nodes: string[];
  edges: string[];
  unresolved: string[];
  searchTerms: string[];
  /** Nodes and edges by kind as `kind_counts` keeps them (triggers), and as counted row by row. */
  kindCounts: { kept: string[]; counted: string[] };
} {
  const db = new Database(join(root, ".codegraph", "graph.db"), { readonly: true });
  try {
    const key = "f.path || '|' || n.qualified_name || '|' || n.kind || '|' || n.start_line";
    const nodes = (
      db.prepare(`SELECT ${key} AS k FROM nodes n JOIN files f ON f.id = n.file_id`).all() as { k: string }[]
    ).map((r) => r.k);
    const edges = (
      db
        .prepare(
          `SELECT fs.path || '|' || s.qualified_name || '|' || s.kind || ' -' || e.kind || '@' || coalesce(e.line, '') || '-> ' ||
                  ft.path || '|' || t.qualified_name || '|' || t.kind || ' (' || e.resolution || ')' AS k
           FROM edges e JOIN nodes s ON s.id = e.source_id JOIN files fs ON fs.id = s.file_id
           JOIN nodes t ON t.id = e.target_id JOIN files ft ON ft.id = t.file_id`,
        )
        .all() as { k: string }[]
    ).map((r) => r.k);
    const unresolved = (
      db
        .prepare(
          `SELECT f.path || ':' || r.line || ' ' || r.kind || ' ' || coalesce(r.receiver || '.', '') || r.name AS k
                  FROM unresolved_refs r JOIN files f ON f.id = r.file_id`,
        )
        .all() as { k: string }[]
    ).map((r) => r.k);
    // The search table keeps no content: its terms are read through an fts5vocab table.
    db.exec("CREATE VIRTUAL TABLE temp.search_terms USING fts5vocab(main, search, 'instance')");
    const searchTerms = (
      db
        .prepare(
          `SELECT ${key} || ' ' || v.col || ':' || v.offset || ' ' || v.term AS k
           FROM temp.search_terms v JOIN nodes n ON n.id = v.doc JOIN files f ON f.id = n.file_id`,
        )
        .all() as { k: string }[]
    ).map((r) => r.k);
    const kindCounts = {
      kept: (
        db.prepare("SELECT tbl || ' ' || kind || ' ' || n AS k FROM kind_counts WHERE n <> 0").all() as { k: string }[]
      )
        .map((r) => r.k)
        .sort(),
      counted: (
        db
          .prepare(
            `SELECT 'nodes ' || kind || ' ' || count(*) AS k FROM nodes GROUP BY kind
             UNION ALL SELECT 'edges ' || kind || ' ' || count(*) AS k FROM edges GROUP BY kind`,
          )
          .all() as { k: string }[]
      )
        .map((r) => r.k)
        .sort(),
    };
    return {
      nodes: nodes.sort(),
      edges: edges.sort(),
      unresolved: unresolved.sort(),
      searchTerms: searchTerms.sort(),
      kindCounts,
    };
  } finally {
    db.close();
  }
}
