import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExplicitProjects } from "../../src/daemon/broker.js";
import { socketPath } from "../../src/daemon/paths.js";

// The broker against a fake daemon listening on the project's socket: a stand-in for faults and
// timings a real daemon does not show on demand (an older daemon, one that dies mid-request). The
// real daemon's side is tested end to end in test/e2e/http.test.ts ("freshness").

interface Fake {
  root: string;
  requests: { id: number; method: string }[];
  connections: number;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A project folder with an index file, and a fake daemon that answers each request with `answer`. */
async function fakeDaemon(answer: (id: number, socket: Socket) => void): Promise<Fake> {
  const root = mkdtempSync(join(tmpdir(), "cg-broker-"));
  mkdirSync(join(root, ".codegraph"));
  writeFileSync(join(root, ".codegraph", "graph.db"), "");
  const fake: Fake = { root, requests: [], connections: 0 };
  const server: Server = createServer((socket) => {
    fake.connections++;
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { id?: number; method: string };
        buffer = buffer.slice(nl + 1);
        if (typeof msg.id !== "number") continue; // the hello
        fake.requests.push({ id: msg.id, method: msg.method });
        answer(msg.id, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath(root), resolve));
  cleanups.push(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });
  return fake;
}

function broker(): ExplicitProjects {
  const b = new ExplicitProjects({ version: "test", mainScript: "/nonexistent", hostPid: process.pid });
  cleanups.push(() => b.closeAll());
  return b;
}

const reply = (socket: Socket, body: object) => socket.write(`${JSON.stringify({ jsonrpc: "2.0", ...body })}\n`);

describe("ExplicitProjects.ready", () => {
  it("shares one connection, and one request on its way, among calls that arrive together", async () => {
    const health = { state: "recovering", since: "2026-11-30T00:00:00.000Z", reason: "held" };
    const fake = await fakeDaemon((id, socket) => setTimeout(() => reply(socket, { id, result: { health } }), 5));
    const b = broker();
    const answers = await Promise.all(Array.from({ length: 10 }, () => b.ready(fake.root)));
    expect(answers).toEqual(Array.from({ length: 10 }, () => health));
    expect(fake.connections).toBe(1);
    // The first call's request, and one more for the nine that arrived while it was on its way.
    expect(fake.requests.map((r) => r.method)).toEqual(["codegraph/ready", "codegraph/ready"]);
    expect(await b.ready(fake.root)).toEqual(health);
    expect(fake.requests).toHaveLength(3);
  });

  it("reads the index as it stands when the daemon predates codegraph/ready (it answers with an error)", async () => {
    const fake = await fakeDaemon((id, socket) =>
      reply(socket, { id, error: { code: -32601, message: "Method not found" } }),
    );
    expect(await broker().ready(fake.root)).toBeNull();
  });

  it("asks a live daemon again only once it has said something changed", async () => {
    let socket: Socket | null = null;
    let state = "ok";
    const fake = await fakeDaemon((id, s) => {
      socket = s;
      reply(s, { id, result: { health: { state }, live: true } });
    });
    const b = broker();
    expect(await b.ready(fake.root)).toEqual({ state: "ok" });
    // The answer holds: later calls read without a request.
    for (let i = 0; i < 5; i++) expect(await b.ready(fake.root)).toEqual({ state: "ok" });
    expect(fake.requests).toHaveLength(1);
    state = "recovering";
    reply(socket!, { method: "codegraph/changed" });
    await new Promise((r) => setTimeout(r, 20));
    expect(await b.ready(fake.root)).toEqual({ state: "recovering" });
    expect(fake.requests).toHaveLength(2);
  });

  it("does not trust an answer when a change notice arrived while its request was on its way", async () => {
    const fake = await fakeDaemon((id, s) => {
      // The daemon saw a change while it synced for this request: notice first, then the answer.
      if (id === 1) reply(s, { method: "codegraph/changed" });
      reply(s, { id, result: { health: { state: "ok" }, live: true } });
    });
    const b = broker();
    await b.ready(fake.root);
    await b.ready(fake.root);
    expect(fake.requests).toHaveLength(2);
    await b.ready(fake.root);
    expect(fake.requests).toHaveLength(2);
  });

  it("asks before every call when the daemon does not say it is live (older, or not watching)", async () => {
    const fake = await fakeDaemon((id, s) => reply(s, { id, result: { health: null } }));
    const b = broker();
    for (let i = 0; i < 3; i++) await b.ready(fake.root);
    expect(fake.requests).toHaveLength(3);
  });

  it("attaches again once when a call's daemon goes away, and fails a call whose next daemon goes too", async () => {
    let drops = 1;
    const fake = await fakeDaemon((id, socket) => {
      if (drops > 0) {
        drops--;
        socket.destroy();
      } else reply(socket, { id, result: { health: { state: "ok" } } });
    });
    const b = broker();
    expect(await b.ready(fake.root)).toEqual({ state: "ok" });
    expect(fake.connections).toBe(2);
    drops = 2;
    await expect(b.ready(fake.root)).rejects.toThrow(/the project's daemon went away; call again/);
    expect(fake.connections).toBe(3);
    expect(await b.ready(fake.root)).toEqual({ state: "ok" });
  });
});
