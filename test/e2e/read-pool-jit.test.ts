import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Why a tool pool sets `--no-turbo-inline-array-builtins` (src/mcp/read-pool.ts): an optimised
// function's inlined `map` answers a holey array where the builtin answers a packed one, and a
// server's read workers kept recompiling on the new array maps. A real Node process, the built
// module, V8's own intrinsics (test/helpers/optimised-map.mjs).
const DIST = join(import.meta.dirname, "..", "..", "dist");
const HELPER = join(import.meta.dirname, "..", "helpers", "optimised-map.mjs");

function optimisedMap(mode: "pool" | "alone"): { optimised: boolean; holey: boolean } {
  const r = spawnSync(process.execPath, ["--allow-natives-syntax", HELPER, DIST, mode], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { optimised: boolean; holey: boolean };
}

describe("a tool pool's process and V8's array builtins", () => {
  it("without a pool, an optimised map answers a holey array (what the flag is for)", () => {
    expect(optimisedMap("alone")).toEqual({ optimised: true, holey: true });
  });

  it("once a pool is made, an optimised map answers a packed array, as the builtin does", () => {
    expect(optimisedMap("pool")).toEqual({ optimised: true, holey: false });
  });
});
