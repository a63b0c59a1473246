import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRegularInside } from "../../src/core/regular-file.js";
import { readSource } from "../../src/indexer/read-source.js";

// A path is checked, then opened: in between, a file can become a link out of the project (a race an
// attacker can win, see docs/decisions.md). The check is made on what was opened, so handing these
// functions the swapped path directly is what the race would do.
describe("reading a project's files checks what was opened", () => {
  let dir: string;
  let project: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "codegraph-inside-")));
    project = join(dir, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(join(dir, "outside"));
    writeFileSync(join(dir, "outside", "secret.ts"), "export const SECRET_OUTSIDE = 1;\n");
    writeFileSync(join(project, "src", "a.ts"), "export const a = 1;\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const text = (path: string) => readRegularInside(project, path, (fd) => readFileSync(fd, "utf8"));

  it("reads a file of the project, and one a link inside it leads to", () => {
    symlinkSync(join(project, "src", "a.ts"), join(project, "src", "alias.ts"));
    expect(text(join(project, "src", "a.ts"))).toBe("export const a = 1;\n");
    expect(text(join(project, "src", "alias.ts"))).toBe("export const a = 1;\n");
  });

  it("does not read a link out of the project, nor a path through a folder that leads out", () => {
    symlinkSync(join(dir, "outside", "secret.ts"), join(project, "src", "swapped.ts"));
    symlinkSync(join(dir, "outside"), join(project, "linked"));
    expect(text(join(project, "src", "swapped.ts"))).toBeNull();
    expect(text(join(project, "linked", "secret.ts"))).toBeNull();
    expect(text(join(dir, "outside", "secret.ts"))).toBeNull();
  });

  it("the indexer's read of a file swapped for a link out is a skip, with nothing of its bytes", () => {
    symlinkSync(join(dir, "outside", "secret.ts"), join(project, "src", "swapped.ts"));
    const read = readSource(join(project, "src", "swapped.ts"), 1 << 20, project);
    expect(read).toMatchObject({ ok: false, reason: "unreadable" });
    expect(JSON.stringify(read)).not.toContain("SECRET_OUTSIDE");
    expect(readSource(join(project, "src", "a.ts"), 1 << 20, project)).toMatchObject({ ok: true });
  });
});
