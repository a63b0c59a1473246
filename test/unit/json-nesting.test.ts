import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "../../src/mcp/json-nesting.js";

describe("JSON nesting depth", () => {
  const nested = (n: number, inner = "1") => "[".repeat(n) + inner + "]".repeat(n);

  it("counts arrays and objects, up to the limit and past it", () => {
    expect(nestsDeeperThan(nested(5), 5)).toBe(false);
    expect(nestsDeeperThan(nested(6), 5)).toBe(true);
    expect(nestsDeeperThan(`{"a":{"b":${nested(3)}}}`, 5)).toBe(false);
    expect(nestsDeeperThan(`{"a":{"b":${nested(4)}}}`, 5)).toBe(true);
    // Siblings do not add up: the depth falls back as each closes.
    expect(nestsDeeperThan(`[${Array(20).fill(nested(4)).join(",")}]`, 5)).toBe(false);
  });

  it("skips brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: '[[[[[[[[[["[[[[[[[[[[\\', b: ["{{{{{{{{{{"] });
    expect(nestsDeeperThan(text, 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'x"', b: [[[1]]] }), 3)).toBe(true);
  });

  it("leaves text too short to nest past the limit unread", () => {
    // Not valid JSON, and deeper than 5 if it were read: short text is never scanned.
    expect(nestsDeeperThan("[[[[[[", 5)).toBe(false);
    expect(nestsDeeperThan("[[[[[[[[[[[", 5)).toBe(true);
  });
});
