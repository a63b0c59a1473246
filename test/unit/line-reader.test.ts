import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { lines } from "../../src/daemon/line-reader.js";

/** Feed `chunks` through `lines` and collect what it reports, in order. */
async function read(chunks: (string | Buffer)[], maxBytes?: number): Promise<string[]> {
  const stream = new PassThrough();
  const seen: string[] = [];
  const ended = new Promise<void>((resolve) =>
    lines(
      stream,
      (line) => seen.push(line),
      resolve,
      maxBytes === undefined ? undefined : { maxBytes, onTooLong: () => seen.push("<too long>") },
    ),
  );
  for (const c of chunks) stream.write(c);
  stream.end();
  await ended;
  return seen;
}

describe("lines", () => {
  it("splits on newlines across chunks, drops blank lines and a trailing \\r, and reads a last line without its newline", async () => {
    expect(await read(["a\nb", "c\r\n\n  \nd", "e\nf"])).toEqual(["a", "bc", "de", "f"]);
    // A last line that is only white space is a blank line.
    expect(await read(["a\n", "  "])).toEqual(["a"]);
  });

  it("decodes a character whose bytes arrive in two chunks", async () => {
    const bytes = Buffer.from("é→x\n", "utf8");
    expect(await read([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)])).toEqual(["é→x"]);
  });

  it("reports a line past the limit once, as soon as it passes it, skips it to its newline, and goes on", async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    lines(stream, (line) => seen.push(line), undefined, { maxBytes: 8, onTooLong: () => seen.push("<too long>") });
    stream.write("short\n0123");
    stream.write("456789");
    await new Promise((resolve) => setImmediate(resolve));
    // Told before the line ends.
    expect(seen).toEqual(["short", "<too long>"]);
    stream.write("more of it");
    stream.write(" still\nnext\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["short", "<too long>", "next"]);
  });

  it("keeps a line of exactly the limit, counting bytes, not characters", async () => {
    expect(await read(["12345678\n"], 8)).toEqual(["12345678"]);
    expect(await read(["éééé\n"], 8)).toEqual(["éééé"]);
    expect(await read(["ééééé\n", "ok\n"], 8)).toEqual(["<too long>", "ok"]);
  });
});
