import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runJson, tempRepo } from "../helpers/cli.js";

/**
 * The parser is handed a file's text in chunks of at most 5,119 UTF-16 units, which the CLI's
 * bundles copy into WASM memory with Node's UTF-16 writer rather than web-tree-sitter's own copy
 * (scripts/after-build.mjs). Files of several chunks, with characters of two units and of one
 * straddling the chunks' edges, index with the right names, lines and signatures, on the parse
 * workers and on the main thread (sixty files: both parse).
 */
const FILES = 60;
const CHUNK = 5119;

/** A comment line that brings `text` to exactly `length` UTF-16 units. */
const padTo = (text: string, length: number) => `${text}# ${"a".repeat(length - text.length - 3)}\n`;

/**
 * A Python file of four chunks: 😀 (two units) straddles the first edge, inside a comment; the
 * second and third edges fall inside function names with an é in them; one more function follows.
 */
function source(i: number): string {
  let text = `def café_${i}(x):\n    return x\n`;
  text = padTo(text, CHUNK - 2) + "#😀\n";
  for (const k of [2, 3]) text = padTo(text, k * CHUNK - 8) + `def edgé_${k}_${i}():\n    return café_${i}(1)\n`;
  return `${text}def after_chunks_${i}(value, other):\n    return café_${i}(value)\n`;
}

interface Hit {
  name: string;
  file: string;
  startLine: number;
  signature: string | null;
}

describe("source text in chunks", () => {
  let repo: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    repo = tempRepo();
    for (let i = 0; i < FILES; i++) writeFileSync(join(repo.dir, `m${i}.py`), source(i));
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("indexes what follows several chunks where it is, with its text", async () => {
    const line =
      source(0)
        .split("\n")
        .findIndex((l) => l.startsWith("def after_chunks_0")) + 1;
    expect(line).toBeGreaterThan(4);
    const { hits } = await runJson<{ hits: Hit[] }>(["search", "after_chunks", "-p", repo.dir, "--limit", "100"]);
    const found = hits.filter((h) => h.name.startsWith("after_chunks_"));
    expect(found).toHaveLength(FILES);
    for (const h of found) {
      const i = h.name.slice("after_chunks_".length);
      expect(h).toMatchObject({ file: `m${i}.py`, startLine: line, signature: `def after_chunks_${i}(value, other)` });
    }
  });

  it("reads the names the chunks' edges cut through", async () => {
    const { hits } = await runJson<{ hits: Hit[] }>(["search", "edgé", "-p", repo.dir, "--limit", "200"]);
    const names = new Set(hits.map((h) => `${h.file}:${h.name}`));
    for (let i = 0; i < FILES; i++) for (const k of [2, 3]) expect(names).toContain(`m${i}.py:edgé_${k}_${i}`);
  });

  it("resolves the call across the chunks to the non-ASCII name", async () => {
    // Read as text: the assertion is only that the callee's name is in the answer.
    const callees = await runJson<unknown>(["callees", "after_chunks_7", "-p", repo.dir]);
    expect(JSON.stringify(callees)).toContain("café_7");
  });

  it("the CLI's parser bundles carry that copy", () => {
    for (const bundle of ["in-process.js", "worker.js"]) {
      expect(readFileSync(join(CLI, "..", bundle), "utf8"), bundle).toContain("__copyChunk(HEAPU8.buffer");
    }
  });
});
