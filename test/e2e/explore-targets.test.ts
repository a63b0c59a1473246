import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Paths from "../../src/config/paths.js";
import type * as Targets from "../../src/query/explore-targets.js";
import type * as Database from "../../src/store/database.js";
import { run, tempRepo } from "../helpers/cli.js";

const fixture = join(import.meta.dirname, "fixtures", "explore-targets");
const dist = join(import.meta.dirname, "..", "..", "dist");
/** The built module, typed from its source. */
const built = <T>(path: string) => import(pathToFileURL(join(dist, path)).href) as Promise<T>;

describe("explore targets on an index built by the CLI", () => {
  let repo: { dir: string; cleanup: () => void };
  let db: Database.Db;
  let targets: (query: string, maxFiles?: number) => Targets.ExploreTargets;
  const where = (h: { qualifiedName: string; file: string }) => `${h.qualifiedName} ${h.file}`;

  beforeAll(async () => {
    repo = tempRepo(fixture);
    const init = await run(["init", repo.dir]);
    expect(init.code, init.stderr).toBe(0);
    const { openDatabase } = await built<typeof Database>("store/database.js");
    const { dbPath } = await built<typeof Paths>("config/paths.js");
    const { exploreTargets } = await built<typeof Targets>("query/explore-targets.js");
    db = openDatabase(dbPath(repo.dir), { readonly: true });
    targets = (query, maxFiles = 8) => exploreTargets(db, query, { maxFiles });
  });
  afterAll(() => {
    db?.close();
    repo?.cleanup();
  });

  describe("pinned files", () => {
    it("puts exact path matches before suffix matches, whatever the order written", () => {
      const t = targets("how does routes.ts reach src/app.ts");
      expect(t.pinned).toEqual([
        { path: "src/app.ts", match: "exact", written: "src/app.ts" },
        { path: "src/web/routes.ts", match: "suffix", written: "routes.ts" },
      ]);
      expect(t.residual).toBe("how does reach");
      expect(t.unresolved).toEqual([]);
    });

    it("aligns suffixes on segments: app.ts never matches myapp.ts", () => {
      expect(targets("app.ts").pinned.map((p) => p.path)).toEqual(["src/app.ts"]);
      expect(targets("web/routes.ts").pinned).toEqual([
        { path: "src/web/routes.ts", match: "suffix", written: "web/routes.ts" },
      ]);
    });

    it.each([
      "`src/web/routes.ts`",
      "./src/web/routes.ts",
      "src\\web\\routes.ts",
      "src\\\\web\\\\routes.ts",
      "/home/someone/proj/src/web/routes.ts",
      "C:\\Users\\me\\proj\\src\\web\\routes.ts",
      "https://github.com/acme/proj/blob/main/src/web/routes.ts",
    ])("resolves %s to the indexed file", (written) => {
      const t = targets(`what is in ${written}?`);
      expect(t.pinned.map((p) => [p.path, p.match])).toEqual([["src/web/routes.ts", "exact"]]);
      expect(t.residual).toBe("what is in?");
    });

    it("does not fall back from a foreign directory to any file with the same name", () => {
      const t = targets("compare lib/other/app.ts");
      expect(t.pinned).toEqual([]);
      expect(t.unresolved).toEqual(["lib/other/app.ts"]);
      expect(t.residual).toBe("compare");
    });

    it("resolves an extensionless path to the source file", () => {
      expect(targets("./src/billing/format imports").pinned).toEqual([
        { path: "src/billing/format.ts", match: "suffix", written: "./src/billing/format" },
      ]);
    });

    it("pins every match of an ambiguous name when nothing narrows it, up to three", () => {
      const t = targets("format.ts");
      expect(t.pinned.map((p) => p.path)).toEqual(["src/billing/format.ts", "src/report/format.ts"]);
      expect(t.setAside).toEqual([]);
    });

    it("narrows an ambiguous basename to the file defining a named symbol and sets the rest aside", () => {
      const t = targets("why does format.ts round formatInvoice totals");
      expect(t.pinned).toEqual([{ path: "src/billing/format.ts", match: "suffix", written: "format.ts" }]);
      expect(t.setAside).toEqual(["src/report/format.ts"]);
      expect(t.named).toEqual(["formatInvoice"]);
      expect(t.residual).toBe("why does round formatInvoice totals");
    });

    it("narrows by what a qualified name means before narrowing by its last part", () => {
      // Both files define a `format` method; only one defines `Formatter.format`.
      const t = targets("format.ts Formatter.format");
      expect(t.pinned.map((p) => p.path)).toEqual(["src/billing/format.ts"]);
      expect(t.setAside).toEqual(["src/report/format.ts"]);
      expect(t.exact.map(where)).toEqual(["Formatter.format src/billing/format.ts"]);
      expect(targets("format.ts format").pinned).toHaveLength(2);
    });

    it("does not pin a basename shared by more than three files, unless named symbols narrow it", () => {
      const loose = targets("what does index.ts export");
      expect(loose.pinned).toEqual([]);
      expect(loose.unresolved).toEqual([]);
      expect(loose.residual).toBe("what does index.ts export");

      const narrowed = targets("index.ts setupGamma");
      expect(narrowed.pinned).toEqual([{ path: "src/plugins/gamma/index.ts", match: "suffix", written: "index.ts" }]);
      expect(narrowed.setAside).toEqual([
        "src/plugins/alpha/index.ts",
        "src/plugins/beta/index.ts",
        "src/plugins/delta/index.ts",
      ]);
    });

    it("accepts a kebab basename that names a file and leaves hyphenated prose alone", () => {
      const t = targets("how does query-builder quote tables");
      expect(t.pinned).toEqual([{ path: "src/query-builder.ts", match: "basename", written: "query-builder" }]);
      expect(t.residual).toBe("how does quote tables");
      const prose = targets("a well-known long-running issue");
      expect(prose.pinned).toEqual([]);
      expect(prose.unresolved).toEqual([]);
      expect(prose.residual).toBe("a well-known long-running issue");
    });

    it("reports at most four explicit paths that matched nothing and removes all of them", () => {
      const t = targets("see a.py, b.py, c.py, d.py, e.py and f.py near src/app.ts");
      expect(t.unresolved).toEqual(["a.py", "b.py", "c.py", "d.py"]);
      expect(t.pinned.map((p) => p.path)).toEqual(["src/app.ts"]);
      expect(t.residual).toBe("see and near");
    });

    it("removes a clearly missing route path but keeps unmatched slashed prose", () => {
      const t = targets("GET /api/users/:id and/or the client/server split");
      expect(t.unresolved).toEqual(["/api/users/:id"]);
      expect(t.residual).toBe("GET and/or the client/server split");
    });

    it("pins at most maxFiles files", () => {
      const t = targets("src/app.ts src/myapp.ts src/feed.ts src/query-builder.ts", 2);
      expect(t.pinned.map((p) => p.path)).toEqual(["src/app.ts", "src/myapp.ts"]);
      expect(t.residual).toBe("");
    });

    it("examines at most eight path mentions and pins at most eight files", () => {
      const paths = [
        "src/app.ts",
        "src/myapp.ts",
        "src/feed.ts",
        "src/query-builder.ts",
        "src/web/routes.ts",
        "src/billing/format.ts",
        "src/report/format.ts",
        "db/compiler.py",
        "server/engine.go",
        "widgets/w1.py",
      ];
      const t = targets(paths.join(" "), 50);
      expect(t.pinned.map((p) => p.path)).toEqual(paths.slice(0, 8));
      expect(t.residual).toBe("server/engine.go widgets/w1.py");
    });
  });

  describe("line anchors", () => {
    it("selects the innermost method enclosing a single line", () => {
      for (const query of ["db/compiler.py:15", "db/compiler.py#L15", "compiler.py line 15", "compiler.py 15"]) {
        const t = targets(query);
        expect(t.anchors).toHaveLength(1);
        const [a] = t.anchors;
        expect(a).toMatchObject({ path: "db/compiler.py", startLine: 15, endLine: 15, line: 15, span: false });
        expect(where(a!.symbol!)).toBe("SQLCompiler.as_sql db/compiler.py");
        expect(t.residual).toBe("");
      }
    });

    it("anchors a Python traceback line and a JS stack frame", () => {
      const py = targets(
        'Traceback:\n  File "db/compiler.py", line 20, in execute_sql\n    sql, params = self.as_sql()',
      );
      expect(py.anchors.map((a) => [a.path, a.line, a.symbol && where(a.symbol)])).toEqual([
        ["db/compiler.py", 20, "SQLCompiler.execute_sql db/compiler.py"],
      ]);
      const js = targets("TypeError: route is not a function\n    at App.handle (src/app.ts:15:12)");
      expect(js.anchors.map((a) => [a.path, a.line, a.symbol && where(a.symbol)])).toEqual([
        ["src/app.ts", 15, "App.handle src/app.ts"],
      ]);
      expect(js.residual).toBe("TypeError: route is not a function at App.handle");
    });

    it("renders a range as a span", () => {
      for (const query of [
        "db/compiler.py:12-17",
        "db/compiler.py#L12-L17",
        "db/compiler.py#L12-17",
        "compiler.py lines 12-17",
        "L12-L17 in compiler.py",
        "what happens in compiler.py, lines 12 to 17",
      ]) {
        const t = targets(query);
        expect(t.anchors).toEqual([
          { path: "db/compiler.py", startLine: 12, endLine: 17, line: null, symbol: null, span: true },
        ]);
      }
    });

    it("renders a line no callable encloses as fifteen lines either side, clipped to the file", () => {
      expect(targets("compiler.py:3").anchors).toEqual([
        { path: "db/compiler.py", startLine: 1, endLine: 18, line: 3, symbol: null, span: true },
      ]);
      expect(targets("compiler.py:23").anchors).toEqual([
        { path: "db/compiler.py", startLine: 8, endLine: 25, line: 23, symbol: null, span: true },
      ]);
    });

    it("binds a prose range to the nearest path that resolved to one file", () => {
      const t = targets("format.ts and app.ts, see lines 10-16");
      expect(t.pinned.map((p) => p.path)).toEqual(["src/billing/format.ts", "src/report/format.ts", "src/app.ts"]);
      expect(t.anchors).toEqual([
        { path: "src/app.ts", startLine: 10, endLine: 16, line: null, symbol: null, span: true },
      ]);
      expect(t.residual).toBe("and see");
    });

    it("anchors nothing on an ambiguous path and ignores numbers above 1,000,000", () => {
      expect(targets("format.ts:2").anchors).toEqual([]);
      const t = targets("src/app.ts:1000001");
      expect(t.pinned.map((p) => p.path)).toEqual(["src/app.ts"]);
      expect(t.anchors).toEqual([]);
    });
  });

  describe("exact targets", () => {
    it("takes a qualified name with one non-test definition and ignores the test double", () => {
      const t = targets("why is SQLCompiler.as_sql slow");
      expect(t.exact.map(where)).toEqual(["SQLCompiler.as_sql db/compiler.py"]);
      expect(t.named).toEqual(["as_sql"]);
    });

    it("accepts up to three non-test definitions and no more", () => {
      expect(targets("Widget.render").exact.map(where)).toEqual([
        "Widget.render widgets/w1.py",
        "Widget.render widgets/w2.py",
        "Widget.render widgets/w3.py",
      ]);
      expect(targets("Handler.handle").exact).toEqual([]);
    });

    it("reads ::, # and package prefixes", () => {
      expect(targets("Engine::ServeHTTP").exact.map(where)).toEqual(["Engine.ServeHTTP server/engine.go"]);
      expect(targets("Engine#ServeHTTP").exact.map(where)).toEqual(["Engine.ServeHTTP server/engine.go"]);
      expect(targets("gin.Engine.ServeHTTP").exact.map(where)).toEqual(["Engine.ServeHTTP server/engine.go"]);
      expect(targets("gin.New").exact.map(where)).toEqual(["New server/engine.go"]);
      expect(targets("db.compiler.quote_name").exact.map(where)).toEqual(["quote_name db/compiler.py"]);
      expect(targets("other.New").exact).toEqual([]);
    });
  });

  describe("word seeds", () => {
    it('recovers feedAtBottom from "feed bottom"', () => {
      const t = targets("why does the feed bottom detection flicker");
      expect(t.seeds.map((s) => s.name)).toContain("feedAtBottom");
      expect(t.seeds.map((s) => s.name)).not.toContain("bottomOfFeed");
      expect(t.seeds.every((s) => ["function", "method", "constructor", "variable", "constant"].includes(s.kind))).toBe(
        true,
      );
      expect(t.exact).toEqual([]);
    });

    it("finds names from a camelCase segment and leaves out names the query writes literally", () => {
      expect(targets("feedBottom").seeds.map((s) => s.name)).toEqual(["feedAtBottom"]);
      expect(targets("feedAtBottom").seeds.map((s) => s.name)).not.toContain("feedAtBottom");
    });

    it("takes constants and never repeats an exact target", () => {
      expect(targets("feed page size").seeds.map((s) => s.name)).toEqual(["FEED_PAGE_SIZE"]);
      const t = targets("SQLCompiler.as_sql execute sql");
      expect(t.exact.map((s) => s.name)).toEqual(["as_sql"]);
      expect(t.seeds.map((s) => s.name)).toEqual(["execute_sql"]);
    });
  });
});
