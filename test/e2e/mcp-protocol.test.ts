import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run, tempRepo } from "../helpers/cli.js";
import { MODERN_META, RawServer, initializeParams, type RawReply } from "../helpers/mcp.js";

// Every row of the reference's protocol table, spoken line by line to the built `codegraph serve --mcp`.

const FIXTURE = join(import.meta.dirname, "fixtures", "mcp");
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

let repo: ReturnType<typeof tempRepo>;
const servers: RawServer[] = [];

beforeAll(async () => {
  repo = tempRepo(FIXTURE);
  const r = await run(["init", repo.dir]);
  expect(r.code).toBe(0);
}, 60_000);
afterAll(() => repo.cleanup());
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function server(env?: Record<string, string>): RawServer {
  const s = new RawServer({ cwd: repo.dir, env });
  servers.push(s);
  return s;
}

async function initialized(version: string): Promise<{ s: RawServer; init: RawReply }> {
  const s = server();
  const init = await s.request(1, "initialize", initializeParams(version));
  s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { s, init };
}

describe("initialize", () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
    it(`echoes ${version}, names codegraph with the package version, and advertises only tools`, async () => {
      const { init } = await initialized(version);
      expect(init.result?.protocolVersion).toBe(version);
      expect(init.result?.serverInfo).toEqual({ name: "codegraph", version: VERSION });
      expect(Object.keys(init.result?.capabilities as object)).toEqual(["tools"]);
      expect(init.result).not.toHaveProperty("resultType");
    });
  }

  for (const version of ["2026-07-28", "1999-01-01"]) {
    it(`answers an initialize for ${version} with 2024-11-05`, async () => {
      const { init } = await initialized(version);
      expect(init.result?.protocolVersion).toBe("2024-11-05");
    });
  }
});

describe("legacy sessions", () => {
  it("answer the inherited probes with empty results and no resultType", async () => {
    const { s } = await initialized("2025-06-18");
    expect((await s.request(2, "ping")).result).toEqual({});
    expect((await s.request(3, "prompts/list")).result).toEqual({ prompts: [] });
    expect((await s.request(4, "resources/list")).result).toEqual({ resources: [] });
    expect((await s.request(5, "resources/templates/list")).result).toEqual({ resourceTemplates: [] });
    const completion = await s.request(6, "completion/complete", {
      ref: { type: "ref/prompt", name: "x" },
      argument: { name: "a", value: "b" },
    });
    expect(completion.result).toEqual({ completion: { values: [] } });
    const tools = await s.request(7, "tools/list");
    expect(tools.result).not.toHaveProperty("resultType");
    const call = await s.request(8, "tools/call", { name: "codegraph_search", arguments: { query: "add" } });
    expect(call.result).not.toHaveProperty("resultType");
  });

  it("answer unimplemented methods with method-not-found", async () => {
    const { s } = await initialized("2025-11-25");
    const calls: [string, unknown][] = [
      ["logging/setLevel", { level: "info" }],
      ["prompts/get", { name: "x" }],
      ["resources/read", { uri: "file:///etc/passwd" }],
      ["resources/subscribe", { uri: "file:///etc/passwd" }],
    ];
    for (const [i, [method, params]] of calls.entries()) {
      const r = await s.request(10 + i, method, params);
      expect(r.error?.code, method).toBe(-32601);
    }
  });
});

describe("stateless 2026-07-28 requests", () => {
  it("are served without initialize, with resultType complete", async () => {
    const s = server();
    const tools = await s.request(1, "tools/list", { _meta: MODERN_META });
    expect(tools.result?.resultType).toBe("complete");
    expect((tools.result?.tools as { name: string }[]).map((t) => t.name)).toContain("codegraph_search");
    const call = await s.request(2, "tools/call", {
      name: "codegraph_search",
      arguments: { query: "twice" },
      _meta: MODERN_META,
    });
    expect(call.result?.resultType).toBe("complete");
    expect(JSON.stringify(call.result?.content)).toContain("src/math.ts:6");
  });

  it("get method-not-found for ping", async () => {
    const s = server();
    const r = await s.request(1, "ping", { _meta: MODERN_META });
    expect(r.error?.code).toBe(-32601);
  });
});

describe("tool errors", () => {
  it("an unknown tool is JSON-RPC -32602", async () => {
    const { s } = await initialized("2025-06-18");
    const r = await s.request(2, "tools/call", { name: "codegraph_nope", arguments: {} });
    expect(r.error?.code).toBe(-32602);
  });

  it("a missing or invalid argument is an isError result with an Error: text", async () => {
    const { s } = await initialized("2025-06-18");
    const missing = await s.request(2, "tools/call", { name: "codegraph_callers", arguments: {} });
    expect(missing.result?.isError).toBe(true);
    expect(JSON.stringify(missing.result?.content)).toMatch(/Error: Missing required argument 'symbol'/);
    // Blank is missing too, not a search for nothing.
    const blank = await s.request(4, "tools/call", { name: "codegraph_explore", arguments: { query: " \t " } });
    expect(blank.result?.isError).toBe(true);
    expect(JSON.stringify(blank.result?.content)).toMatch(/Error: Missing required argument 'query'/);
    const wrong = await s.request(3, "tools/call", {
      name: "codegraph_search",
      arguments: { query: "add", limit: "lots" },
    });
    expect(wrong.result?.isError).toBe(true);
    expect(JSON.stringify(wrong.result?.content)).toMatch(/Error: 'limit' must be a whole number from 1 to 100/);
  });
});

describe("malformed input", () => {
  it("gets JSON-RPC errors, never a crash or silence, and the server keeps serving", async () => {
    const { s } = await initialized("2025-06-18");
    s.send("this is not json");
    const parse = await s.waitFor((r) => r.error?.code === -32700);
    expect(parse.id).toBeNull();

    s.send([{ jsonrpc: "2.0", id: 50, method: "ping" }]);
    const batch = await s.waitFor((r) => r.error?.code === -32600 && /batch/i.test(r.error.message));
    expect(batch.id).toBeNull();

    s.send({ jsonrpc: "2.0", id: 51, method: 42 });
    const invalid = await s.waitFor((r) => r.id === 51);
    expect(invalid.error?.code).toBe(-32600);

    s.send(`{"jsonrpc":"2.0","id":52,"method":"ping","params":{"pad":"${"x".repeat(10 * 1024 * 1024)}"}}`);
    const huge = await s.waitFor((r) => r.error?.code === -32600 && /too large/i.test(r.error.message));
    expect(huge.id).toBeNull();

    // No tool name: -32602, its issue named in one line (the SDK prints zod's issues as JSON).
    const wrongType = await s.request(53, "tools/call", { name: 7 });
    expect(wrongType.error?.code).toBe(-32602);
    expect(wrongType.error?.message).toBe(
      "Invalid tools/call request: params.name: Invalid input: expected string, received number.",
    );
    // Arguments that are no object are a bad argument of a known tool: an isError result.
    const badArgs = await s.request(54, "tools/call", { name: "codegraph_search", arguments: "query=add" });
    expect(badArgs.error).toBeUndefined();
    expect(badArgs.result?.isError).toBe(true);
    expect(JSON.stringify(badArgs.result?.content)).toContain(
      `Error: 'arguments' must be a JSON object of the tool's arguments by name (such as {\\"query\\": \\"...\\"}), not \\"query=add\\".`,
    );
    const listed = await s.request(56, "tools/call", { name: "codegraph_callers", arguments: ["Adder"] });
    expect(listed.result?.isError).toBe(true);
    expect(JSON.stringify(listed.result?.content)).toContain(
      `(such as {\\"symbol\\": \\"...\\"}), not an array of 1 item.`,
    );
    // An unknown tool stays -32602, whatever its arguments.
    const unknown = await s.request(57, "tools/call", { name: "codegraph_nope", arguments: "x" });
    expect(unknown.error?.code).toBe(-32602);

    // Still alive and answering.
    expect((await s.request(55, "ping")).result).toEqual({});
    expect(s.child.exitCode).toBeNull();
  });

  // A script pipes its requests in and closes stdin at once (`printf … | codegraph serve --mcp`): the
  // input ended before the calls were answered, and the last line has no newline.
  async function answersAfterStdinEnds(s: RawServer): Promise<void> {
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-06-18") },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "codegraph_search", arguments: { query: "Adder" } },
      },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "codegraph_callers", arguments: { symbol: "add" } },
      },
    ].map((m) => JSON.stringify(m));
    s.child.stdin.end(lines.join("\n"));
    expect(await s.close()).toBe(0);
    expect(s.replies.map((r) => r.id).sort()).toEqual([1, 2, 3]);
    for (const id of [2, 3]) expect(s.replies.find((r) => r.id === id)?.result?.isError).toBeFalsy();
    expect(JSON.stringify(s.replies.find((r) => r.id === 2)?.result?.content)).toContain("Adder");
  }

  it("answers every request written before stdin ended, through the project's daemon", async () => {
    await answersAfterStdinEnds(server());
  });

  it("answers every request written before stdin ended, in the foreground (CODEGRAPH_NO_DAEMON=1)", async () => {
    // A project of its own: this file's other sessions leave a daemon holding the shared one's lock.
    const own = tempRepo(FIXTURE);
    try {
      expect((await run(["init", own.dir])).code).toBe(0);
      const s = new RawServer({ cwd: own.dir, env: { CODEGRAPH_NO_DAEMON: "1" } });
      servers.push(s);
      await answersAfterStdinEnds(s);
    } finally {
      own.cleanup();
    }
  }, 60_000);

  it("exits cleanly when the client closes stdin", async () => {
    const { s } = await initialized("2025-06-18");
    await s.request(2, "ping");
    expect(await s.close()).toBe(0);
    expect(s.stdout).toBe(""); // nothing but whole JSON lines was ever written
  });
});
