import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

const fixture = join(import.meta.dirname, "fixtures", "cycles");

interface Exported {
  directed: boolean;
  multigraph: boolean;
  graph: Record<string, unknown>;
  nodes: Record<string, unknown>[];
  links: Record<string, unknown>[];
}

async function exportJson(args: string[]): Promise<Exported> {
  const r = await run(["export", ...args]);
  if (r.code !== 0) throw new Error(`codegraph export exited ${r.code}\n${r.stderr}`);
  return JSON.parse(r.stdout) as Exported;
}

describe("check and export on a project with import cycles", () => {
  let repo: { dir: string; cleanup: () => void };
  const p = () => ["-p", repo.dir];

  beforeAll(async () => {
    repo = tempRepo(fixture);
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("check lists each cycle from its smallest path, and exits 0", async () => {
    const r = await run(["check", ...p()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "3 import cycles among 9 files:",
        "  a.ts -> b.ts -> c.ts -> a.ts",
        "  lib/p.ts -> lib/q.ts -> lib/p.ts",
        "  self.ts -> self.ts",
        "",
      ].join("\n"),
    );
  });

  it("check --json gives the cycles as lists of paths", async () => {
    expect(await runJson(["check", ...p()])).toEqual({
      cycles: [
        ["a.ts", "b.ts", "c.ts", "a.ts"],
        ["lib/p.ts", "lib/q.ts", "lib/p.ts"],
        ["self.ts", "self.ts"],
      ],
      filesChecked: 9,
    });
  });

  it("check [path] keeps the cycles through files under it", async () => {
    expect(await runJson(["check", "lib", ...p()])).toEqual({
      cycles: [["lib/p.ts", "lib/q.ts", "lib/p.ts"]],
      filesChecked: 2,
    });
    expect(await runJson(["check", "./b.ts", ...p()])).toEqual({
      cycles: [["a.ts", "b.ts", "c.ts", "a.ts"]],
      filesChecked: 1,
    });
    const none = await run(["check", "d.ts", ...p()]);
    expect(none.stdout).toBe("No import cycles among 1 file under d.ts.\n");
  });

  it("export writes NetworkX node-link JSON of every node and edge", async () => {
    const g = await exportJson(p());
    const status = await runJson<{ files: number; nodes: number; edges: number; edgesByKind: Record<string, number> }>([
      "status",
      ...p(),
    ]);
    expect(Object.keys(g)).toEqual(["directed", "multigraph", "graph", "nodes", "links"]);
    expect(g.directed).toBe(true);
    expect(g.multigraph).toBe(true);
    expect(g.graph).toMatchObject({ name: "codegraph", files: status.files });
    expect(g.graph.root).not.toContain("/");
    expect(typeof g.graph.generatedAt).toBe("string");
    expect(g.nodes).toHaveLength(status.nodes);
    expect(g.links).toHaveLength(status.edges);
    for (const n of g.nodes) {
      expect(Object.keys(n)).toEqual(["id", "name", "qualifiedName", "kind", "filePath", "startLine", "endLine"]);
    }
    for (const l of g.links) expect(Object.keys(l)).toEqual(["source", "target", "kind", "line"]);
    const ids = new Set(g.nodes.map((n) => n.id));
    expect(ids.size).toBe(g.nodes.length);
    for (const l of g.links) {
      expect(ids.has(l.source)).toBe(true);
      expect(ids.has(l.target)).toBe(true);
    }
    const byKind: Record<string, number> = {};
    for (const l of g.links) byKind[l.kind as string] = (byKind[l.kind as string] ?? 0) + 1;
    expect(byKind).toEqual(status.edgesByKind);
    expect(Object.keys(byKind)).toEqual(expect.arrayContaining(["contains", "calls", "imports"]));
    expect(g.nodes.some((n) => "pagerank" in n)).toBe(false);
  });

  it("a node's export id is the stable id that search shows and node accepts", async () => {
    const g = await exportJson(p());
    const leaf = g.nodes.find((n) => n.name === "unusedLeaf")!;
    const hits = await runJson<{ hits: { uid: string; name: string }[] }>(["search", "unusedLeaf", ...p()]);
    expect(hits.hits[0]!.uid).toBe(leaf.id);
    const node = await run(["node", String(leaf.id), ...p()]);
    expect(node.code).toBe(0);
    expect(node.stdout).toContain("function unusedLeaf");
  });

  it("export --pagerank adds ranks that sum to 1, the imported file above a leaf", async () => {
    const g = await exportJson(["--pagerank", ...p()]);
    const ranks = g.nodes.map((n) => n.pagerank as number);
    expect(ranks.every((r) => typeof r === "number" && r > 0)).toBe(true);
    const total = ranks.reduce((a, b) => a + b, 0);
    expect(Math.abs(total - 1)).toBeLessThan(1e-6 * ranks.length);
    const rank = (pred: (n: Record<string, unknown>) => boolean) => g.nodes.find(pred)!.pagerank as number;
    const util = rank((n) => n.kind === "file" && n.filePath === "util.ts");
    const leaf = rank((n) => n.name === "unusedLeaf");
    expect(util).toBeGreaterThan(leaf);
    expect(g.graph.pagerank).toMatchObject({ damping: 0.85, converged: true });
  });

  it("export -o writes the same graph to a file", async () => {
    const out = join(repo.dir, "graph.json");
    const r = await run(["export", "-o", out, ...p()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Wrote \d+ nodes and \d+ links to /);
    const written = JSON.parse(readFileSync(out, "utf8")) as Exported;
    const direct = await exportJson(p());
    expect(written.nodes).toEqual(direct.nodes);
    expect(written.links).toEqual(direct.links);
  });

  it("export refuses an unknown format and names the ones that exist", async () => {
    const out = join(repo.dir, "graph.csv");
    const r = await run(["export", "--format", "csv", "-o", out, ...p()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the formats are: json");
    expect(existsSync(out)).toBe(false);
  });
});

describe("check on a project without cycles", () => {
  let repo: { dir: string; cleanup: () => void };

  beforeAll(async () => {
    repo = tempRepo();
    writeFileSync(join(repo.dir, "x.ts"), 'import { y } from "./y";\nexport const x = y + 1;\n');
    writeFileSync(join(repo.dir, "y.ts"), "export const y = 1;\n");
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("says so", async () => {
    const r = await run(["check", "-p", repo.dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("No import cycles among 2 files.\n");
    expect(await runJson(["check", "-p", repo.dir])).toEqual({ cycles: [], filesChecked: 2 });
  });
});
