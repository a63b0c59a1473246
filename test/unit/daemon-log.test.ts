import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { daemonLogger } from "../../src/daemon/log.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("daemon log", () => {
  it("appends lines and rotates past 1 MiB, keeping one previous file", () => {
    const root = mkdtempSync(join(tmpdir(), "codegraph-log-"));
    dirs.push(root);
    mkdirSync(join(root, ".codegraph"));
    const log = daemonLogger(root);
    log("first");
    const path = join(root, ".codegraph", "daemon.log");
    expect(readFileSync(path, "utf8")).toMatch(/\] first\n$/);
    writeFileSync(path, "x".repeat(1024 * 1024 + 1));
    log("after rotation");
    expect(existsSync(`${path}.1`)).toBe(true);
    expect(statSync(`${path}.1`).size).toBeGreaterThan(1024 * 1024);
    expect(readFileSync(path, "utf8")).toMatch(/^\S+ \[\d+\] after rotation\n$/);
  });

  it("never throws when the index folder is gone", () => {
    const log = daemonLogger(join(tmpdir(), "codegraph-no-such-project-xyz"));
    expect(() => log("nowhere")).not.toThrow();
  });
});
