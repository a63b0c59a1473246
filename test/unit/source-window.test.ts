import { describe, expect, it } from "vitest";
import { lineCount, lineWindow, splitLines } from "../../src/query/node.js";
import { random } from "../helpers/random.js";

// A symbol's lines are cut from the file's text without splitting all of it: they must be exactly
// the lines splitting all of it gives, whatever the line endings.

const PIECES = ["a", "bc", " ", "\n", "\r\n", "\r", "\n\n", "é", "\t"];

describe("a window of a file's lines", () => {
  it("counts and cuts the lines splitLines gives, for any text and range", () => {
    const next = random(23);
    const texts = ["", "\n", "\r\n", "a", "a\n", "a\r\n", "\n\na", "a\n\n"];
    for (let i = 0; i < 300; i++) {
      let t = "";
      const n = Math.floor(next() * 30);
      for (let k = 0; k < n; k++) t += PIECES[Math.floor(next() * PIECES.length)]!;
      texts.push(t);
    }
    let cut = 0;
    for (const text of texts) {
      const all = splitLines(text);
      expect(lineCount(text), JSON.stringify(text)).toBe(all.length);
      for (let start = 0; start <= all.length + 2; start++) {
        for (let end = start - 1; end <= all.length + 2; end++) {
          const w = lineWindow("f", text, all.length, start, end);
          const s = Math.max(1, start);
          const e = Math.min(all.length, end);
          expect(w, `${JSON.stringify(text)} ${start}-${end}`).toEqual({
            file: "f",
            startLine: s,
            endLine: Math.max(s - 1, e),
            lines: all.slice(s - 1, Math.max(s - 1, e)),
            totalLines: all.length,
          });
          if (w.lines.length) cut++;
        }
      }
    }
    expect(cut).toBeGreaterThan(1000);
  });
});
