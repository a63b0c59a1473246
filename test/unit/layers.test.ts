import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The folder table of ARCHITECTURE.md, enforced: each folder under src/ imports only the folders it
 * may. Type-only imports are allowed across layers (they vanish at run time), except into cli/.
 */
const ALLOWED: Record<string, string[]> = {
  core: [],
  config: ["core"],
  project: ["core", "config"],
  scan: ["core", "config"],
  extract: ["core"],
  resolve: ["core"],
  store: ["core"],
  indexer: ["core", "config", "scan", "extract", "resolve", "store"],
  graph: ["core", "store"],
  query: ["core", "config", "store", "graph", "scan"],
  render: ["core"],
  mcp: ["core", "config", "project", "query", "render"],
  daemon: ["core", "config", "project", "indexer", "watch", "mcp"],
  watch: ["core", "config", "indexer"],
  install: ["core", "config"],
  hook: ["core", "config", "project", "query", "render"],
};

const src = join(import.meta.dirname, "..", "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("layers", () => {
  const violations: string[] = [];
  let checked = 0;
  for (const file of files(src)) {
    const rel = relative(src, file);
    const layer = rel.split("/")[0]!;
    if (!rel.includes("/")) continue; // src/index.ts re-exports the public surface
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gms)) {
      checked++;
      const target = relative(src, join(file, "..", m[3]!)).split("/")[0]!;
      if (target === layer) continue;
      const typeOnly = Boolean(m[2]);
      if (target === "cli") violations.push(`${rel} imports cli/ (nothing may)`);
      else if (layer !== "cli" && !typeOnly && !(ALLOWED[layer] ?? []).includes(target)) {
        violations.push(`${rel} imports ${target}/`);
      }
    }
  }
  it("every import follows the folder table", () => {
    expect(checked).toBeGreaterThan(50);
    expect(violations).toEqual([]);
  });
});

describe("SQL", () => {
  // "store/ is the only folder that speaks SQL": statements, pragmas and raw SQL text stay there. The
  // indexer still opens transactions around store calls (one sync commits or nothing does).
  const speaksSql =
    /\bprepared\(|\.prepare\(\s*[`"']|\.pragma\(|\.exec\(\s*[`"']|`\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\s/;
  const offenders = files(src)
    .map((file) => relative(src, file))
    .filter((rel) => !rel.startsWith("store/") && speaksSql.test(readFileSync(join(src, rel), "utf8")));

  it("is written in store/ alone", () => {
    expect(offenders).toEqual([]);
  });

  it("would be caught elsewhere", () => {
    expect(speaksSql.test('prepared(db, "SELECT 1")')).toBe(true);
    expect(speaksSql.test("db.pragma('x')")).toBe(true);
    expect(speaksSql.test("regex.exec(text)")).toBe(false);
  });
});
