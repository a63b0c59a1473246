import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runJson, tempRepo } from "../helpers/cli.js";

const fixture = join(import.meta.dirname, "fixtures", "node-explore");
const BANNER_HEAD =
  "⚠️ Some files referenced below were edited since the last index sync — their codegraph entries may be stale:";

interface FileResult {
  type: string;
  file: string;
  source: { startLine: number; endLine: number; totalLines: number; lines: string[] } | null;
  truncated: boolean;
  drifted: string[];
}

interface SymbolsResult {
  type: string;
  note: string | null;
  symbols: {
    symbol: { qualifiedName: string; file: string };
    sourceKind: string;
    source: { startLine: number; lines: string[] } | null;
  }[];
  drifted: string[];
}

describe("node and explore for agents", () => {
  let repo: { dir: string; cleanup: () => void };
  let outside: string;
  const p = () => ["-p", repo.dir];
  const node = (...args: string[]) => run(["node", ...args, ...p()]);
  const nodeJson = <T = FileResult>(...args: string[]) => runJson<T>(["node", ...args, ...p()]);

  beforeAll(async () => {
    repo = tempRepo(fixture);
    outside = mkdtempSync(join(tmpdir(), "codegraph-outside-"));
    writeFileSync(join(outside, "secret.ts"), "export const secret = 'TOP-SECRET-OUTSIDE';\n");
    symlinkSync(join(outside, "secret.ts"), join(repo.dir, "src", "evil.ts"));
    const big = Array.from({ length: 2500 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join("\n");
    writeFileSync(join(repo.dir, "src", "big.ts"), `${big}\n`);
    await runJson(["init", repo.dir]);
  });
  afterAll(() => {
    repo.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  describe("file mode", () => {
    it("reads a whole small file with numbered lines and project-relative paths", async () => {
      const r = await node("--file", "src/app.ts");
      expect(r.code).toBe(0);
      expect(r.stdout.split("\n")[0]).toBe("src/app.ts (lines 1-24 of 24)");
      expect(r.stdout).toContain("15  export function handleRequest(path: string, token: string): string {");
      expect(r.stdout).not.toContain(repo.dir);
    });

    it.each([
      ["src/app.ts:15", 15, 24],
      ["src/app.ts:15-18", 15, 18],
      ["src/app.ts#L15", 15, 24],
      ["src/app.ts#L15-L18", 15, 18],
      ["src/app.ts#L15-18", 15, 18],
    ])("accepts the pasted location %s", async (location, start, end) => {
      // A single line reads from there to the end (within the cap); a range reads just the range.
      for (const args of [[location], ["--file", location]]) {
        const r = await nodeJson(...args);
        expect(r.type).toBe("file");
        expect(r.file).toBe("src/app.ts");
        expect([r.source!.startLine, r.source!.endLine]).toEqual([start, end]);
        expect(r.source!.lines[0]).toBe("export function handleRequest(path: string, token: string): string {");
      }
    });

    it("lets explicit offset and limit override a pasted selector independently", async () => {
      const both = await nodeJson("--file", "src/app.ts:15-18", "--offset", "5", "--limit", "2");
      expect([both.source!.startLine, both.source!.endLine]).toEqual([5, 6]);
      const offsetOnly = await nodeJson("--file", "src/app.ts:15-18", "--offset", "5");
      expect([offsetOnly.source!.startLine, offsetOnly.source!.endLine]).toEqual([5, 8]);
      const limitOnly = await nodeJson("--file", "src/app.ts#L15-L18", "--limit", "2");
      expect([limitOnly.source!.startLine, limitOnly.source!.endLine]).toEqual([15, 16]);
      const text = await node("--file", "src/app.ts:15-18", "--offset", "5", "--limit", "2");
      expect(text.stdout).toBe("src/app.ts (lines 5-6 of 24)\n5    port: number;\n6    name: string;\n");
    });

    it("keeps invalid, zero, reversed and overflowing selectors literal", async () => {
      for (const bad of ["src/app.ts:0", "src/app.ts:18-15", "src/app.ts:99999999999", "src/app.ts#L0-L3"]) {
        const r = await nodeJson<{ type: string; suggestions: string[] }>(bad);
        expect(r.type).toBe("not-found");
        expect(r.suggestions).toContain("src/app.ts");
      }
    });

    it("resolves a unique path suffix and lists an ambiguous one instead of guessing", async () => {
      const unique = await nodeJson("app.ts:10-11");
      expect(unique.file).toBe("src/app.ts");
      expect(unique.source!.lines[0]).toBe("export function parseConfig(env: Record<string, string>): AppConfig {");
      const session = await nodeJson("--file", "session.ts");
      expect(session.file).toBe("src/auth/session.ts");
      const ambiguous = await run(["node", "--file", "format.ts", ...p()]);
      expect(ambiguous.stdout).toMatch(/"format\.ts" matches several indexed files/);
      expect(ambiguous.stdout).toContain("  src/report/format.ts\n  src/util/format.ts");
      expect(ambiguous.stdout).not.toContain("formatMoney");
    });

    it("caps a long file at 2000 lines and says how to read on", async () => {
      const whole = await node("src/big.ts");
      const lines = whole.stdout.trimEnd().split("\n");
      expect(lines[0]).toBe("src/big.ts (lines 1-2000 of 2500)");
      expect(lines).toHaveLength(2002);
      expect(lines[2000]).toBe("2000  export const v2000 = 2000;");
      expect(lines[2001]).toMatch(/cut at 2000 lines.*pass offset 2001/);
      const rest = await nodeJson("--file", "src/big.ts", "--offset", "2001");
      expect([rest.source!.startLine, rest.source!.endLine, rest.truncated]).toEqual([2001, 2500, false]);
      const tooMuch = await nodeJson("--file", "src/big.ts", "--offset", "10", "--limit", "3000");
      expect([tooMuch.source!.startLine, tooMuch.source!.endLine, tooMuch.truncated]).toEqual([10, 2009, true]);
      const asked = await nodeJson("--file", "src/big.ts:100-2099");
      expect([asked.source!.endLine, asked.truncated]).toEqual([2099, false]);
    });

    it("says when an offset is past the end of the file", async () => {
      const r = await node("src/app.ts:400");
      expect(r.stdout.trim()).toBe("src/app.ts has 24 lines; nothing at line 400.");
    });
  });

  describe("never outside the project", () => {
    it.each([["../../etc/passwd"], ["/etc/passwd"], ["src/evil.ts"], ["src/../../secret.ts"]])(
      "refuses %s as a symbol or a file",
      async (target) => {
        for (const args of [[target], ["--file", target], ["formatMoney", "--file", target]]) {
          const r = await node(...args);
          expect(r.code).toBe(0);
          expect(r.stdout).toMatch(/is outside the project/);
          expect(r.stdout).not.toMatch(/root:|TOP-SECRET/);
        }
      },
    );

    it("refuses an absolute path outside and the symlink's own target", async () => {
      const r = await node(join(outside, "secret.ts"));
      expect(r.stdout).toMatch(/is outside the project/);
      expect(r.stdout).not.toContain("TOP-SECRET");
    });

    it("accepts an absolute path inside the project and answers with the relative path", async () => {
      const r = await node(`${join(repo.dir, "src", "app.ts")}:10-11`);
      expect(r.stdout.split("\n")[0]).toBe("src/app.ts (lines 10-11 of 24)");
      expect(r.stdout).not.toContain(repo.dir);
    });

    it("takes the real path of a file when the project is named through a link to it", async () => {
      const linkParent = mkdtempSync(join(tmpdir(), "codegraph-link-"));
      try {
        const link = join(linkParent, "project");
        symlinkSync(repo.dir, link);
        const r = await run(["node", `${join(realpathSync(repo.dir), "src", "app.ts")}:10-11`, "-p", link]);
        expect(r.stdout.split("\n")[0]).toBe("src/app.ts (lines 10-11 of 24)");
        // The other way round: the project named by its real path (as Node reports a working folder
        // reached through a link), the file pasted through the link.
        const through = await run(["node", `${join(link, "src", "app.ts")}:10-11`, "-p", realpathSync(repo.dir)]);
        expect(through.stdout.split("\n")[0]).toBe("src/app.ts (lines 10-11 of 24)");
        // A link elsewhere, to a folder outside, is still outside.
        symlinkSync(outside, join(linkParent, "elsewhere"));
        const out = await run(["node", join(linkParent, "elsewhere", "secret.ts"), "-p", realpathSync(repo.dir)]);
        expect(out.stdout).toMatch(/is outside the project/);
        expect(out.stdout).not.toContain("TOP-SECRET");
      } finally {
        rmSync(linkParent, { recursive: true, force: true });
      }
    });

    it("searches a pasted message past stored files that became a link out or a FIFO, reading neither", async () => {
      const message = "Request body exceeded the allowed upload size";
      const dir = mkdtempSync(join(tmpdir(), "codegraph-literal-"));
      try {
        writeFileSync(join(dir, "a_models.py"), "def save(obj):\n    return obj\n");
        writeFileSync(join(dir, "b_forms.py"), "def clean(form):\n    return form\n");
        writeFileSync(
          join(dir, "views.py"),
          `class BadRequest(Exception):\n    pass\n\n\ndef handle(request):\n    raise BadRequest("${message}")\n`,
        );
        await runJson(["init", dir]);
        // After the index, the first files in path order: one leads outside, to the same message; the
        // other is a FIFO, whose open would wait for a writer that never comes.
        writeFileSync(join(outside, "secret.py"), `SECRET = "${message}"  # TOP-SECRET-OUTSIDE\n`);
        rmSync(join(dir, "a_models.py"));
        symlinkSync(join(outside, "secret.py"), join(dir, "a_models.py"));
        rmSync(join(dir, "b_forms.py"));
        expect(spawnSync("mkfifo", [join(dir, "b_forms.py")]).status).toBe(0);
        const r = await run(["explore", `BadRequest: ${message}`, "-p", dir], { timeoutMs: 20_000 });
        expect(r.code).toBe(0);
        expect(r.stdout).toContain(`6      raise BadRequest("${message}")`);
        expect(r.stdout).not.toContain("TOP-SECRET");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("arguments of any length", () => {
    // An agent may pass a whole paste as a symbol or a question. The answer must come soon, say what
    // it found, and repeat no more of the argument than its first 80 characters.
    const huge = "x".repeat(100_000);
    const dotted = Array.from({ length: 5000 }, (_, i) => `Client.handleRequest${i}`).join(" ");

    it("answers a symbol or a file of 100,000 characters as not found, without repeating it", async () => {
      for (const args of [
        ["node", huge],
        ["callers", huge],
        ["impact", huge],
        ["node", "formatMoney", "--file", huge],
      ]) {
        const r = await run([...args, ...p()], { timeoutMs: 20_000 });
        expect(r.code, args[0]).toBe(0);
        expect(r.stdout.length, args[0]).toBeLessThan(2_000);
        expect(r.stdout).toMatch(
          /Nothing named "x{79}…"|No symbol named "x{79}…"|No definition of formatMoney in x{79}…/,
        );
      }
    });

    it("answers a search or a question of thousands of names, repeating its first words only", async () => {
      const search = await run(["search", dotted, ...p()], { timeoutMs: 20_000 });
      expect(search.code).toBe(0);
      expect(search.stdout.length).toBeLessThan(20_000);
      const nonsense = Array.from({ length: 5000 }, (_, i) => `zzq${i}`).join(" ");
      const none = await run(["search", nonsense, ...p()], { timeoutMs: 20_000 });
      expect(none.stdout.trim()).toMatch(/^No symbols match "zzq0 zzq1 .{60,}…"\.$/);
      // Paths and qualified names past any path's length (SQLite refuses so long a LIKE pattern).
      const path = await run(["explore", `${"a/".repeat(30_000)}x.ts:10`, ...p()], { timeoutMs: 20_000 });
      expect(path.code).toBe(0);
      expect(path.stdout.length).toBeLessThan(2_000);
      expect(path.stdout).toContain("No indexed file matches: a/a/a/");
      for (const args of [
        ["files", "a/".repeat(30_000)],
        ["search", "a.b".repeat(20_000)],
        ["explore", "a-b".repeat(20_000)],
      ]) {
        const r = await run([...args, ...p()], { timeoutMs: 20_000 });
        expect(r.code, args[0]).toBe(0);
        expect(r.stdout.length, args[0]).toBeLessThan(20_000);
      }
      const explore = await run(["explore", `where is ${dotted}`, ...p()], { timeoutMs: 20_000 });
      expect(explore.code).toBe(0);
      expect(explore.stdout.split("\n")[0]).toMatch(/^Explored "where is Client\.handleRequest0 .*…": /);
    });
  });

  describe("symbol mode", () => {
    it("pins a same-named symbol with file and line", async () => {
      const both = await nodeJson<SymbolsResult>("area");
      expect(both.symbols.map((s) => s.symbol.qualifiedName)).toEqual(["Circle.area", "Square.area"]);
      const square = await nodeJson<SymbolsResult>("area", "--file", "src/shapes.ts", "--line", "11");
      expect(square.symbols.map((s) => s.symbol.qualifiedName)).toEqual(["Square.area"]);
      const circle = await nodeJson<SymbolsResult>("area", "--file", "shapes.ts:4");
      expect(circle.symbols.map((s) => s.symbol.qualifiedName)).toEqual(["Circle.area"]);
      const miss = await nodeJson<SymbolsResult>("area", "--file", "src/app.ts");
      expect(miss.note).toMatch(/No definition of area in src\/app\.ts/);
      expect(miss.symbols).toHaveLength(2);
    });

    it("takes the node id that search --json shows", async () => {
      const search = await runJson<{ hits: { id: number; uid: string }[] }>(["search", "refreshSessionToken", ...p()]);
      const byId = await node(String(search.hits[0]!.id));
      expect(byId.stdout.split("\n")[0]).toBe("function refreshSessionToken  src/auth/session.ts:2-4");
      const byUid = await node(search.hits[0]!.uid);
      expect(byUid.stdout.split("\n")[0]).toBe("function refreshSessionToken  src/auth/session.ts:2-4");
    });

    it("reads a Python method by qualified name", async () => {
      const r = await node("Invoice.total_amount");
      expect(r.stdout).toContain("method Invoice.total_amount  py/billing.py:5-6");
      expect(r.stdout).toContain("6          return sum(self.lines)");
    });
  });

  describe("explore", () => {
    it("repeats only the first line of a long or pasted query, cut at 80 characters", async () => {
      const pasted = await run(["explore", "where is handleRequest defined\nsecond line\nthird line", ...p()]);
      expect(pasted.stdout.split("\n")[0]).toMatch(/^Explored "where is handleRequest defined …": /);
      expect(pasted.stdout).not.toContain("second line");
      const long = `where is handleRequest defined ${"and why ".repeat(20)}`;
      const r = await run(["explore", long, ...p()]);
      const echoed = /^Explored "([^"]*)"/.exec(r.stdout)![1]!;
      expect(echoed.length).toBeGreaterThan(70);
      expect(echoed.length).toBeLessThanOrEqual(80);
      expect(echoed.endsWith("…")).toBe(true);
      expect(long.startsWith(echoed.slice(0, -1))).toBe(true);
    });

    it("finds a symbol named in camelCase, with its callers and callees", async () => {
      const r = await run(["explore", "where is handleRequest defined", ...p()]);
      expect(r.stdout.split("\n")[0]).toMatch(/^Explored "where is handleRequest defined": \d+ symbols? in \d+ files?/);
      expect(r.stdout).toContain("## src/app.ts\nhandleRequest (function, 15-19)\n15  export function handleRequest(");
      const rel = r.stdout.slice(r.stdout.indexOf("## Relationships"));
      expect(rel).toContain("handleRequest (function, src/app.ts:15)");
      expect(rel).toContain("called by: startServer (src/app.ts:22, 23)");
      expect(rel).toMatch(
        /calls: parseConfig \(src\/app\.ts:10\), refreshSessionToken \(src\/auth\/session\.ts:2\), formatMoney \(src\/util\/format\.ts:1\)/,
      );
      expect(r.stdout).not.toContain(repo.dir);
    });

    it("shows where a method's calls dispatch: what it overrides, and what overrides it", async () => {
      const base = await run(["explore", "Notifier.notify", ...p()]);
      const rel = base.stdout.slice(base.stdout.indexOf("## Relationships"));
      expect(rel).toContain(
        "Notifier.notify (method, src/notifiers.ts:3)\n  called by: nothing indexed\n  calls: nothing indexed\n" +
          "  overridden by: EmailNotifier.notify (src/notifiers.ts:7), SmsNotifier.notify (src/notifiers.ts:13)",
      );
      const sub = await run(["explore", "EmailNotifier.notify", ...p()]);
      expect(sub.stdout).toContain("EmailNotifier.notify (method, src/notifiers.ts:7)");
      expect(sub.stdout).toContain("  overrides: Notifier.notify (src/notifiers.ts:3)");
      // A function that overrides nothing and that nothing overrides gets neither line.
      const plain = await run(["explore", "where is handleRequest defined", ...p()]);
      expect(plain.stdout).not.toMatch(/overrides:|overridden by:/);
    });

    it("finds a symbol from plain words", async () => {
      const r = await runJson<{ files: { path: string; blocks: { symbols: string[] }[] }[] }>([
        "explore",
        "refresh the session token",
        ...p(),
      ]);
      expect(r.files[0]!.path).toBe("src/auth/session.ts");
      expect(r.files[0]!.blocks.flatMap((b) => b.symbols)).toContain("refreshSessionToken");
    });

    it("groups source by file, each symbol under its own file", async () => {
      const r = await run(["explore", "handleRequest calls refreshSessionToken", ...p()]);
      const sections = r.stdout.split(/^## /m).slice(1);
      const section = (path: string) => sections.find((s) => s.startsWith(`${path}\n`)) ?? "";
      expect(section("src/app.ts")).toContain("export function handleRequest(");
      expect(section("src/app.ts")).not.toContain("export function refreshSessionToken(");
      expect(section("src/auth/session.ts")).toContain("export function refreshSessionToken(");
      expect(sections.filter((s) => s.startsWith("src/app.ts\n"))).toHaveLength(1);
    });

    it("pairs adjacent words into a qualified name (Invoice total_amount)", async () => {
      const r = await runJson<{ files: { path: string; blocks: { symbols: string[] }[] }[] }>([
        "explore",
        "Invoice total_amount",
        ...p(),
      ]);
      expect(r.files.map((f) => f.path)).toEqual(["py/billing.py"]);
      expect(r.files[0]!.blocks.flatMap((b) => b.symbols)).toContain("Invoice.total_amount");
    });

    it("honours maxFiles", async () => {
      const r = await runJson<{ files: { namesOnly: boolean }[]; notShown: unknown[] }>([
        "explore",
        "handleRequest refreshSessionToken formatMoney",
        "--max-files",
        "1",
        ...p(),
      ]);
      // maxFiles bounds the files shown with source; the others are named, not quoted.
      expect(r.files.filter((f) => !f.namesOnly)).toHaveLength(1);
      expect(r.notShown.length + r.files.filter((f) => f.namesOnly).length).toBeGreaterThan(0);
    });

    it("says so when nothing matches", async () => {
      const r = await run(["explore", "quantum flux capacitor", ...p()]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^No relevant code found for "quantum flux capacitor"\. Try codegraph_search/);
    });
  });

  describe("freshness (after init, without sync)", () => {
    it("a touch with identical bytes is not drift", async () => {
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(repo.dir, "src", "drift.ts"), later, later);
      const r = await nodeJson<SymbolsResult>("driftingValue");
      expect(r.drifted).toEqual([]);
      expect(r.symbols[0]!.sourceKind).toBe("span");
      expect((await node("driftingValue")).stdout).not.toContain("⚠️");
    });

    it("an edited file is served whole under the banner, never sliced at stored lines", async () => {
      writeFileSync(
        join(repo.dir, "src", "drift.ts"),
        "// one new line\n// and another\nexport function driftingValue(): number {\n  return 99;\n}\n\n" +
          "export function steadyValue(): number {\n  return 7;\n}\n",
      );
      const r = await node("driftingValue");
      expect(
        r.stdout.startsWith(
          `${BANNER_HEAD}\n  - src/drift.ts\nFor accurate content of those specific files, Read them directly. The rest of this response is fresh.\n\n`,
        ),
      ).toBe(true);
      expect(r.stdout).toContain("The whole current file (9 lines):");
      expect(r.stdout).toContain("1  // one new line");
      expect(r.stdout).toContain("4    return 99;");
      expect(r.stdout).not.toContain("41 + 1");
      const json = await nodeJson<SymbolsResult>("driftingValue");
      expect(json.drifted).toEqual(["src/drift.ts"]);
      expect(json.symbols[0]!.sourceKind).toBe("whole-file");
      // Fresh files in the same answer carry no banner entry.
      const fresh = await nodeJson<SymbolsResult>("handleRequest");
      expect(fresh.drifted).toEqual([]);
    });

    it("file mode and explore carry the banner for a drifted file", async () => {
      const file = await node("src/drift.ts:3-4");
      expect(file.stdout).toContain(`${BANNER_HEAD}\n  - src/drift.ts\n`);
      expect(file.stdout).toContain("src/drift.ts (lines 3-4 of 9)\n3  export function driftingValue(): number {");
      const explore = await run(["explore", "driftingValue", ...p()]);
      expect(explore.stdout).toContain(`${BANNER_HEAD}\n  - src/drift.ts\n`);
      expect(explore.stdout).toContain("1  // one new line");
      const json = await runJson<{ drifted: string[]; files: { path: string; wholeFile: boolean }[] }>([
        "explore",
        "driftingValue",
        ...p(),
      ]);
      expect(json.drifted).toEqual(["src/drift.ts"]);
      expect(json.files.find((f) => f.path === "src/drift.ts")!.wholeFile).toBe(true);
    });

    it("an indexed file swapped for a symlink that leads out is never read", async () => {
      const target = join(repo.dir, "src", "report", "format.ts");
      rmSync(target);
      symlinkSync(join(outside, "secret.ts"), target);
      const symbol = await node("formatReport");
      expect(symbol.stdout).toContain("function formatReport  src/report/format.ts:1-3");
      expect(symbol.stdout).toMatch(/source unavailable: the file now leads outside the project/);
      const file = await node("src/report/format.ts");
      expect(file.stdout).toMatch(/is outside the project/);
      const explore = await run(["explore", "formatReport", ...p()]);
      for (const r of [symbol, file, explore]) expect(r.stdout).not.toContain("TOP-SECRET");
    });

    it("a drifted file over 2000 lines has its body omitted, and no banner for bytes not served", async () => {
      writeFileSync(join(repo.dir, "src", "big.ts"), "// shifted\n", { flag: "a" });
      const json = await nodeJson<SymbolsResult>("v5");
      expect(json.symbols[0]!.sourceKind).toBe("omitted-large");
      expect(json.symbols[0]!.source).toBeNull();
      expect(json.drifted).toEqual([]);
      const text = await node("v5");
      expect(text.stdout).toMatch(/possibly shifted/);
      expect(text.stdout).toMatch(/body omitted: src\/big\.ts changed since the last index sync/);
      expect(text.stdout).not.toContain("⚠️");
    });
  });
});
