import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";
import { languageForPath } from "../../src/extract/language.js";
import { looksLikeCpp } from "../../src/extract/languages/cpp.js";

/** A `.h` is C unless its text is C++; the other C++ endings are C++ whatever they hold. */
describe("C or C++ headers", () => {
  it("reads C++ constructs at declaration level as C++", () => {
    for (const text of [
      "class Shape {\n public:\n};",
      "namespace geo {\nint f();\n}",
      "template <typename T>\nT max(T a, T b);",
      "using namespace std;",
      "#include <vector>\nint f(void);",
      "inline double Shape::area() const { return 0; }",
      "struct S {\nprivate:\n  int x;\n};",
    ])
      expect(looksLikeCpp(text), text).toBe(true);
  });

  it("keeps C as C, also when it names things `class` or mentions C++ in comments", () => {
    for (const text of [
      "#include <stdio.h>\nint class_count(void);\nstruct node { int class; };",
      "/* See std::vector in C++ */\nint f(int x);",
      '#ifdef __cplusplus\nextern "C" {\n#endif\nvoid leveldb_close(void* db);',
      "#define NS(x) ns_##x\nint NS(open)(void);",
    ])
      expect(looksLikeCpp(text), text).toBe(false);
  });

  it("parses and stores a C++ header as C++, a C header as C", async () => {
    expect(languageForPath("geo/shape.h")).toBe("c");
    expect(languageForPath("geo/shape.hpp")).toBe("cpp");
    expect(languageForPath("geo/shape.cc")).toBe("cpp");
    const cpp = await extractSource(
      "c",
      "namespace geo {\nclass Shape {\n public:\n  double area() const;\n};\n}\n",
      "shape.h",
    );
    expect(cpp.language).toBe("cpp");
    expect(cpp.symbols.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual([
      "namespace geo",
      "class geo.Shape",
      "method geo.Shape.area",
    ]);
    const c = await extractSource("c", "struct point { int x; };\nint norm(struct point p);\n", "point.h");
    expect(c.language).toBeUndefined();
    // A `.c` file is C whatever it holds.
    const source = await extractSource("c", "class Shape {};\n", "odd.c");
    expect(source.language).toBeUndefined();
  });

  it("stores an Objective-C header as such, with nothing extracted, and reads #import headers by their text", async () => {
    const objc = await extractSource(
      "c",
      "#import <Foundation/Foundation.h>\nNS_ASSUME_NONNULL_BEGIN\n@interface Defines : NSObject\n@property (nonatomic) BOOL debug;\n@end\n",
      "Defines.h",
    );
    expect(objc.language).toBe("objective-c");
    expect(objc.symbols).toEqual([]);
    expect(objc.syntaxErrors).toBe(0);
    const methods = await extractSource("c", "+ (instancetype)shared;\n- (void)run:(int)n;\n", "Impl+Private.h");
    expect(methods.language).toBe("objective-c");
    // C++ shared with Objective-C++ imports too; it stays C++.
    const cpp = await extractSource("c", "#import <jsi/jsi.h>\nnamespace expo {\nclass Deallocator {};\n}\n", "D.h");
    expect(cpp.language).toBe("cpp");
    expect(cpp.symbols.map((x) => x.qualifiedName)).toEqual(["expo", "expo.Deallocator"]);
  });
});
