import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { run } from "../helpers/cli.js";
import { indexedFixtureClient, textOf } from "../helpers/mcp.js";

// The reference's codegraph_callers follows calls, references and imports: `load(repo: Repo)` uses
// Repo in its signature without calling it, and a change to Repo breaks it all the same.
const FIXTURE = join(import.meta.dirname, "fixtures", "callers-uses");

let dir: string;
let c: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ dir, client: c, close } = await indexedFixtureClient(FIXTURE));
}, 60_000);
afterAll(() => close());

describe("codegraph_callers", () => {
  it("lists references after calls: a type in a signature is a use of it", async () => {
    const text = textOf(await c.callTool({ name: "codegraph_callers", arguments: { symbol: "Repo" } }));
    const rows = text.split("\n").filter((l) => l.startsWith("  "));
    const made = rows.findIndex((l) => /\[instantiates\] make \(function\)/.test(l));
    const typed = rows.findIndex((l) => /\[references\] load \(function\)\s+src\/service\.ts:3/.test(l));
    expect(made).toBeGreaterThanOrEqual(0);
    expect(typed).toBeGreaterThan(made);
    // The return type of `make` is a reference too, listed after every call.
    expect(rows.findLastIndex((l) => !l.includes("[references]"))).toBeLessThan(typed);
  });

  it("the CLI's callers stay calls unless --all-uses asks for every use", async () => {
    const calls = await run(["callers", "Repo", "-p", dir]);
    expect(calls.stdout).toContain("[instantiates] make");
    expect(calls.stdout).not.toContain("[references]");
    const all = await run(["callers", "Repo", "--all-uses", "-p", dir]);
    expect(all.stdout).toMatch(/\[references\] load \(function\)\s+src\/service\.ts:3/);
  });

  it("the CLI's callers of what is never called name its other uses, which --all-uses lists", async () => {
    const calls = await run(["callers", "MAX_ROWS", "-p", dir]);
    const all = await run(["callers", "MAX_ROWS", "--all-uses", "-p", dir]);
    const uses = all.stdout.split("\n").filter((l) => l.startsWith("  ["));
    expect(uses.some((l) => /\[references\] load \(function\)\s+src\/service\.ts:4/.test(l))).toBe(true);
    expect(calls.stdout).toContain(
      `(no calls; ${uses.length} other use${uses.length === 1 ? "" : "s"}, which --all-uses lists)`,
    );
    // With no use at all, nothing to point to.
    const unused = await run(["callers", "make", "-p", dir]);
    expect(unused.stdout).toContain("(none found)");
  });
});
