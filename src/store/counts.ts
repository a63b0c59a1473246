import type { Db } from "./database.js";

export interface GraphCounts {
  files: number;
  nodes: number;
  edges: number;
  nodesByKind: Record<string, number>;
  edgesByKind: Record<string, number>;
  languages: Record<string, number>;
  unresolved: number;
}

/**
 * Totals over the whole index. Grouping every node and edge by kind reads them all: 0.65 s of the
 * JDK's `status` (409k nodes, 3.2 M edges), a few ms on Django. Fine for `status`; a hot path uses
 * `countTotals`.
 */
export function countGraph(db: Db): GraphCounts {
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const grouped = (sql: string) =>
    Object.fromEntries((db.prepare(sql).all() as { k: string; n: number }[]).map((r) => [r.k, r.n]));
  return {
    files: one("SELECT count(*) AS n FROM files"),
    nodes: one("SELECT count(*) AS n FROM nodes"),
    edges: one("SELECT count(*) AS n FROM edges"),
    nodesByKind: grouped("SELECT kind AS k, count(*) AS n FROM nodes GROUP BY kind ORDER BY n DESC"),
    edgesByKind: grouped("SELECT kind AS k, count(*) AS n FROM edges GROUP BY kind ORDER BY n DESC"),
    languages: grouped("SELECT language AS k, count(*) AS n FROM files GROUP BY language ORDER BY n DESC"),
    unresolved: one("SELECT count(*) AS n FROM refs WHERE resolved = 0"),
  };
}

/** Just the totals and languages: what a sync reports, without grouping every node and edge by kind. */
export function countTotals(db: Db): Pick<GraphCounts, "files" | "nodes" | "edges" | "languages"> {
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    files: one("SELECT count(*) AS n FROM files"),
    nodes: one("SELECT count(*) AS n FROM nodes"),
    edges: one("SELECT count(*) AS n FROM edges"),
    languages: Object.fromEntries(
      (
        db.prepare("SELECT language AS k, count(*) AS n FROM files GROUP BY language ORDER BY n DESC").all() as {
          k: string;
          n: number;
        }[]
      ).map((r) => [r.k, r.n]),
    ),
  };
}
