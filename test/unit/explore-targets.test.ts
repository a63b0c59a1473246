import { describe, expect, it } from "vitest";
import {
  codeShapedNames,
  matchWindow,
  normalisePath,
  parseFreeRanges,
  parsePathSpans,
  proseWindows,
  qualifiedNames,
  removeRanges,
  type PathSpan,
} from "../../src/query/explore-parse.js";

/** The spans of a query as [path, kind, lines] triples, the shape most assertions want. */
const spansOf = (query: string) =>
  parsePathSpans(query).map((s) => [s.path, s.kind, s.lines.map((l) => [l.start, l.end])] as const);

const only = (query: string): PathSpan => {
  const spans = parsePathSpans(query);
  expect(spans).toHaveLength(1);
  return spans[0]!;
};

describe("path spans", () => {
  it.each([
    ['look at "src/app.ts" please', "src/app.ts"],
    ["look at 'src/app.ts' please", "src/app.ts"],
    ["look at `src/app.ts` please", "src/app.ts"],
    ["look at ./src/app.ts please", "src/app.ts"],
    ["look at ../../src/app.ts please", "src/app.ts"],
    ["look at src\\app\\main.ts please", "src/app/main.ts"],
    ["look at src\\\\app\\\\main.ts please", "src/app/main.ts"],
    ["look at django/db/models/query.py please", "django/db/models/query.py"],
    ["look at compiler.py please", "compiler.py"],
    ["why does compiler.py. fail", "compiler.py"],
    ["(see app.tsx)", "app.tsx"],
    ["pages/users/[userId]/edit.tsx", "pages/users/[userId]/edit.tsx"],
    ["app/(auth)/login/page.tsx", "app/(auth)/login/page.tsx"],
  ])("finds the explicit path in %s", (query, path) => {
    const span = only(query);
    expect(span.path).toBe(path);
    expect(span.kind).toBe("explicit");
    expect(span.absolute).toBe(false);
  });

  it.each([
    ["/home/u/proj/src/app.ts", "home/u/proj/src/app.ts"],
    ["C:\\Users\\me\\proj\\src\\app.ts", "Users/me/proj/src/app.ts"],
    ["~/proj/src/app.ts", "proj/src/app.ts"],
    ["file:///home/u/proj/src/app.ts", "home/u/proj/src/app.ts"],
    ["https://github.com/org/repo/blob/main/src/app.ts", "org/repo/blob/main/src/app.ts"],
  ])("marks %s as a foreign absolute path whose leading segments may be dropped", (query, path) => {
    const span = only(query);
    expect(span).toMatchObject({ path, kind: "explicit", absolute: true });
  });

  it("keeps the text as written, without quotes", () => {
    expect(only("fix `src\\app.ts:4`").raw).toBe("src\\app.ts");
    const span = only('see "./src/app.ts" now');
    expect(span.raw).toBe("./src/app.ts");
    expect('see "./src/app.ts" now'.slice(span.start, span.end)).toBe('"./src/app.ts"');
  });

  it("treats an unquoted slash without extension as a soft path and quoted or ./ ones as explicit", () => {
    expect(spansOf("input and/or output, client/server")).toEqual([
      ["and/or", "soft", []],
      ["client/server", "soft", []],
    ]);
    expect(spansOf("`src/utils` and ./lib/format and /api/users/:id")).toEqual([
      ["src/utils", "explicit", []],
      ["lib/format", "explicit", []],
      ["api/users/:id", "explicit", []],
    ]);
  });

  it("takes extensionless kebab tokens as basename candidates, and nothing else from prose", () => {
    expect(spansOf("how does query-builder escape names")).toEqual([["query-builder", "basename", []]]);
    expect(spansOf("a well-known, long-running issue in 2-3 places")).toEqual([
      ["well-known", "basename", []],
      ["long-running", "basename", []],
    ]);
    expect(spansOf("the SQLCompiler.as_sql method, e.g. in QuerySet.filter")).toEqual([]);
    expect(spansOf("res.json() and config.toml")).toEqual([]);
  });

  it("does not read product names or web pages as paths", () => {
    expect(spansOf("upgrade Node.js")).toEqual([["Node.js", "soft", []]]);
    expect(spansOf("read https://example.com/docs/intro first")).toEqual([]);
  });

  it("normalises separators, drives and relative prefixes", () => {
    expect(normalisePath("src\\\\app\\\\main.ts")).toEqual({
      path: "src/app/main.ts",
      absolute: false,
      deliberate: true,
    });
    expect(normalisePath("D:/work/app.ts")).toEqual({ path: "work/app.ts", absolute: true, deliberate: false });
    expect(normalisePath("./a//b/")).toEqual({ path: "a/b", absolute: false, deliberate: true });
  });
});

describe("line selectors", () => {
  it.each([
    ["compiler.py:776", [776, null]],
    ["foo.ts:12-40", [12, 40]],
    ["foo.ts#L88-L120", [88, 120]],
    ["foo.ts#L88-120", [88, 120]],
    ["foo.ts#L88", [88, null]],
    ["foo.ts#L8C3-L9C1", [8, 9]],
    ["`foo.ts:12-40`", [12, 40]],
    ['"foo.ts#L88-L120"', [88, 120]],
    ["foo.ts:42:7", [42, null]],
    ["compiler.py lines 900-1003", [900, 1003]],
    ["compiler.py lines 900 to 1003", [900, 1003]],
    ["compiler.py line 941", [941, null]],
    ["compiler.py at line 941", [941, null]],
    ["compiler.py L900-L1003", [900, 1003]],
    ["compiler.py 776", [776, null]],
    ["compiler.py 12-40", [12, 40]],
    ["foo.ts:7-7", [7, null]],
  ])("%s", (query, [start, end]) => {
    const span = only(query);
    expect(span.lines).toEqual([{ start, end }]);
    expect(span.end).toBe(query.length);
  });

  it("reads a Python traceback line", () => {
    const query = 'File "django/db/models/query.py", line 941, in filter';
    const span = only(query);
    expect(span.path).toBe("django/db/models/query.py");
    expect(span.lines).toEqual([{ start: 941, end: null }]);
    expect(removeRanges(query, [span])).toBe("File in filter");
  });

  it("reads a JS stack frame", () => {
    const query = "    at handleRequest (src/app.ts:42:7)\n    at file:///home/u/p/src/main.ts:9:1";
    expect(spansOf(query)).toEqual([
      ["src/app.ts", "explicit", [[42, null]]],
      ["home/u/p/src/main.ts", "explicit", [[9, null]]],
    ]);
    expect(removeRanges(query, parsePathSpans(query))).toBe("at handleRequest at");
  });

  it.each([
    "foo.ts:0",
    "foo.ts:1000001",
    "foo.ts:5-1000001",
    "foo.ts:40-12",
    "foo.ts#L0",
    "compiler.py line 2000000",
    "compiler.py 1000001",
  ])("ignores the invalid or overflowing selector in %s", (query) => {
    expect(only(query).lines).toEqual([]);
  });

  it("accepts 1,000,000 itself", () => {
    expect(only("foo.ts:1000000").lines).toEqual([{ start: 1_000_000, end: null }]);
  });

  it("counts a bare number only directly after the path", () => {
    expect(only("compiler.py has 3 bugs").lines).toEqual([]);
    expect(only("compiler.py, 3 bugs").lines).toEqual([]);
    expect(only("compiler.py 1.5 times").lines).toEqual([]);
    const query = "fix 3 bugs near 900 in compiler.py";
    expect(parseFreeRanges(query, parsePathSpans(query))).toEqual([]);
  });
});

describe("prose ranges", () => {
  const free = (query: string) =>
    parseFreeRanges(query, parsePathSpans(query)).map((r) => [query.slice(r.start, r.end), r.range.start, r.range.end]);

  it.each([
    ["L900-L1003 in compiler.py", "L900-L1003", 900, 1003],
    ["see lines 900 to 1003 of it", "lines 900 to 1003", 900, 1003],
    ["see lines 900-1003", "lines 900-1003", 900, 1003],
    ["Line 12 is odd", "Line 12", 12, null],
    ["at L42 of the file", "L42", 42, null],
  ])("finds %s", (query, text, start, end) => {
    expect(free(query)).toEqual([[text, start, end]]);
  });

  it("does not take the ranges attached to a path, overflowing numbers or words ending in L+digits", () => {
    expect(free("compiler.py lines 900-1003")).toEqual([]);
    expect(free("lines 5 to 2000000 and URL900")).toEqual([]);
    expect(free("lines 9 to 3")).toEqual([]);
  });
});

describe("qualified names", () => {
  it("normalises ::, # and dots and drops receivers", () => {
    const names = qualifiedNames(
      "SQLCompiler.as_sql, Engine::ServeHTTP, Foo#bar, pkg.Type.Method, a.b.c, this.render, self.x.y e.g. i.e.",
    );
    expect(names.map((n) => n.text)).toEqual([
      "SQLCompiler.as_sql",
      "Engine.ServeHTTP",
      "Foo.bar",
      "pkg.Type.Method",
      "a.b.c",
      "x.y",
    ]);
  });

  it("reports where each name was written", () => {
    const [q] = qualifiedNames("why is `QuerySet.filter` slow");
    expect(q).toEqual({ text: "QuerySet.filter", start: 8, end: 23 });
  });
});

describe("code-shaped names", () => {
  it("keeps camelCase, PascalCase, snake_case, $ and the last part of qualified names", () => {
    expect(
      codeShapedNames(
        "Where is formatInvoice used with SQLCompiler.as_sql, get_user, $store and the Engine? Config later",
      ),
    ).toEqual(["as_sql", "formatInvoice", "get_user", "$store", "Engine"]);
  });

  it("ignores plain prose and kebab words", () => {
    expect(codeShapedNames("How does the query builder handle well-known names")).toEqual([]);
  });
});

describe("prose windows", () => {
  it("pairs and triples adjacent content words, pairs first", () => {
    const { windows } = proseWindows("how does the feed stay at the bottom");
    expect(windows).toEqual([
      ["feed", "stay"],
      ["stay", "bottom"],
      ["feed", "stay", "bottom"],
    ]);
  });

  it("splits camelCase and snake_case tokens into words and remembers the literal tokens", () => {
    const { windows, literals } = proseWindows("feedBottom via scroll_top");
    expect(windows[0]).toEqual(["feed", "bottom"]);
    expect(windows).toContainEqual(["scroll", "top"]);
    expect([...literals]).toEqual(["feedBottom", "via", "scroll_top"]);
  });

  it("has nothing to pair in a single word", () => {
    expect(proseWindows("the feed").windows).toEqual([]);
  });

  it("caps the windows looked up", () => {
    const many = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");
    expect(proseWindows(many).windows.length).toBeLessThanOrEqual(24);
  });
});

describe("matching a window on a name", () => {
  it.each([
    ["feedAtBottom", ["feed", "bottom"], { connectors: 1, extra: 0 }],
    ["feedBottom", ["feed", "bottom"], { connectors: 0, extra: 0 }],
    ["isFeedAtBottom", ["feed", "bottom"], { connectors: 1, extra: 1 }],
    ["FEED_AT_BOTTOM_OFFSET", ["feed", "bottom"], { connectors: 1, extra: 1 }],
    ["getUserById", ["user", "id"], { connectors: 1, extra: 1 }],
    ["loadFeeds", ["load", "feed"], { connectors: 0, extra: 0 }],
  ])("%s contains %j", (name, window, expected) => {
    expect(matchWindow(name, window)).toEqual(expected);
  });

  it.each([
    ["bottomOfFeed", ["feed", "bottom"]],
    ["feedScrollerAtBottom", ["feed", "bottom"]],
    ["feedback", ["feed", "back"]],
  ])("%s does not contain %j", (name, window) => {
    expect(matchWindow(name, window)).toBeNull();
  });
});

describe("residual text", () => {
  it("removes the given ranges and tidies what is left", () => {
    const query = 'why does "src/app.ts:12" call `foo.ts` (see ./lib/x.ts)?';
    const spans = parsePathSpans(query);
    expect(spans.map((s) => s.path)).toEqual(["src/app.ts", "foo.ts", "lib/x.ts"]);
    expect(removeRanges(query, spans)).toBe("why does call (see)?");
    expect(removeRanges(query, [spans[1]!])).toBe('why does "src/app.ts:12" call (see ./lib/x.ts)?');
  });
});
