import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendOwnFile, createOwnFile, writeOwnFile } from "../../src/core/own-file.js";

describe("files of our own, written without following links", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "codegraph-own-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => join(dir, name);

  it("replace a link with the file, leaving what it points to as it was", () => {
    writeFileSync(at("target"), "precious\n");
    symlinkSync(at("target"), at("written"));
    symlinkSync(at("target"), at("appended"));
    writeOwnFile(at("written"), "ours\n");
    appendOwnFile(at("appended"), "line\n");
    appendOwnFile(at("appended"), "line\n");
    expect(readFileSync(at("target"), "utf8")).toBe("precious\n");
    expect(lstatSync(at("written")).isFile()).toBe(true);
    expect(readFileSync(at("written"), "utf8")).toBe("ours\n");
    expect(readFileSync(at("appended"), "utf8")).toBe("line\nline\n");
  });

  it("replace a FIFO without waiting for a reader, and refuse a folder", () => {
    expect(spawnSync("mkfifo", [at("fifo")]).status).toBe(0);
    appendOwnFile(at("fifo"), "line\n");
    expect(readFileSync(at("fifo"), "utf8")).toBe("line\n");
    mkdirSync(at("folder"));
    expect(() => writeOwnFile(at("folder"), "x")).toThrow();
    expect(lstatSync(at("folder")).isDirectory()).toBe(true);
  });

  it("make a file only where nothing is, a dangling link included", () => {
    symlinkSync(at("nowhere"), at("dangling"));
    expect(createOwnFile(at("dangling"), "x")).toBe(false);
    expect(() => lstatSync(at("nowhere"))).toThrow();
    writeFileSync(at("theirs"), "user's\n");
    expect(createOwnFile(at("theirs"), "x")).toBe(false);
    expect(readFileSync(at("theirs"), "utf8")).toBe("user's\n");
    expect(createOwnFile(at("new"), "made\n")).toBe(true);
    expect(readFileSync(at("new"), "utf8")).toBe("made\n");
  });
});
