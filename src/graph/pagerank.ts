export interface PageRankOptions {
  /** Probability of following an edge rather than jumping anywhere (default 0.85). */
  damping?: number;
  /** Stop when the L1 change between two iterations drops below this (default 1e-6). */
  tolerance?: number;
  /** Stop after this many iterations regardless (default 100). */
  maxIterations?: number;
}

export interface PageRankResult {
  /** One rank per vertex, summing to 1. */
  ranks: Float64Array;
  iterations: number;
  converged: boolean;
}

/**
 * PageRank by power iteration over vertices 0..n-1, edge e going from[e] → to[e]. Parallel edges
 * count once each (a multigraph's edges as weights, as NetworkX does); the rank of vertices with no
 * outgoing edge is spread uniformly over all vertices. Typed arrays and one pass over the edge list
 * per iteration keep a million edges to well under a second.
 */
export function pageRank(
  n: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  options: PageRankOptions = {},
): PageRankResult {
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  if (n === 0) return { ranks: new Float64Array(0), iterations: 0, converged: true };
  const src = Int32Array.from(from);
  const dst = Int32Array.from(to);
  const outDegree = new Float64Array(n);
  for (let e = 0; e < src.length; e++) outDegree[src[e]!]!++;
  let rank = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  const share = new Float64Array(n);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    iterations++;
    let dangling = 0;
    for (let v = 0; v < n; v++) {
      const d = outDegree[v]!;
      if (d === 0) {
        dangling += rank[v]!;
        share[v] = 0;
      } else share[v] = (damping * rank[v]!) / d;
    }
    next.fill((1 - damping) / n + (damping * dangling) / n);
    for (let e = 0; e < src.length; e++) next[dst[e]!]! += share[src[e]!]!;
    let change = 0;
    for (let v = 0; v < n; v++) change += Math.abs(next[v]! - rank[v]!);
    [rank, next] = [next, rank];
    converged = change < tolerance;
  }
  return { ranks: rank, iterations, converged };
}
