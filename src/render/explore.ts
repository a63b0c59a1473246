import type { TestReach } from "../graph/test-reach.js";
import type { ExploreBlock, ExploreFile, ExploreRef, ExploreResult } from "../query/explore.js";
import { withStaleBanner } from "./banner.js";
import { echo } from "../core/echo.js";
import { numbered } from "./source.js";
import { plural } from "./plural.js";

/** `name (file:line)`, one entry per caller with all its call lines (`startServer (src/app.ts:22, 23)`). */
function refs(list: ExploreRef[], total: number): string {
  const merged = new Map<string, { name: string; file: string; lines: number[] }>();
  for (const r of list) {
    const key = `${r.name}\0${r.file}`;
    const m = merged.get(key);
    if (m) {
      if (!m.lines.includes(r.line)) m.lines.push(r.line);
    } else merged.set(key, { name: r.name, file: r.file, lines: [r.line] });
  }
  const text = [...merged.values()].map((m) => `${m.name} (${m.file}:${m.lines.join(", ")})`).join(", ");
  return total > list.length ? `${text} +${total - list.length} more` : text;
}

function block(file: ExploreFile, b: ExploreBlock): string {
  // Overloads share a qualified name: label each with the declaration this block actually shows.
  const find = (n: string) =>
    file.symbols.find((s) => s.qualifiedName === n && s.startLine >= b.startLine && s.startLine <= b.endLine) ??
    file.symbols.find((s) => s.qualifiedName === n);
  const label = [...new Set(b.symbols)]
    .map((n) => {
      const s = find(n);
      // A drifted file's stored line numbers are unsafe: name the symbols only.
      if (!s || file.wholeFile) return n;
      return `${n} (${s.kind}, ${s.startLine}-${s.endLine})`;
    })
    .join(", ");
  const head = file.wholeFile
    ? `whole current file (${b.lines.length} lines; it changed since the last index sync) — ${label}`
    : label;
  const src = numbered({ file: file.path, startLine: b.startLine, endLine: b.endLine, lines: b.lines, totalLines: 0 });
  // A block of a file pinned by path may show no symbol: then the rest is read by line.
  const rest = b.symbols[0] ?? `${file.path}:${b.endLine + 1}`;
  const tail = b.truncated ? `\n… cut here; codegraph_node ${rest} reads the rest.` : "";
  return `${head}\n${src}${tail}`;
}

/** The reference's three coverage outcomes, verbatim; at most two test files are named. */
export function coverageSuffix(reach: TestReach): string {
  if (reach.outcome === "untested-within-hops") return "; no tests found within 3 caller hops";
  if (reach.outcome === "lookup-budget-exhausted") return "; no test calls this directly";
  const shown = reach.testFiles.slice(0, 2).map((f) => `\`${f}\``);
  const more = reach.testFiles.length - shown.length;
  return `; tested via callers: ${shown.join(", ")}${more > 0 ? ` +${more}` : ""}`;
}

/** An explore answer as compact text for an agent: a summary, source per file, the blast radius, then who calls what. */
export function renderExplore(r: ExploreResult): string {
  const withSource = r.files.filter((f) => !f.namesOnly);
  if (!withSource.length && !r.unresolved.length) {
    return withStaleBanner(
      r.drifted,
      `No relevant code found for "${echo(r.query)}". Try codegraph_search with a symbol name or a shorter keyword ` +
        "(CLI: codegraph search).",
    );
  }
  const symbolCount = withSource.reduce((n, f) => n + f.blocks.reduce((m, b) => m + b.symbols.length, 0), 0);
  const out = [
    `Explored "${echo(r.query)}": ${plural(symbolCount, "symbol")} in ${plural(withSource.length, "file")}` +
      (r.terms.length ? ` (terms: ${r.terms.join(", ")})` : ""),
  ];
  if (r.pinned.length) out.push(`Pinned by path: ${r.pinned.join(", ")}`);
  if (r.setAside.length) out.push(`Set aside (they define none of the names asked about): ${r.setAside.join(", ")}`);
  if (r.unresolved.length) out.push(`No indexed file matches: ${r.unresolved.map(echo).join(", ")}`);
  for (const f of withSource) {
    out.push("", `## ${f.path}`);
    if (f.alsoHere.length) out.push(`(also here, not shown: ${f.alsoHere.join(", ")})`);
    if (f.notice) {
      out.push(`(${f.notice}; symbols: ${f.symbols.map((s) => `${s.qualifiedName}:${s.startLine}`).join(", ")})`);
    }
    for (const b of f.blocks) out.push(block(f, b));
  }
  const namesOnly = r.files.filter((f) => f.namesOnly);
  if (namesOnly.length) {
    out.push("", "## Also matching (names only; codegraph_node reads any of them)");
    for (const f of namesOnly)
      out.push(`${f.path}: ${f.symbols.map((s) => `${s.qualifiedName}:${s.startLine}`).join(", ")}`);
  }
  if (r.blast.length) {
    out.push("", "## Blast radius");
    for (const b of r.blast) {
      const s = b.symbol;
      out.push(
        `${s.qualifiedName} (${s.kind}, ${s.file}:${s.startLine}): ${plural(b.callers, "caller")}, ` +
          `${plural(b.dependents, "dependent")} within 3 hops${coverageSuffix(b.reach)}`,
      );
    }
  }
  if (r.relationships.length) {
    out.push("", "## Relationships");
    for (const rel of r.relationships) {
      const s = rel.symbol;
      out.push(`${s.qualifiedName} (${s.kind}, ${s.file}:${s.startLine})`);
      out.push(`  called by: ${rel.callerTotal ? refs(rel.callers, rel.callerTotal) : "nothing indexed"}`);
      out.push(`  calls: ${rel.calleeTotal ? refs(rel.callees, rel.calleeTotal) : "nothing indexed"}`);
      const d = rel.dispatch;
      if (d.overrides.length) out.push(`  overrides: ${refs(d.overrides, d.overrides.length)}`);
      if (d.overriddenTotal) out.push(`  overridden by: ${refs(d.overriddenBy, d.overriddenTotal)}`);
    }
  }
  if (r.notShown.length) {
    out.push(
      "",
      `Also relevant, not shown: ${r.notShown.map((s) => `${s.qualifiedName} (${s.file}:${s.startLine})`).join(", ")}`,
    );
  }
  return withStaleBanner(r.drifted, out.join("\n"));
}
