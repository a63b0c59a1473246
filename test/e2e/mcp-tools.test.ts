import { appendFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { run, tempRepo } from "../helpers/cli.js";
import { connectClient, indexedFixtureClient, textOf } from "../helpers/mcp.js";

// Each tool through a real v2 SDK client, on a fixture whose graph is known: two unrelated `add`
// functions (src/math.ts and lib/strings/join.ts), `twice` calling one, `Calculator` calling both
// of the first file's functions, and `main` driving Calculator.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");
const ALL = ["explore", "node", "search", "callers", "callees", "impact", "status", "files", "check", "export"];

let dir: string;
let c: Client;
let close: () => Promise<void>;

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await c.callTool({ name: `codegraph_${name}`, arguments: args });
  return { text: textOf(r), isError: r.isError === true };
};

beforeAll(async () => {
  ({ dir, client: c, close } = await indexedFixtureClient(FIXTURE));
}, 60_000);
afterAll(() => close());

describe("the tool list", () => {
  it("shows the four default tools, each read-only, idempotent and closed-world", async () => {
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["codegraph_callers", "codegraph_explore", "codegraph_node", "codegraph_search"].sort(),
    );
    for (const t of tools) {
      expect(t.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(t.description?.length).toBeGreaterThan(60);
      expect(Object.keys(t.inputSchema.properties ?? {})).toContain("projectPath");
    }
  });

  it("shows what CODEGRAPH_MCP_TOOLS lists", async () => {
    const other = await connectClient({ cwd: dir, env: { CODEGRAPH_MCP_TOOLS: ALL.join(",") } });
    try {
      const { tools } = await other.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(ALL.map((n) => `codegraph_${n}`).sort());
    } finally {
      await other.close();
    }
  });

  it("lists the ten for CODEGRAPH_MCP_TOOLS=all, and the default four when it names no tool we have", async () => {
    for (const [value, expected] of [
      ["all", ALL],
      ["serch, nodes", ["explore", "node", "search", "callers"]],
    ] as const) {
      const other = await connectClient({ cwd: dir, env: { CODEGRAPH_MCP_TOOLS: value } });
      try {
        const { tools } = await other.client.listTools();
        expect(tools.map((t) => t.name).sort(), value).toEqual(expected.map((n) => `codegraph_${n}`).sort());
        // The project's daemon answers the session, and the agent's MCP log shows this process's
        // stderr, not the daemon's log: the unknown names are said there too.
        if (value !== "all")
          expect(other.stderr()).toMatch(/CODEGRAPH_MCP_TOOLS: unknown tool\(s\) serch, nodes;.*listing the defaults/);
        else expect(other.stderr()).not.toMatch(/CODEGRAPH_MCP_TOOLS/);
      } finally {
        await other.close();
      }
    }
  });

  it("keeps every tool callable when it is not listed", async () => {
    for (const name of ALL) {
      const args: Record<string, unknown> =
        name === "explore"
          ? { query: "add" }
          : ["callers", "callees", "impact"].includes(name)
            ? { symbol: "add" }
            : {};
      if (name === "search") args.query = "add";
      if (name === "node") args.symbol = "add";
      const r = await call(name, args);
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
    }
  });
});

describe("search", () => {
  it("finds both definitions of add, with kind, location and signature", async () => {
    const { text } = await call("search", { query: "add" });
    expect(text).toMatch(/function\s+add\s+src\/math\.ts:2/);
    expect(text).toMatch(/function\s+add\s+lib\/strings\/join\.ts:2/);
    expect(text).toContain("add(a: number, b: number): number");
    expect(text).not.toContain(dir); // no absolute paths of the machine
  });

  it("narrows by kind and caps by limit", async () => {
    const { text } = await call("search", { query: "Calculator", kind: "class" });
    expect(text.trim().split("\n")[0]).toMatch(/^class\s+Calculator\s+src\/calculator\.ts:4/);
    const one = await call("search", { query: "add", limit: 1 });
    expect(one.text.match(/^function/gm)?.length).toBe(1);
  });
});

describe("callers and callees", () => {
  it("never merge unrelated same-named definitions", async () => {
    const { text } = await call("callers", { symbol: "add" });
    const sections = text.split(/^(?=Callers of )/m).filter((s) => s.startsWith("Callers of"));
    expect(sections).toHaveLength(2);
    const math = sections.find((s) => s.includes("src/math.ts:2"))!;
    const join_ = sections.find((s) => s.includes("lib/strings/join.ts:2"))!;
    expect(math).toMatch(/twice \(function\)\s+src\/math\.ts:7/);
    expect(math).toMatch(/Calculator\.plus \(method\)\s+src\/calculator\.ts:8/);
    expect(math).not.toContain("greet");
    expect(join_).toMatch(/greet \(function\)\s+lib\/strings\/join\.ts:7/);
    expect(text).toMatch(/2 definitions share this name/);
  });

  it("select one definition by file, and disclose a filter that matches nothing", async () => {
    const one = await call("callers", { symbol: "add", file: "strings/join.ts" });
    expect(one.text).toContain("greet");
    expect(one.text).not.toContain("twice");
    const none = await call("callers", { symbol: "add", file: "nowhere.ts" });
    expect(none.text).toMatch(/No definition of "add" is in a file matching "nowhere\.ts"; showing every definition/);
    expect(none.text).toContain("greet");
    expect(none.text).toContain("twice");
  });

  it("say Showing N of M when the limit hides rows", async () => {
    const { text } = await call("callers", { symbol: "add", file: "src/math.ts", limit: 1 });
    // The reference: the response tells the host to widen limit, up to 100.
    expect(text).toContain("Showing 1 of 2; raise the limit (up to 100) to see more.");
  });

  it("a class's callees are what its methods call", async () => {
    const { text } = await call("callees", { symbol: "Calculator" });
    expect(text).toMatch(/^Callees of Calculator \(class, src\/calculator\.ts:4\): 2$/m);
    expect(text).toMatch(/^ {2}add {2}src\/math\.ts:2 {2}line 8$/m);
    expect(text).toMatch(/^ {2}twice {2}src\/math\.ts:6 {2}line 13$/m);
  });

  it("callees list what a function calls and instantiates", async () => {
    const { text } = await call("callees", { symbol: "main" });
    expect(text).toMatch(/\[instantiates\] Calculator/);
    expect(text).toMatch(/Calculator\.plus/);
    expect(text).toMatch(/Calculator\.double/);
  });
});

describe("impact", () => {
  it("follows incoming dependencies transitively, by depth", async () => {
    const { text } = await call("impact", { symbol: "twice", depth: 3 });
    expect(text).toMatch(/depth 1: 1\n\s+Calculator\.double/);
    expect(text).toMatch(/depth 2: 1\n\s+main/);
    const shallow = await call("impact", { symbol: "twice", depth: 1 });
    expect(shallow.text).not.toMatch(/\bmain\b/);
  });

  it("takes a limit, and says how many dependents a cut answer left out", async () => {
    const { text } = await call("impact", { symbol: "twice", limit: 1 });
    expect(text).toMatch(/depth 1: 1\n\s+Calculator\.double/);
    expect(text).not.toMatch(/\bmain\b/);
    expect(text).toContain(
      "Showing 1 of 2 dependents within depth 3; raise the limit (up to 500) to see more, or lower the depth.",
    );
  });
});

describe("files and status", () => {
  it("files lists the indexed files as a tree or a list", async () => {
    const tree = await call("files");
    expect(tree.text).toMatch(/^src\/$/m);
    expect(tree.text).toMatch(/^ {2}math\.ts {2}\(typescript, \d+ symbols\)/m);
    const list = await call("files", { path: "lib", format: "list" });
    expect(list.text.trim()).toBe("lib/strings/join.ts");
    const absolute = await call("files", { path: join(dir, "lib"), format: "list" });
    expect(absolute.text.trim()).toBe("lib/strings/join.ts");
    const outside = await call("check", { path: "/etc" });
    expect(outside.text).toBe('"/etc" is outside the project: pass a folder inside it, or none for the whole project.');
    const bad = await call("files", { format: "graph" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Error: 'format' must be one of tree, list/);
  });

  it("status reports the graph, and a Pending sync section once the disk moves on", async () => {
    const before = await call("status");
    expect(before.text).toMatch(/Files: +3/);
    expect(before.text).toMatch(/Pending sync: none/);
    expect(before.text).toMatch(/^Auto-sync: ok/m);
    expect(before.text).not.toContain(dir);
    // A daemon that does not watch (--no-watch) leaves edits pending, and status lists them.
    const still = tempRepo(FIXTURE);
    try {
      expect((await run(["init", still.dir])).code).toBe(0);
      const other = await connectClient({ cwd: still.dir, args: ["--no-watch"] });
      try {
        // The first answer waits for the daemon's one catch-up; edits after it stay pending.
        await other.client.callTool({ name: "codegraph_status", arguments: {} });
        appendFileSync(join(still.dir, "src", "math.ts"), "\nexport const THREE = 3;\n");
        const after = textOf(await other.client.callTool({ name: "codegraph_status", arguments: {} }));
        expect(after).toMatch(/Pending sync: 0 added, 1 modified, 0 removed/);
        expect(after).toMatch(/modified: src\/math\.ts/);
      } finally {
        await other.close();
      }
    } finally {
      still.cleanup();
    }
  });
});

describe("reading files", () => {
  it("never serves a file outside the project", async () => {
    symlinkSync("/etc/hostname", join(dir, "src", "escape.ts"));
    for (const file of ["../../etc/passwd", "/etc/passwd", "src/escape.ts"]) {
      const r = await call("node", { file });
      expect(r.text, file).not.toMatch(/root:|^\s*1\s+\S/m);
    }
  });
});
