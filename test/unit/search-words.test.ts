import { describe, expect, it } from "vitest";
import { searchWords } from "../../src/store/words.js";

/** What the words of a name are, as three regular expressions say it (how they were first written). */
const byExpressions = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$\-.]+/g, " ")
    .trim()
    .toLowerCase();

/** A deterministic generator, so a failure names the same names on every run. */
function* names(count: number, seed: number): Generator<string> {
  const alphabet = "aAbBzZ09_$-. xÉé";
  let state = seed;
  for (let k = 0; k < count; k++) {
    state = (state * 1103515245 + 12345) >>> 0;
    const length = state % 12;
    let name = "";
    for (let i = 0; i < length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      name += alphabet[(state >>> 8) % alphabet.length];
    }
    yield name;
  }
}

describe("searchWords", () => {
  it("splits names into lower-case words", () => {
    expect(searchWords("getUserById")).toBe("get user by id");
    expect(searchWords("HTTP_SERVER")).toBe("http server");
    expect(searchWords("HTTPServer")).toBe("http server");
    expect(searchWords("getHTTPServer2")).toBe("get http server2");
    expect(searchWords("__init__")).toBe("init");
    expect(searchWords("a1B2c")).toBe("a1 b2c");
    expect(searchWords("x.$y-z")).toBe("x y z");
    expect(searchWords("plain")).toBe("plain");
    expect(searchWords("")).toBe("");
  });

  it("says what the regular expressions say, for any name", () => {
    let checked = 0;
    for (const name of names(20_000, 39)) {
      expect(searchWords(name), JSON.stringify(name)).toBe(byExpressions(name));
      checked++;
    }
    expect(checked).toBe(20_000);
  });
});
