import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { indexedFixtureClient, textOf } from "../helpers/mcp.js";

// codegraph_explore through a real MCP client: explicit paths, line anchors and qualified names lead;
// the blast radius reports measured test coverage with the reference's three outcomes.

const FIXTURE = join(import.meta.dirname, "fixtures", "explore");

let c: Client;
let close: () => Promise<void>;

const explore = async (query: string, extra: Record<string, unknown> = {}) =>
  textOf(await c.callTool({ name: "codegraph_explore", arguments: { query, ...extra } }));

/** The "## path" sections of an answer, in order. */
const sections = (text: string) => [...text.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);

/** A hub with more callers than the coverage walk may look up, none of them reached from a test. */
function addHub(dir: string): void {
  mkdirSync(join(dir, "src", "gen"), { recursive: true });
  const callers = Array.from(
    { length: 70 },
    (_, i) => `export function caller${i}(): number {\n  return hub(${i});\n}\n`,
  );
  writeFileSync(
    join(dir, "src", "gen", "hub.ts"),
    `export function hub(n: number): number {\n  return n + 1;\n}\n\n${callers.join("\n")}`,
  );
}

beforeAll(async () => {
  ({ client: c, close } = await indexedFixtureClient(FIXTURE, addHub));
}, 60_000);
afterAll(() => close());

describe("test coverage in the blast radius", () => {
  it("finds tests through callers", async () => {
    const text = await explore("placeOrder");
    expect(text).toMatch(
      /placeOrder \(function, src\/orders\/place\.ts:5\): 2 callers, .*; tested via callers: `test\/orders\.test\.ts`$/m,
    );
  });

  it("walks up to three hops", async () => {
    const text = await explore("chargeCard");
    expect(text).toMatch(
      /chargeCard \(function, src\/payments\/charge\.ts:2\).*; tested via callers: `test\/orders\.test\.ts`$/m,
    );
  });

  it("says what was searched when no test is reached", async () => {
    const text = await explore("lonelyHelper");
    expect(text).toMatch(/lonelyHelper \(function, src\/util\/lonely\.ts:1\).*; no tests found within 3 caller hops$/m);
  });

  it("stops at 64 caller lookups", async () => {
    const text = await explore("hub");
    expect(text).toMatch(/hub \(function, src\/gen\/hub\.ts:1\): 70 callers.*; no test calls this directly$/m);
  });
});

describe("what the query names leads", () => {
  it("pins an explicit path to the front", async () => {
    const text = await explore("how is `src/util/lonely.ts` related to charging a card");
    expect(sections(text)[0]).toBe("src/util/lonely.ts");
    expect(text).toMatch(/^Pinned by path: src\/util\/lonely\.ts$/m);
  });

  it("says where to read on when it cuts a pinned file short", async () => {
    const text = await explore("src/gen/hub.ts", { maxChars: 1000 });
    const cut = /^\s*(\d+) .*\n… cut here; codegraph_node (\S+) reads the rest\.$/m.exec(text);
    expect(cut?.[2]).toBe(`src/gen/hub.ts:${Number(cut?.[1]) + 1}`);
  });

  it("reports an explicit path that matches nothing", async () => {
    const text = await explore("what does src/missing/nothing.ts do in placeOrder");
    expect(text).toMatch(/^No indexed file matches: src\/missing\/nothing\.ts$/m);
  });

  it("anchors a pasted location to the enclosing function", async () => {
    const text = await explore("error at src/orders/place.ts:9");
    expect(sections(text)[0]).toBe("src/orders/place.ts");
    expect(text).toMatch(/placeOrder \(function, 5-10\)/);
    expect(text).toMatch(/^\s*9\s+return chargeCard\(id, cents\);$/m);
  });

  it("treats a qualified name as an exact target", async () => {
    const text = await explore("OrderService.submit");
    expect(sections(text)[0]).toBe("src/orders/place.ts");
    expect(text).toMatch(/^OrderService\.submit \(method, src\/orders\/place\.ts:13\)/m);
  });

  it("resolves prose to a camelCase name", async () => {
    const text = await explore("where do we place order");
    expect(text).toMatch(/placeOrder \(function, 5-10\)/);
  });
});

describe("questions agents paste", () => {
  it("finds the code that holds a pasted message's text", async () => {
    const text = await explore("Error: order total must be positive, got -5");
    expect(sections(text)[0]).toBe("src/orders/validate.ts");
    expect(text).toMatch(/^\s*3\s+throw new Error\(`order total must be positive/m);
  });

  it("finds where a pasted exception is raised", async () => {
    const text = await explore("PaymentDeclined: insufficient funds");
    expect(text).toMatch(/chargeCard \(function, 2-7\)/);
  });

  it("shows the callers' source for 'what calls X'", async () => {
    const text = await explore("what calls chargeCard");
    expect(text).toMatch(/placeOrder \(function, 5-10\)/);
    expect(text).toMatch(/^\s*9\s+return chargeCard\(id, cents\);$/m);
  });
});
