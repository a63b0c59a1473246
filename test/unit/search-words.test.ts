import { describe, expect, it } from "vitest";
import { searchWords } from "../../src/store/words.js";
import { random } from "../helpers/random.js";

/** What the words of a name are, as three regular expressions say it (how they were first written). */
const byExpressions = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$\-.]+/g, " ")
    .trim()
    .toLowerCase();

/** Names of up to 11 characters from letters of both cases, digits, separators, a space and accents. */
function* names(count: number, seed: number): Generator<string> {
  const alphabet = "aAbBzZ09_$-. xÉé";
  const next = random(seed);
  for (let k = 0; k < count; k++) {
    let name = "";
    for (let i = Math.floor(next() * 12); i > 0; i--) name += alphabet[Math.floor(next() * alphabet.length)];
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
