import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { RawServer, connectClient, initializeParams, textOf } from "../helpers/mcp.js";

// Project resolution, as the reference's three cases describe it: a default project (from --path,
// find-up, a bounded child scan, or the client's workspace), none, and an explicit projectPath.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");
const scratch: string[] = [];
const closers: (() => Promise<unknown>)[] = [];

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "codegraph-mcp-"));
  scratch.push(d);
  return d;
}

/** A copy of the fixture at `at`, indexed. */
async function project(at: string): Promise<string> {
  mkdirSync(at, { recursive: true });
  cpSync(FIXTURE, at, { recursive: true });
  const r = await run(["init", at]);
  expect(r.code, r.stderr).toBe(0);
  return at;
}

async function client(options: Parameters<typeof connectClient>[0]) {
  const c = await connectClient(options);
  closers.push(c.close);
  return c;
}

const requiresPath = (tools: { inputSchema: { required?: string[] } }[]) =>
  tools.every((t) => t.inputSchema.required?.includes("projectPath"));

let indexed: string;
beforeAll(async () => {
  indexed = await project(join(dir(), "app"));
}, 60_000);
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("a default project", () => {
  it("is found upward from the working directory, and projectPath is optional", async () => {
    const { client: c } = await client({ cwd: join(indexed, "src") });
    const { tools } = await c.listTools();
    expect(tools.some((t) => t.inputSchema.required?.includes("projectPath"))).toBe(false);
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "twice" } });
    expect(textOf(r)).toContain("src/math.ts:6");
  });

  it("is pinned by --path whatever the working directory", async () => {
    const { client: c } = await client({ cwd: dir(), args: ["--path", indexed] });
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "greet" } });
    expect(textOf(r)).toContain("lib/strings/join.ts:6");
  });

  it("is the one indexed child of a workspace, found by a bounded scan", async () => {
    const ws = dir();
    writeFileSync(join(ws, "package.json"), "{}");
    await project(join(ws, "packages", "core"));
    // Below node_modules and dot folders nothing counts.
    mkdirSync(join(ws, "node_modules", "dep", ".codegraph"), { recursive: true });
    writeFileSync(join(ws, "node_modules", "dep", ".codegraph", "graph.db"), "");
    const { client: c } = await client({ cwd: ws });
    expect(requiresPath((await c.listTools()).tools)).toBe(false);
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "twice" } });
    expect(textOf(r)).toContain("src/math.ts:6");
  }, 60_000);

  it("comes from the workspace the client names in initialize", async () => {
    const s = new RawServer({ cwd: dir() });
    closers.push(() => s.close());
    await s.request(1, "initialize", initializeParams("2025-06-18", { rootUri: pathToFileURL(indexed).href }));
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const r = await s.request(2, "tools/call", { name: "codegraph_search", arguments: { query: "greet" } });
    expect(JSON.stringify(r.result?.content)).toContain("lib/strings/join.ts:6");
  });

  it("comes from the client's roots when it advertises them", async () => {
    const { client: c, stderr } = await client({
      cwd: dir(),
      roots: [pathToFileURL(dir()).href, pathToFileURL(indexed).href],
    });
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "greet" } });
    expect(textOf(r)).toContain("lib/strings/join.ts:6");
    expect(stderr()).toContain("project from the client's roots");
    expect(requiresPath((await c.listTools()).tools)).toBe(false);
  });

  it("is adopted when the project is indexed after the server started", async () => {
    const late = join(dir(), "late");
    cpSync(FIXTURE, late, { recursive: true });
    const { client: c } = await client({ cwd: join(late, "src") });
    expect(requiresPath((await c.listTools()).tools)).toBe(true);
    expect((await run(["init", late])).code).toBe(0);
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "twice" } });
    expect(textOf(r)).toContain("src/math.ts:6");
  }, 60_000);
});

describe("no default project", () => {
  it("lists every tool with projectPath required, and a call without it gets the remedies", async () => {
    const { client: c } = await client({ cwd: dir() });
    const { tools } = await c.listTools();
    expect(tools.length).toBe(4);
    expect(requiresPath(tools)).toBe(true);
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "twice" } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/needs a project/);
    expect(textOf(r)).toMatch(/projectPath/);
  });

  it("lists several indexed children, sorted, and never guesses", async () => {
    const ws = dir();
    mkdirSync(join(ws, ".git"));
    await project(join(ws, "zeta"));
    await project(join(ws, "alpha", "svc"));
    const { client: c, stderr } = await client({ cwd: ws });
    expect(requiresPath((await c.listTools()).tools)).toBe(true);
    const text = textOf(await c.callTool({ name: "codegraph_search", arguments: { query: "twice" } }));
    const a = text.indexOf(join(ws, "alpha", "svc"));
    const z = text.indexOf(join(ws, "zeta"));
    expect(a).toBeGreaterThan(-1);
    expect(z).toBeGreaterThan(a);
    expect(stderr()).toContain(join(ws, "zeta"));
  }, 60_000);

  it("never scans below $HOME", async () => {
    const home = dir();
    mkdirSync(join(home, ".git"));
    await project(join(home, "only"));
    const { client: c } = await client({ cwd: home, env: { HOME: home } });
    expect(requiresPath((await c.listTools()).tools)).toBe(true);
  }, 60_000);

  it("serves an explicit absolute projectPath, and refuses one that does not resolve", async () => {
    const { client: c } = await client({ cwd: dir() });
    const ok = await c.callTool({ name: "codegraph_search", arguments: { query: "twice", projectPath: indexed } });
    expect(textOf(ok)).toContain("src/math.ts:6");
    const missing = await c.callTool({
      name: "codegraph_search",
      arguments: { query: "twice", projectPath: join(indexed, "no-such-folder") },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^Error: The projectPath .*no-such-folder does not exist/);
    const file = await c.callTool({
      name: "codegraph_search",
      arguments: { query: "twice", projectPath: join(indexed, "src", "math.ts") },
    });
    expect(file.isError).toBe(true);
    expect(textOf(file)).toMatch(/math\.ts is a file, not a folder/);
    const unindexed = dir();
    const notIndexed = await c.callTool({
      name: "codegraph_search",
      arguments: { query: "twice", projectPath: unindexed },
    });
    expect(notIndexed.isError).toBe(true);
    expect(textOf(notIndexed)).toContain(`codegraph init ${unindexed}`);
    // Too broad to index: no advice to run an `init` that refuses it.
    const root = await c.callTool({ name: "codegraph_search", arguments: { query: "twice", projectPath: "/" } });
    expect(root.isError).toBe(true);
    expect(textOf(root)).toMatch(/filesystem root or your home folder/);
    expect(textOf(root)).not.toContain("codegraph init");
  });

  it("names the indexed projects below an explicit folder that has no index of its own", async () => {
    const workspace = dir(); // a plain folder of projects (~/projects): no repository, no manifest
    const a = await project(join(workspace, "a"));
    const b = await project(join(workspace, "b"));
    const { client: c } = await client({ cwd: dir() });
    const r = await c.callTool({ name: "codegraph_search", arguments: { query: "twice", projectPath: workspace } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`the indexed projects below it are ${a}, ${b}`);
    expect(textOf(r)).not.toContain("codegraph init");
  }, 60_000);
});
