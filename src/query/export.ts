import { basename } from "node:path";
import { pageRank } from "../graph/pagerank.js";
import { getMeta, type Db } from "../store/database.js";
import { countFiles, dumpEdges, dumpNodes } from "../store/graph-dump.js";

export interface ExportOptions {
  /** Add each node's PageRank over the use edges (every kind but `contains`). */
  pagerank?: boolean;
  /** The project folder; only its base name is exported, never an absolute path. */
  root?: string;
}

/** A node in NetworkX node-link form. `id` is the stable id that `search --json` shows as `uid` and `node` accepts. */
export interface ExportNode {
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  filePath: string;
  startLine: number;
  endLine: number;
  pagerank?: number;
}

export interface ExportLink {
  source: string;
  target: string;
  kind: string;
  line: number | null;
}

export interface ExportGraphInfo {
  name: "codegraph";
  root?: string;
  files: number;
  generatedAt: string;
  indexedAt: string | null;
  syncedAt: string | null;
  /** How the ranks were computed, present when they were asked for. */
  pagerank?: { damping: number; iterations: number; converged: boolean; excludedEdgeKinds: string[] };
}

/** The whole graph as NetworkX node-link JSON (`networkx.node_link_graph(data)` reads it as a MultiDiGraph). */
export interface NodeLinkGraph {
  directed: true;
  multigraph: true;
  graph: ExportGraphInfo;
  nodes: ExportNode[];
  links: ExportLink[];
}

const DAMPING = 0.85;

/**
 * Every node and every edge, `contains` included: the complete graph, for tools outside codegraph.
 * PageRank, when asked for, runs over the use edges only (containment is structure, not use), and is
 * rounded to 6 significant digits.
 */
export function exportGraph(db: Db, options: ExportOptions = {}): NodeLinkGraph {
  const rows = dumpNodes(db);
  const edges = dumpEdges(db);
  // Node row id → position in `rows`, in an array: a Map costs several times more at millions of edges.
  const slot = new Int32Array(rows.reduce((max, r) => Math.max(max, r.id), 0) + 1).fill(-1);
  rows.forEach((r, i) => (slot[r.id] = i));
  const at = (id: number) => (id >= 0 && id < slot.length ? slot[id]! : -1);
  const nodes: ExportNode[] = rows.map((r) => ({
    id: r.uid,
    name: r.name,
    qualifiedName: r.qualifiedName,
    kind: r.kind,
    filePath: r.filePath,
    startLine: r.startLine,
    endLine: r.endLine,
  }));
  // An edge to a missing node would be an index fault; it is still exported, under the row id.
  const uidOf = (id: number) => rows[at(id)]?.uid ?? String(id);
  const links: ExportLink[] = edges.kind.map((kind, i) => ({
    source: uidOf(edges.sourceId[i]!),
    target: uidOf(edges.targetId[i]!),
    kind,
    line: edges.line[i]!,
  }));
  const graph: ExportGraphInfo = {
    name: "codegraph",
    ...(options.root ? { root: basename(options.root) } : {}),
    files: countFiles(db),
    generatedAt: new Date().toISOString(),
    indexedAt: getMeta(db, "indexed_at"),
    syncedAt: getMeta(db, "synced_at"),
  };
  if (options.pagerank) {
    const from: number[] = [];
    const to: number[] = [];
    edges.kind.forEach((kind, i) => {
      const s = at(edges.sourceId[i]!);
      const t = at(edges.targetId[i]!);
      if (kind === "contains" || s < 0 || t < 0) return;
      from.push(s);
      to.push(t);
    });
    const pr = pageRank(rows.length, from, to, { damping: DAMPING });
    nodes.forEach((n, i) => (n.pagerank = Number(pr.ranks[i]!.toPrecision(6))));
    graph.pagerank = {
      damping: DAMPING,
      iterations: pr.iterations,
      converged: pr.converged,
      excludedEdgeKinds: ["contains"],
    };
  }
  return { directed: true, multigraph: true, graph, nodes, links };
}
