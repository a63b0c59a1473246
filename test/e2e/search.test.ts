import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

const fixture = join(import.meta.dirname, "fixtures", "search");

interface Hit {
  name: string;
  qualifiedName: string;
  kind: string;
  file: string;
  startLine: number;
  score: number;
}

describe("search ranking from the CLI", () => {
  let repo: { dir: string; cleanup: () => void };
  const search = async (query: string, ...args: string[]) =>
    (await runJson<{ query: string; hits: Hit[] }>(["search", query, "-p", repo.dir, ...args])).hits;
  /** `file:name` of each hit, the shape the assertions read best in. */
  const where = (hits: Hit[]) => hits.map((h) => `${h.file}:${h.name}`);

  beforeAll(async () => {
    repo = tempRepo(fixture);
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("puts the exact name first, and the same name in tests and deprioritized folders lower", async () => {
    const hits = where(await search("place_order"));
    expect(hits[0]).toBe("src/orders/place_order.py:place_order");
    const at = (h: string) => {
      expect(hits).toContain(h);
      return hits.indexOf(h);
    };
    // Same words, another convention: below the exact name, above the penalised copies of it.
    expect(at("src/orders/handler.ts:placeOrder")).toBeLessThan(at("tests/test_orders.py:place_order"));
    expect(at("api/orders.go:PlaceOrder")).toBeLessThan(at("tests/test_orders.py:place_order"));
    // codegraph.json deprioritizes legacy/**.
    expect(at("src/orders/place_order.py:place_order")).toBeLessThan(at("legacy/orders.py:place_order"));
    expect(at("api/orders.go:PlaceOrder")).toBeLessThan(at("legacy/orders.py:place_order"));
    // A longer name holding the words comes after every name that is them.
    expect(at("legacy/orders.py:place_order")).toBeLessThan(at("src/orders/handler.ts:PlaceOrderHandler"));
  });

  it("matches prose against the words inside names, callables and types before constants", async () => {
    const hits = await search("place order");
    const names = hits.map((h) => h.name);
    expect(names.slice(0, 3).sort()).toEqual(["PlaceOrder", "placeOrder", "place_order"]);
    expect(names).toContain("PlaceOrderHandler");
    expect(names.indexOf("PlaceOrderHandler")).toBeLessThan(names.indexOf("PLACE_ORDER_TIMEOUT"));
    expect(names.indexOf("PlaceOrderHandler")).toBeLessThan(names.indexOf("placeOrderRetries"));
    // Scores are ordered, and ties go by path then line.
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1]!, hits[i]!];
      expect(a.score >= b.score).toBe(true);
      if (a.score === b.score) expect(a.file < b.file || (a.file === b.file && a.startLine <= b.startLine)).toBe(true);
    }
    expect(new Set(hits.map((h) => `${h.file}:${h.startLine}:${h.qualifiedName}`)).size).toBe(hits.length);
  });

  it("ranks a case-sensitive exact name above case-insensitive and same-word ones", async () => {
    const names = where(await search("PlaceOrder"));
    expect(names.slice(0, 3)).toEqual([
      "api/orders.go:PlaceOrder",
      "src/orders/handler.ts:placeOrder",
      "src/orders/place_order.py:place_order",
    ]);
  });

  it("ranks generated files below hand-written ones", async () => {
    const hits = await search("OrderRequest");
    expect(where(hits).slice(0, 2)).toEqual(["api/request.go:OrderRequest", "api/orders.pb.go:OrderRequest"]);
    expect(hits[0]!.kind).toBe("struct");
  });

  it("finds a name through a typo when nothing else matches a name", async () => {
    const typo = await search("plcae_order");
    expect(typo[0]).toMatchObject({ file: "src/orders/place_order.py", name: "place_order" });
    expect(where(typo).slice(0, 3).sort()).toEqual([
      "api/orders.go:PlaceOrder",
      "src/orders/handler.ts:placeOrder",
      "src/orders/place_order.py:place_order",
    ]);
    const swapped = await search("QuerySte");
    expect(swapped[0]).toMatchObject({ name: "QuerySet", kind: "struct", file: "api/orders.go" });
    // A real name is never traded for a typo correction.
    const exact = await search("QuerySet");
    expect(exact[0]).toMatchObject({ name: "QuerySet" });
    expect(exact[0]!.score).toBeGreaterThan(swapped[0]!.score);
  });

  it("matches a qualified name by its suffix", async () => {
    const hits = await search("QuerySet.Filter");
    expect(hits[0]).toMatchObject({ qualifiedName: "QuerySet.Filter", kind: "method", file: "api/orders.go" });
  });

  it("applies kind:, lang: and path: filters written in the query, and --kind", async () => {
    const classes = await search("kind:class place order");
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.every((h) => h.kind === "class")).toBe(true);
    expect(classes[0]!.name).toBe("PlaceOrderHandler");

    const go = await search("lang:go place order");
    expect(go[0]).toMatchObject({ name: "PlaceOrder", file: "api/orders.go" });
    expect(go.every((h) => h.file.endsWith(".go"))).toBe(true);

    const legacy = await search("path:legacy place_order");
    expect(where(legacy)).toEqual(["legacy/orders.py:place_order"]);

    const py = await search("kind:fn lang:py");
    expect(py.length).toBeGreaterThan(0);
    expect(py.every((h) => h.kind === "function" && h.file.endsWith(".py"))).toBe(true);
    expect(py[0]!.file).toBe("src/orders/place_order.py"); // tests and legacy/ rank lower here too

    const option = await search("place order", "--kind", "constant");
    expect(option.map((h) => h.name).sort()).toEqual(["PLACE_ORDER_TIMEOUT", "placeOrderRetries"]);
  });

  it("never returns imports, and respects --limit", async () => {
    const hits = await search("real_place_order");
    expect(hits.some((h) => h.kind === "import")).toBe(false);
    expect(await search("place order", "--limit", "2")).toHaveLength(2);
  });

  it("reads [ranking] from config.toml on every search, and explains a bad value", async () => {
    const toml = join(repo.dir, ".codegraph", "config.toml");
    mkdirSync(join(repo.dir, ".codegraph"), { recursive: true });
    writeFileSync(toml, '[ranking]\ndeprioritize = ["api"]\n');
    const hits = where(await search("PlaceOrder"));
    expect(hits[0]).toBe("src/orders/handler.ts:placeOrder");
    expect(hits.indexOf("api/orders.go:PlaceOrder")).toBeGreaterThan(0);

    // A bad value is named, and the search still answers (with the defaults in a fresh process).
    writeFileSync(toml, '[ranking]\ndeprioritize = "api"\n');
    const bad = await run(["search", "PlaceOrder", "-p", repo.dir, "--json"]);
    expect(bad.code).toBe(0);
    const result = JSON.parse(bad.stdout) as { configError: string; hits: { file: string }[] };
    expect(result.configError).toContain("config.toml [ranking].deprioritize must be a list of glob strings");
    expect(result.hits[0]!.file).toBe("api/orders.go");
    const text = await run(["search", "PlaceOrder", "-p", repo.dir]);
    expect(text.stdout).toMatch(
      /^Note: .*config\.toml \[ranking\]\.deprioritize must be a list of glob strings.* Until it loads, search ranks with the last \[ranking\] rules that did\.\n\n/,
    );

    writeFileSync(toml, "");
    expect(where(await search("PlaceOrder"))[0]).toBe("api/orders.go:PlaceOrder");
  });
});
