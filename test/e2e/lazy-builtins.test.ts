import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

/**
 * The CLI's bundles load crypto, child_process and worker_threads only when a command uses them
 * (scripts/after-build.mjs): together about 7 ms of every start. A read, a status and a sync that
 * finds nothing to parse use none of them.
 */
const PRELOAD = join(import.meta.dirname, "..", "helpers", "report-builtins.cjs");
const LAZY = ["crypto", "child_process", "worker_threads"];

describe("built-ins loaded on first use", () => {
  let repo: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    repo = tempRepo(join(import.meta.dirname, "..", "resolve", "fixtures", "python"));
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  const loaded = async (args: string[]) => {
    const r = await run(args, { env: { ...process.env, NO_COLOR: "1", NODE_OPTIONS: `--require ${PRELOAD}` } });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stderr.split("\n").find((l) => l.startsWith("builtins: "));
    return new Set(line!.slice("builtins: ".length).split(" "));
  };

  it("a status, a search and a sync with nothing to parse load none of them", async () => {
    for (const args of [
      ["status", "-p", repo.dir],
      ["search", "Order", "-p", repo.dir],
      ["sync", repo.dir],
    ]) {
      const names = await loaded(args);
      expect(names.has("fs"), args[0]).toBe(true); // the report itself works
      expect(
        LAZY.filter((n) => names.has(n)),
        args[0],
      ).toEqual([]);
    }
  });

  it("a sync that parses loads crypto to hash what it read, and works", async () => {
    const names = await loaded(["init", "--force", repo.dir]);
    expect(names.has("crypto")).toBe(true);
  });
});
