import { describe, expect, it } from "vitest";
import { languageForPath } from "../../src/extract/language.js";

describe("the language a path is indexed as", () => {
  it("is read from the file's own ending, in any case", () => {
    expect(languageForPath("src/app.ts")).toBe("typescript");
    expect(languageForPath("types/index.d.ts")).toBe("typescript");
    expect(languageForPath("ui/Button.TSX")).toBe("tsx");
    expect(languageForPath("lib/tasks/db.rake")).toBe("ruby");
    expect(languageForPath("core/list.c++")).toBe("cpp");
    expect(languageForPath("pkg/mod.py")).toBe("python");
    expect(languageForPath(".py")).toBe("python");
  });

  it("is none for a file without a claimed ending, whatever its folders are called", () => {
    expect(languageForPath("Makefile")).toBeNull();
    expect(languageForPath("release.v2/notes")).toBeNull();
    expect(languageForPath("tools.py/README")).toBeNull();
    expect(languageForPath("dist/app.js.map")).toBeNull();
    expect(languageForPath("archive.tar.gz")).toBeNull();
    expect(languageForPath("src/app.ts~")).toBeNull();
  });
});
