import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Statement } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbPath } from "../../src/config/paths.js";
import { fullIndex } from "../../src/indexer/full-index.js";
import { openDatabase, type Db } from "../../src/store/database.js";
import { searchSymbols } from "../../src/query/search.js";

// bm25 reads every phrase's matches once more before it scores a row, so ranking an FTS5 expression
// costs a few hundred microseconds even when it matches nothing: search must not rank one that the
// count it makes first found empty (the prose of an explore question often is, for all its words).

const dir = mkdtempSync(join(tmpdir(), "codegraph-search-work-"));
let db: Db;

beforeAll(async () => {
  mkdirSync(join(dir, "shop"));
  writeFileSync(
    join(dir, "shop", "orders.py"),
    [
      "def place_order(cart):",
      '    """Place an order for the cart."""',
      "    return cart",
      "",
      "def cancel_order(order):",
      '    """Cancel a placed order."""',
      "    return order",
      "",
      "class Basket:",
      "    def add_item(self, item):",
      "        return item",
      "",
    ].join("\n"),
  );
  await fullIndex(dir);
  db = openDatabase(dbPath(dir), { readonly: true });
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each full-text read a search makes: whether it ranks (bm25) or counts, and its expression. */
function fullTextReads(run: () => void): { ranks: boolean; match: string }[] {
  const proto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Statement;
  const reads: { ranks: boolean; match: string }[] = [];
  const originals = { all: proto.all, get: proto.get };
  for (const method of ["all", "get"] as const) {
    const original = originals[method] as (...args: unknown[]) => unknown;
    (proto as unknown as Record<string, unknown>)[method] = function (this: Statement, ...args: unknown[]) {
      const params = args[0] as { match?: string } | undefined;
      if (params?.match !== undefined) reads.push({ ranks: this.source.includes("bm25("), match: params.match });
      return original.apply(this, args);
    };
  }
  try {
    run();
  } finally {
    Object.assign(proto, originals);
  }
  return reads;
}

const matches = (match: string) =>
  db.prepare("SELECT count(*) FROM search WHERE search MATCH ?").pluck().get(match) as number;

describe("search's full-text passes", () => {
  it("rank no expression that matches nothing, and still find what each word names", () => {
    // No symbol holds both words: every word's expression and the phrase match nothing, and each
    // word alone matches some.
    const query = "basket cancel";
    let hits: string[] = [];
    const reads = fullTextReads(() => {
      hits = searchSymbols(db, query, { limit: 10 }).hits.map((h) => h.qualifiedName);
    });
    const ranked = reads.filter((r) => r.ranks);
    expect(reads.some((r) => !r.ranks && matches(r.match) === 0)).toBe(true);
    expect(ranked.length).toBeGreaterThan(0);
    for (const r of ranked) expect(matches(r.match), r.match).toBeGreaterThan(0);
    expect(hits).toEqual(expect.arrayContaining(["Basket", "cancel_order"]));
  });

  it("still rank the words together when a symbol holds them all", () => {
    const reads = fullTextReads(() => {
      expect(searchSymbols(db, "place order", { limit: 10 }).hits[0]?.name).toBe("place_order");
    });
    expect(reads.filter((r) => r.ranks).length).toBeGreaterThan(1);
  });
});
