import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codegraphVersion } from "../../src/core/version.js";
import { builtByOlder } from "../../src/indexer/version.js";

describe("which indexes another codegraph version built are rebuilt", () => {
  it("older ones, and those from before versions were recorded", () => {
    expect(builtByOlder(null, "0.1.0")).toBe(true);
    expect(builtByOlder("0.0.9", "0.1.0")).toBe(true);
    expect(builtByOlder("0.9.12", "0.10.0")).toBe(true);
    expect(builtByOlder("1.2.3", "1.2.4")).toBe(true);
  });

  it("not the same version, nor a newer one, nor a pre-release of the same", () => {
    expect(builtByOlder("0.1.0", "0.1.0")).toBe(false);
    expect(builtByOlder("0.10.0", "0.9.12")).toBe(false);
    expect(builtByOlder("2.0.0", "1.9.9")).toBe(false);
    expect(builtByOlder("1.2.3-beta.1", "1.2.3")).toBe(false);
  });

  it("this codegraph's own version is its package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(codegraphVersion()).toBe(pkg.version);
  });
});
