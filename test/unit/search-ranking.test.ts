import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_TEMPLATE, defaultConfig, loadConfig, loadConfigCached } from "../../src/config/config.js";
import { deprioritized, isGeneratedPath } from "../../src/query/search-paths.js";
import { parseQuery } from "../../src/query/search-query.js";
import { TIER, matchTier, nameTier } from "../../src/query/search-rank.js";
import { editDistance, typoKey } from "../../src/query/search-typo.js";
import { parse as parseToml } from "smol-toml";

const tier = (name: string, qualifiedName: string, query: string) => {
  const q = parseQuery(query);
  return nameTier(name, qualifiedName, q);
};

describe("query parsing", () => {
  it("takes kind:, lang: and path: out of the text, with aliases and comma lists", () => {
    const q = parseQuery("kind:method,fn lang:py path:django/db_x filter  QuerySet");
    expect(q.text).toBe("filter QuerySet");
    expect(q.words).toEqual(["filter", "query", "set"]);
    expect(q.filters.kinds).toEqual(["method", "function"]);
    expect(q.filters.languages).toEqual(["python"]);
    expect(q.filters.pathLike).toBe("%django/db\\_x%");
    expect(parseQuery("path:src/**/*.ts x").filters).toMatchObject({ pathGlob: "src/*.ts", pathLike: null });
    expect(parseQuery("lang:ts x", "class").filters).toMatchObject({
      kinds: ["class"],
      languages: ["typescript", "tsx"],
    });
    // Not a filter: an unknown field, or a field with no value.
    expect(parseQuery("std::vector kind:").text).toBe("std::vector kind:");
  });

  it("refuses a path: longer than any path, saying so", () => {
    expect(() => parseQuery(`filter path:${"a".repeat(60_000)}`)).toThrow(
      "The path: filter takes a folder, a path or a glob of at most 4096 characters, not 60000.",
    );
    expect(parseQuery(`filter path:${"a/".repeat(2048)}`).filters.pathLike).toHaveLength(4096 + 2);
  });

  it("weighs the first 32 words of a paste of thousands", () => {
    const q = parseQuery(Array.from({ length: 5000 }, (_, i) => `Client.handleRequest${i}`).join(" "));
    expect(q.words).toHaveLength(32);
    expect(q.words.slice(0, 4)).toEqual(["client", "handle", "request0", "client"]);
    expect(q.tokens).toHaveLength(5000);
  });

  it("refuses a kind that is none, naming the kinds, in the query or from the caller", () => {
    for (const [query, kind] of [
      ["kind:clas Model", undefined],
      ["Model", "clas"],
      ["kind:fn,file x", undefined],
    ]) {
      expect(() => parseQuery(query!, kind)).toThrow(
        expect.objectContaining({
          code: "BAD_INPUT",
          message: expect.stringMatching(/is not a symbol kind\. Kinds: module, .*class.*; or fn,/),
        }),
      );
    }
    expect(() => parseQuery("kind:clas x")).toThrow(/"clas" is not/);
    expect(() => parseQuery("kind:fn,file x")).toThrow(/"file" is not/);
    expect(parseQuery("kind:CLASS,type_alias x").filters.kinds).toEqual(["class", "type_alias"]);
  });
});

describe("name tiers", () => {
  it("orders exact, case-insensitive, same words, qualified suffix, segment run, prefix, prefixes in order", () => {
    expect(tier("place_order", "place_order", "place_order")).toBe(TIER.exact);
    expect(tier("Place_Order", "Place_Order", "place_order")).toBe(TIER.exactNoCase);
    expect(tier("placeOrder", "placeOrder", "place order")).toBe(TIER.sameWords);
    expect(tier("filter", "django.QuerySet.filter", "QuerySet.filter")).toBe(TIER.qualifiedSuffix);
    expect(tier("filter", "QuerySet.filter", "QuerySet filter")).toBe(TIER.qualifiedWords);
    const run = tier("PlaceOrderHandler", "PlaceOrderHandler", "place order");
    expect(run).toBeGreaterThan(TIER.prefix);
    expect(run).toBeLessThan(TIER.qualifiedWords);
    const prefix = tier("QuerySet", "QuerySet", "QuerySe");
    expect(prefix).toBeGreaterThan(TIER.segmentPrefixes);
    expect(prefix).toBeLessThanOrEqual(TIER.prefix);
    expect(tier("place_new_order", "place_new_order", "pl ord")).toBeGreaterThan(0);
    expect(tier("OrderService", "OrderService", "place order")).toBe(0);
  });

  it("ranks a name holding all of three or more words but the first or the last as a partial match", () => {
    expect(tier("ReadFull", "io.ReadFull", "read full buffer")).toBe(TIER.partialWords);
    expect(tier("ReadFull", "io.ReadFull", "buffered read full")).toBe(TIER.partialWords);
    const inside = tier("mustReadFull", "mustReadFull", "read full buffer");
    expect(inside).toBeGreaterThan(TIER.ftsBase + TIER.ftsSpan);
    expect(inside).toBeLessThan(TIER.partialWords);
    // Two words of two, a middle word left out, or one word of three: no name match.
    expect(tier("ReadFull", "ReadFull", "read buffer")).toBe(0);
    expect(tier("ReadBuffer", "ReadBuffer", "read full buffer")).toBe(0);
    expect(tier("Buffer", "Buffer", "read full buffer")).toBe(0);
    // Below a typo of the whole query at one edit.
    expect(TIER.partialWords).toBeLessThan(TIER.typo1);
  });

  it("sets aside query words found only in the path, below a full match", () => {
    const q = parseQuery("db filter");
    const inDb = matchTier("filter", "QuerySet.filter", "django/db/models/query.py", q);
    expect(inDb.pathHits).toBe(1);
    expect(inDb.tier).toBeGreaterThan(TIER.segmentRun);
    expect(inDb.tier).toBeLessThan(TIER.sameWords);
    expect(matchTier("filter", "Library.filter", "django/template/library.py", q).tier).toBe(0);
  });
});

describe("typos", () => {
  it("counts insertions, deletions, substitutions and adjacent transpositions, stopping past the budget", () => {
    expect(editDistance("plcaeorder", "placeorder", 2)).toBe(1);
    expect(editDistance("queryste", "queryset", 2)).toBe(1);
    expect(editDistance("filtr", "filter", 1)).toBe(1);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
    expect(editDistance("abcdef", "zzzzzz", 2)).toBe(3);
    expect(editDistance("same", "same", 1)).toBe(0);
  });

  it("compares names without case or separators", () => {
    expect(typoKey("Place_Order-Handler")).toBe("placeorderhandler");
    expect(typoKey("ÜberName")).toBe("übername");
  });
});

describe("paths", () => {
  it("knows generated files", () => {
    for (const p of [
      "api/orders.pb.go",
      "gen/orders_pb2.py",
      "x/foo.generated.ts",
      "static/jquery.min.js",
      "dist/a.js",
    ]) {
      expect(isGeneratedPath(p), p).toBe(true);
    }
    for (const p of ["api/orders.go", "src/distance.ts", "src/minimal.js"]) expect(isGeneratedPath(p), p).toBe(false);
  });

  it("deprioritizes a glob's matches and everything under a matching folder", () => {
    const d = deprioritized(["legacy", "**/*.old.ts"]);
    expect(d("legacy/a/b.py")).toBe(true);
    expect(d("src/x.old.ts")).toBe(true);
    expect(d("src/legacy.py")).toBe(false);
    expect(deprioritized([])("anything")).toBe(false);
  });
});

describe("[ranking] config", () => {
  const root = mkdtempSync(join(tmpdir(), "codegraph-ranking-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, ".codegraph"));
  const toml = join(root, ".codegraph", "config.toml");

  it("is read from codegraph.json and config.toml, and documented in the template", () => {
    writeFileSync(join(root, "codegraph.json"), JSON.stringify({ ranking: { deprioritize: ["legacy/**"] } }));
    writeFileSync(toml, '[ranking]\ndeprioritize = ["examples/**"]\n');
    expect(loadConfig(root).ranking.deprioritize).toEqual(["legacy/**", "examples/**"]);
    expect(CONFIG_TEMPLATE).toContain("[ranking]");
    expect(() => parseToml(CONFIG_TEMPLATE)).not.toThrow();
  });

  it("is cached until a file changes; a bad file keeps the last that loaded, and loadConfig names the key", () => {
    writeFileSync(toml, '[ranking]\ndeprioritize = ["a/**"]\n');
    const first = loadConfigCached(root);
    expect(first.config.ranking.deprioritize).toContain("a/**");
    expect(first.error).toBeNull();
    expect(loadConfigCached(root)).toBe(first);
    writeFileSync(toml, '[ranking]\ndeprioritize = ["bb/**"]\n');
    const later = new Date(Date.now() + 5000);
    utimesSync(toml, later, later);
    expect(loadConfigCached(root).config.ranking.deprioritize).toContain("bb/**");
    writeFileSync(toml, "[ranking]\ndeprioritize = [1]\n");
    expect(() => loadConfig(root)).toThrow(/config\.toml \[ranking\]\.deprioritize must be a list of glob strings/);
    // A search must not fail over a typo in its ranking rules: the last rules that loaded stand, and
    // the error comes with them.
    const broken = loadConfigCached(root);
    expect(broken.config.ranking.deprioritize).toContain("bb/**");
    expect(broken.error).toMatch(/config\.toml \[ranking\]\.deprioritize must be a list of glob strings/);
    writeFileSync(toml, "[ranking\n");
    expect(loadConfigCached(root).config.ranking.deprioritize).toContain("bb/**");
    expect(loadConfigCached(root).error).toMatch(/config\.toml is not valid TOML/);
    writeFileSync(join(root, "codegraph.json"), JSON.stringify({ ranking: "legacy" }));
    expect(() => loadConfig(root)).toThrow(/codegraph\.json ranking must be a table/);
    // With none loaded yet in this process, the defaults.
    const fresh = mkdtempSync(join(tmpdir(), "codegraph-ranking-"));
    mkdirSync(join(fresh, ".codegraph"));
    writeFileSync(join(fresh, ".codegraph", "config.toml"), "[ranking]\ndeprioritize = [[[\n");
    expect(loadConfigCached(fresh).config.ranking.deprioritize).toEqual(defaultConfig().ranking.deprioritize);
    rmSync(fresh, { recursive: true, force: true });
  });
});
