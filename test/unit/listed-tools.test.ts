import { describe, expect, it } from "vitest";
import { readEnv } from "../../src/config/env.js";
import { listedTools } from "../../src/mcp/session.js";
import { DEFAULT_TOOLS, TOOLS } from "../../src/mcp/tools.js";

const listed = (requested: string[] | null) => {
  const logged: string[] = [];
  return { tools: [...listedTools(requested, (line) => logged.push(line))].sort(), logged };
};

describe("the tools CODEGRAPH_MCP_TOOLS lists", () => {
  it("are the default four when it is unset", () => {
    expect(listed(null)).toEqual({ tools: [...DEFAULT_TOOLS].sort(), logged: [] });
  });

  it("are the names it gives, in any case, and all ten for `all`", () => {
    expect(listed(["Search", "IMPACT"])).toEqual({ tools: ["impact", "search"], logged: [] });
    expect(listed(["ALL"]).tools).toEqual(TOOLS.map((t) => t.short).sort());
    const named = readEnv({ CODEGRAPH_MCP_TOOLS: " Codegraph_Search ,codegraph_node" }).mcpTools;
    expect(listed(named).tools).toEqual(["node", "search"]);
  });

  it("leave out an unknown name, and say so", () => {
    const { tools, logged } = listed(["search", "serch"]);
    expect(tools).toEqual(["search"]);
    expect(logged).toEqual([
      expect.stringMatching(/^CODEGRAPH_MCP_TOOLS: unknown tool\(s\) serch; known: .*, or all$/),
    ]);
  });

  it("are the default four when it names no tool we have, and it says so", () => {
    const { tools, logged } = listed(["serch", "nodes"]);
    expect(tools).toEqual([...DEFAULT_TOOLS].sort());
    expect(logged[0]).toMatch(
      /unknown tool\(s\) serch, nodes; .*; listing the defaults \(explore, node, search, callers\)$/,
    );
  });
});
