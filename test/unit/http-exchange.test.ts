import type { IncomingMessage } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { isPlainExchange, isUnclaimedPlainExchange } from "../../src/mcp/http-exchange.js";
import { LEGACY_PROTOCOL_VERSIONS, PROTOCOL_VERSIONS } from "../../src/mcp/server.js";

const BOTH = "application/json, text/event-stream";
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: { query: "x" } } };
const claim = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

const bodies: Record<string, unknown> = {
  call,
  "call with a string id": { ...call, id: "a" },
  "call without params": { jsonrpc: "2.0", id: 2, method: "tools/list" },
  "call with a progress token": { ...call, params: { ...call.params, _meta: { progressToken: 1 } } },
  "call with the 2026-07-28 envelope": { ...call, params: { ...call.params, _meta: claim } },
  initialize: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } },
  notification: { jsonrpc: "2.0", method: "notifications/initialized" },
  result: { jsonrpc: "2.0", id: 1, result: {} },
  error: { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "no" } },
  "a method and a result": { ...call, result: {} },
  "a null id": { ...call, id: null },
  "params as an array": { ...call, params: [1] },
  "no jsonrpc": { id: 1, method: "tools/call" },
  batch: [call],
  text: "tools/call",
};

const headerSets: Record<string, Record<string, string>> = {
  "no revision": { accept: BOTH },
  "a legacy revision": { accept: BOTH, "mcp-protocol-version": "2025-06-18" },
  "the 2026-07-28 revision": { accept: BOTH, "mcp-protocol-version": "2026-07-28" },
  "an unknown revision": { accept: BOTH, "mcp-protocol-version": "1999-01-01" },
  "an Mcp-Method header": { accept: BOTH, "mcp-method": "tools/call" },
  "an Mcp-Name header": { accept: BOTH, "mcp-name": "search" },
  "JSON only": { accept: "application/json" },
};

describe("telling a plain legacy exchange without the SDK's classifier", () => {
  it("takes only what the SDK classifies as legacy and a plain exchange", () => {
    const taken: string[] = [];
    for (const [bodyName, body] of Object.entries(bodies))
      for (const [headersName, headers] of Object.entries(headerSets)) {
        const req = { headers } as unknown as IncomingMessage;
        if (!isUnclaimedPlainExchange(req, body, LEGACY_PROTOCOL_VERSIONS)) continue;
        const era = classifyInboundRequest({
          httpMethod: "POST",
          protocolVersionHeader: headers["mcp-protocol-version"],
          mcpMethodHeader: headers["mcp-method"],
          mcpNameHeader: headers["mcp-name"],
          body,
        });
        const at = `${bodyName}, ${headersName}`;
        expect(era.kind, at).toBe("legacy");
        expect(isPlainExchange(req, body, PROTOCOL_VERSIONS), at).toBe(true);
        taken.push(at);
      }
    // Plain tool calls at a legacy revision or none, and nothing else.
    expect(taken.sort()).toEqual(
      [
        "call, a legacy revision",
        "call, no revision",
        "call with a string id, a legacy revision",
        "call with a string id, no revision",
        "call without params, a legacy revision",
        "call without params, no revision",
      ].sort(),
    );
  });
});
