import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/store/schema.js";
import { CLI, run, runJson, tempRepo } from "../helpers/cli.js";

const fixture = join(import.meta.dirname, "..", "resolve", "fixtures", "typescript");
/** The fixture's source files (every file under src/), and the one the test adds. */
const sourceFiles = readdirSync(join(fixture, "src"), { recursive: true, withFileTypes: true }).filter((e) =>
  e.isFile(),
).length;

describe("reading the graph from the CLI", () => {
  let repo: { dir: string; cleanup: () => void };
  const p = () => ["-p", repo.dir];

  beforeAll(async () => {
    repo = tempRepo(fixture);
    // A second `format` in another file: same name, different definition.
    writeFileSync(
      join(repo.dir, "src/util/other.ts"),
      "export function formatMoney(x: number) { return String(x); }\n",
    );
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("status counts what is indexed and reports no changes", async () => {
    const s = await runJson<{
      files: number;
      nodes: number;
      edgesByKind: Record<string, number>;
      schemaVersion: number;
      changes: { added: string[] };
    }>(["status", ...p()]);
    expect(s.files).toBe(sourceFiles + 1);
    expect(s.edgesByKind.calls).toBeGreaterThan(5);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    expect(s.changes.added).toEqual([]);
    writeFileSync(join(repo.dir, "src/new.ts"), "export const n = 1;\n");
    const after = await runJson<{ changes: { added: string[] } }>(["status", ...p()]);
    expect(after.changes.added).toEqual(["src/new.ts"]);
  });

  it("search finds exact names first, then words inside names", async () => {
    const exact = await runJson<{ hits: { qualifiedName: string; kind: string; file: string; startLine: number }[] }>([
      "search",
      "Checkout",
      ...p(),
    ]);
    expect(exact.hits[0]).toMatchObject({ qualifiedName: "Checkout", kind: "class", file: "src/services/checkout.ts" });
    const words = await runJson<{ hits: { name: string }[] }>(["search", "money", ...p()]);
    expect(words.hits.map((h) => h.name)).toContain("formatMoney");
    const kinds = await runJson<{ hits: { kind: string }[] }>(["search", "order", "--kind", "method", ...p()]);
    expect(kinds.hits.length).toBeGreaterThan(0);
    expect(kinds.hits.every((h) => h.kind === "method")).toBe(true);
  });

  it("search takes several words unquoted, and says why a filter left nothing", async () => {
    const quoted = await runJson<{ hits: { name: string }[] }>(["search", "format money", ...p()]);
    const unquoted = await runJson<{ hits: { name: string }[] }>(["search", "format", "money", ...p()]);
    expect(unquoted.hits.map((h) => h.name)).toEqual(quoted.hits.map((h) => h.name));
    expect(unquoted.hits.map((h) => h.name)).toContain("formatMoney");
    const rust = await run(["search", "lang:rust", "Checkout", ...p()]);
    expect(rust.stdout.trim()).toBe(
      'No symbols match "lang:rust Checkout": no rust files are indexed here (languages indexed: javascript, typescript).',
    );
    const badKind = await run(["search", "Checkout", "--kind", "clas", ...p()]);
    expect(badKind.code).toBe(1);
    expect(badKind.stderr).toMatch(/"clas" is not a symbol kind\. Kinds: .*class/);
  });

  it("a symbol that names nothing gets the names a typo away", async () => {
    const bare = await run(["callers", "formatMony", ...p()]);
    expect(bare.stdout.trim()).toBe('No symbol named "formatMony" is indexed. Did you mean: formatMoney?');
    const owner = await run(["impact", "Chekout.place", ...p()]);
    expect(owner.stdout.trim()).toBe('No symbol named "Chekout.place" is indexed. Did you mean: Checkout.place?');
    const member = await runJson<{ suggestions: string[] }>(["callees", "Checkout.plac", ...p()]);
    expect(member.suggestions).toEqual(["Checkout.place"]);
    const node = await run(["node", "Chekout", ...p()]);
    expect(node.stdout).toMatch(/Did you mean: Checkout\b/);
    const path = await run(["node", "src/services/checkot.ts:3", ...p()]);
    expect(path.stdout).toContain("Did you mean: src/services/checkout.ts?");
    const far = await runJson<{ suggestions: string[] }>(["callers", "zzqqxx", ...p()]);
    expect(far.suggestions).toEqual([]);
  });

  it("callers are grouped per definition, and a cap says how many are hidden", async () => {
    const r = await runJson<{
      groups: { definition: { file: string }; total: number; rows: { symbol: { qualifiedName: string } }[] }[];
    }>(["callers", "formatMoney", ...p()]);
    expect(r.groups.map((g) => g.definition.file).sort()).toEqual(["src/util/money.ts", "src/util/other.ts"]);
    const money = r.groups.find((g) => g.definition.file === "src/util/money.ts")!;
    expect(money.rows.map((x) => x.symbol.qualifiedName).sort()).toEqual([
      "Checkout.place",
      "Checkout.receipt",
      "Order.label",
    ]);
    const capped = await run(["callers", "formatMoney", "--file", "util/money.ts", "--limit", "1", ...p()]);
    expect(capped.stdout).toMatch(/Showing 1 of 3/);
  });

  it("callees list what a function calls", async () => {
    const r = await runJson<{ groups: { rows: { symbol: { qualifiedName: string }; kind: string }[] }[] }>([
      "callees",
      "Checkout.place",
      ...p(),
    ]);
    const names = r.groups[0]!.rows.map((x) => `${x.kind} ${x.symbol.qualifiedName}`);
    expect(names).toEqual(
      expect.arrayContaining(["instantiates Order", "calls Order.add", "calls OrderRepo.save", "calls round"]),
    );
  });

  it("impact follows dependencies transitively", async () => {
    const r = await runJson<{ sections: { hits: { symbol: { qualifiedName: string }; depth: number }[] }[] }>([
      "impact",
      "Order.total",
      "--depth",
      "3",
      ...p(),
    ]);
    expect(r.sections).toHaveLength(1);
    const byName = Object.fromEntries(r.sections[0]!.hits.map((h) => [h.symbol.qualifiedName, h.depth]));
    expect(byName["Order.label"]).toBe(1);
    expect(byName["Checkout.place"]).toBe(1);
    expect(byName.quickCheckout).toBe(2);
  });

  it("node shows a symbol's source, or a file's numbered lines", async () => {
    const sym = await run(["node", "Order.total", ...p()]);
    expect(sym.stdout).toMatch(/method Order\.total {2}src\/models\/order\.ts:21-23/);
    expect(sym.stdout).toMatch(/22 {2} {4}return this\.lines\.reduce/);
    const range = await run(["node", "src/util/money.ts:2-3", ...p()]);
    expect(range.stdout.split("\n")[1]).toBe("2    return `$${(cents / 100).toFixed(2)}`;");
    const missing = await run(["node", "totallyMissing", ...p()]);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/Nothing named "totallyMissing" is indexed/);
    const outside = await run(["node", "../../etc/passwd", ...p()]);
    expect(outside.stdout).not.toMatch(/root:/);
  });

  it("files lists the indexed files as a tree or a list", async () => {
    const list = await run(["files", "src/models", "--list", ...p()]);
    expect(list.stdout.trim().split("\n")).toEqual([
      "src/models/entity.ts",
      "src/models/index.ts",
      "src/models/order.ts",
    ]);
    const tree = await run(["files", ...p()]);
    expect(tree.stdout).toMatch(/^src\/\n {2}legacy\/\n {4}bare\.js {2}\(javascript, \d+ symbols\)/);
    expect(tree.stdout).toMatch(/\n {2}models\/\n {4}entity\.ts {2}\(typescript, \d+ symbols\)/);
  });

  it("files and check take a folder by its absolute path, and refuse one outside the project", async () => {
    // Agents pass absolute paths; "No indexed files there." read as an empty folder.
    const absolute = await run(["files", join(repo.dir, "src/models"), "--list", ...p()]);
    expect(absolute.stdout.trim().split("\n")).toEqual([
      "src/models/entity.ts",
      "src/models/index.ts",
      "src/models/order.ts",
    ]);
    const cycles = await run(["check", join(repo.dir, "src/models"), ...p()]);
    expect(cycles.stdout).toMatch(/ among 3 files under src\/models\./);
    const outside = await run(["files", "/etc", ...p()]);
    expect(outside.stdout.trim()).toBe(
      '"/etc" is outside the project: pass a folder inside it, or none for the whole project.',
    );
    const outsideCheck = await run(["check", "../elsewhere", ...p()]);
    expect(outsideCheck.stdout).toContain('"../elsewhere" is outside the project');
    // A path names a folder as the file system spells it: `SRC/Models` is no folder here.
    expect((await run(["files", "SRC/Models", "--list", ...p()])).stdout.trim()).toBe("No indexed files there.");
  });

  it("a bare name that matches a top-level function names the members it leaves out", async () => {
    writeFileSync(join(repo.dir, "src/util/place.ts"), "export function place() { return 1; }\n");
    await run(["sync", ...p()]);
    const text = await run(["callers", "place", ...p()]);
    expect(text.stdout).toContain("Callers of place (function, src/util/place.ts:1)");
    expect(text.stdout).toContain(
      'Also named "place": Checkout.place (method, src/services/checkout.ts:9). Ask for one by its qualified name.',
    );
    const json = await runJson<{ alsoNamed: { count: number; first: { qualifiedName: string }[] } | null }>([
      "impact",
      "place",
      ...p(),
    ]);
    expect(json.alsoNamed?.count).toBe(1);
    expect(json.alsoNamed?.first.map((d) => d.qualifiedName)).toEqual(["Checkout.place"]);
    // The member asked for by name, or a name only members have: nothing left out.
    const member = await runJson<{ alsoNamed: unknown }>(["callers", "Checkout.place", ...p()]);
    expect(member.alsoNamed).toBeNull();
    const onlyMembers = await runJson<{ alsoNamed: unknown }>(["callees", "total", ...p()]);
    expect(onlyMembers.alsoNamed).toBeNull();
    // A file that holds only the member: the bare name with that file means the member.
    type Picked = { unmatchedFile: string | null; groups: { definition: { qualifiedName: string } }[] };
    const inFile = await runJson<Picked>(["callers", "place", "--file", "services/checkout.ts", ...p()]);
    expect(inFile.unmatchedFile).toBeNull();
    expect(inFile.groups.map((g) => g.definition.qualifiedName)).toEqual(["Checkout.place"]);
    const node = await run(["node", "place", "--file", "src/services/checkout.ts", "--line", "10", ...p()]);
    expect(node.stdout).toContain("Checkout.place");
    expect(node.stdout).not.toContain("No definition of");
  });

  it("a top-level symbol can be named by its module, as code elsewhere calls it", async () => {
    type Relations = { groups: { definition: { qualifiedName: string; file: string } }[] };
    const byModule = await runJson<Relations>(["callers", "money.formatMoney", ...p()]);
    expect(byModule.groups.map((g) => g.definition.file)).toEqual(["src/util/money.ts"]);
    const byFile = await runJson<Relations>(["callers", "formatMoney", "--file", "src/util/money.ts", ...p()]);
    expect(byModule.groups).toEqual(byFile.groups);
    // A module that holds no such symbol names nothing.
    const elsewhere = await runJson<Relations>(["callers", "checkout.formatMoney", ...p()]);
    expect(elsewhere.groups).toEqual([]);
  });

  it("unlock reports when there is no lock, and removes one that names no process", async () => {
    const r = await run(["unlock", ...p()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No writer lock/);
    const lock = join(repo.dir, ".codegraph", "writer.lock");
    writeFileSync(lock, "garbage\n");
    const garbage = await run(["unlock", ...p()]);
    expect(garbage.stdout).toMatch(/Removed a writer lock that named no process/);
    expect(existsSync(lock)).toBe(false);
  });
});

describe("a reader that stops early", () => {
  it("ends the command quietly: exit 0, nothing on stderr", async () => {
    const repo = tempRepo();
    try {
      // 12,000 constants: an export of about 3 MB, far more than a pipe holds, so writes go on after the close.
      const lines = Array.from({ length: 12_000 }, (_, i) => `export const value${i} = ${i};`);
      writeFileSync(join(repo.dir, "big.ts"), `${lines.join("\n")}\n`);
      await runJson(["init", repo.dir]);
      const child = spawn(process.execPath, [CLI, "export", "-p", repo.dir], { stdio: "pipe" });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.stdout.once("data", () => child.stdout.destroy()); // as `| head -1` does
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    } finally {
      repo.cleanup();
    }
  });
});
