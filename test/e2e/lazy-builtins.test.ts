import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

/**
 * The CLI's bundles load crypto, child_process and worker_threads only when a command uses them
 * (scripts/after-build.mjs): together about 7 ms of every start. A read, a status and a sync that
 * finds nothing to parse use none of them, and a sync of a few files hashes them in JavaScript.
 * Nor net and tty, which `process.stdout` and `process.stderr` load for a pipe (as here, and as
 * agents run us) and a terminal: output goes through the descriptors (cli/output.ts).
 */
const PRELOAD = join(import.meta.dirname, "..", "helpers", "report-builtins.cjs");
const LAZY = ["crypto", "child_process", "worker_threads", "net", "tty"];

describe("built-ins loaded on first use", () => {
  let repo: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    repo = tempRepo(join(import.meta.dirname, "..", "resolve", "fixtures", "python"));
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  const loaded = async (args: string[], input?: string) => {
    const env = { ...process.env, NO_COLOR: "1", NODE_OPTIONS: `--require ${PRELOAD}` };
    const r = await run(args, input === undefined ? { env } : { env, input });
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

  it("the prompt hook reads its stdin and says nothing to small talk with none of them", async () => {
    const input = JSON.stringify({ prompt: "hello there, how are you", cwd: repo.dir });
    const names = await loaded(["prompt-hook"], input);
    expect(names.has("fs")).toBe(true);
    expect(LAZY.filter((n) => names.has(n))).toEqual([]);
  });

  it("a sync of an edited file hashes it without crypto; an index of more than 8 KiB loads it", async () => {
    const file = join(repo.dir, "shop", "extra.py");
    writeFileSync(file, "def extra():\n    return 1\n");
    const names = await loaded(["sync", repo.dir]);
    expect(LAZY.filter((n) => names.has(n))).toEqual([]);
    expect((await runJson<{ hits: unknown[] }>(["search", "extra", "-p", repo.dir])).hits).toContainEqual(
      expect.objectContaining({ name: "extra" }),
    );
    // Past 8 KiB hashed, the thread loads node:crypto (core/hash.ts).
    writeFileSync(file, Array.from({ length: 4000 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join(""));
    expect((await loaded(["init", "--force", repo.dir])).has("crypto")).toBe(true);
  });
});
