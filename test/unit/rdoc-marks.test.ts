import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

describe("an RDoc block opened by a `##` line", () => {
  it("documents the method without the mark", async () => {
    const source = [
      "class Base",
      "  ##",
      "  # Saves the record.",
      "  # Raises on failure.",
      "  def save!",
      "  end",
      "end",
      "",
    ].join("\n");
    const result = await extractSource("ruby", source, "base.rb");
    const save = result.symbols.find((s) => s.name === "save!");
    expect(save?.docstring).toBe("Saves the record.\nRaises on failure.");
  });
});
