import { describe, expect, it } from "vitest";
import { pageRank } from "../../src/graph/pagerank.js";

const sum = (a: Float64Array) => a.reduce((s, x) => s + x, 0);

describe("PageRank", () => {
  it("gives every vertex of a cycle the same rank", () => {
    const { ranks, converged } = pageRank(3, [0, 1, 2], [1, 2, 0]);
    expect(converged).toBe(true);
    for (const r of ranks) expect(r).toBeCloseTo(1 / 3, 9);
  });

  it("matches NetworkX on a graph with a dangling vertex", () => {
    // networkx 3.6: pagerank(DiGraph([(0, 1), (0, 2), (1, 2)])) = 0.197580, 0.281551, 0.520869
    const { ranks } = pageRank(3, [0, 0, 1], [1, 2, 2]);
    expect(sum(ranks)).toBeCloseTo(1, 9);
    expect(ranks[0]).toBeCloseTo(0.19758, 5);
    expect(ranks[1]).toBeCloseTo(0.281551, 5);
    expect(ranks[2]).toBeCloseTo(0.520869, 5);
  });

  it("counts parallel edges as weight", () => {
    // 0 → 1 twice, 0 → 2 once: 1 gets twice 2's share of 0's rank.
    const { ranks } = pageRank(3, [0, 0, 0, 1, 2], [1, 1, 2, 0, 0]);
    const fromZero = (r: number) => r - (1 - 0.85) / 3;
    expect(fromZero(ranks[1]!) / fromZero(ranks[2]!)).toBeCloseTo(2, 6);
  });

  it("sums to 1 on a large random graph and stops within the iteration cap", () => {
    const n = 50_000;
    const m = 400_000;
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n;
    const from = Int32Array.from({ length: m }, () => Math.floor(random()));
    const to = Int32Array.from({ length: m }, () => Math.floor((random() * random()) / n)); // low ids favoured
    const { ranks, iterations } = pageRank(n, from, to);
    expect(iterations).toBeLessThanOrEqual(100);
    expect(Math.abs(sum(ranks) - 1)).toBeLessThan(1e-9);
    expect(ranks[0]!).toBeGreaterThan(ranks[n - 1]!);
  });

  it("handles the empty graph", () => {
    expect(pageRank(0, [], []).ranks).toHaveLength(0);
  });
});
