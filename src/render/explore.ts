import type { ExploreBlock, ExploreFile, ExploreRef, ExploreResult } from "../query/explore.js";
import { withStaleBanner } from "./banner.js";
import { numbered } from "./source.js";

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
  const byName = new Map(file.symbols.map((s) => [s.qualifiedName, s]));
  const label = b.symbols
    .map((n) => {
      const s = byName.get(n);
      // A drifted file's stored line numbers are unsafe: name the symbols only.
      if (!s || file.wholeFile) return n;
      return `${n} (${s.kind}, ${s.startLine}-${s.endLine})`;
    })
    .join(", ");
  const head = file.wholeFile
    ? `whole current file (${b.lines.length} lines; it changed since the last index sync) — ${label}`
    : label;
  const src = numbered({ file: file.path, startLine: b.startLine, endLine: b.endLine, lines: b.lines, totalLines: 0 });
  const tail = b.truncated ? `\n… cut here; codegraph_node ${b.symbols[0]} reads the rest.` : "";
  return `${head}\n${src}${tail}`;
}

/** An explore answer as compact text for an agent: a summary, source per file, then who calls what. */
export function renderExplore(r: ExploreResult): string {
  if (!r.files.length) {
    return withStaleBanner(
      r.drifted,
      `No relevant code found for "${r.query}". Try codegraph_search with a symbol name or a shorter keyword ` +
        "(CLI: codegraph search).",
    );
  }
  const symbolCount = r.files.reduce((n, f) => n + f.blocks.reduce((m, b) => m + b.symbols.length, 0), 0);
  const out = [
    `Explored "${r.query}": ${symbolCount} symbol${symbolCount === 1 ? "" : "s"} in ${r.files.length} file${r.files.length === 1 ? "" : "s"}` +
      (r.terms.length ? ` (terms: ${r.terms.join(", ")})` : ""),
  ];
  for (const f of r.files) {
    out.push("", `## ${f.path}`);
    if (f.notice) {
      out.push(`(${f.notice}; symbols: ${f.symbols.map((s) => `${s.qualifiedName}:${s.startLine}`).join(", ")})`);
    }
    for (const b of f.blocks) out.push(block(f, b));
  }
  if (r.relationships.length) {
    out.push("", "## Relationships");
    for (const rel of r.relationships) {
      const s = rel.symbol;
      out.push(`${s.qualifiedName} (${s.kind}, ${s.file}:${s.startLine})`);
      out.push(`  called by: ${rel.callerTotal ? refs(rel.callers, rel.callerTotal) : "nothing indexed"}`);
      out.push(`  calls: ${rel.calleeTotal ? refs(rel.callees, rel.calleeTotal) : "nothing indexed"}`);
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
