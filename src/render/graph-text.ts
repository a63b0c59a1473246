import type { CycleReport } from "../query/check.js";

/** Cycles shown in text; the JSON form always has all of them. */
const MAX_CYCLES_SHOWN = 100;

const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/**
 * Import cycles as one `a.ts -> b.ts -> a.ts` line each, with project-relative paths. `forAgent`: the
 * answer of the MCP tool, which has no `--json` to list the cycles left out, but a `path` to narrow.
 */
export function renderCycles(r: CycleReport, scope?: string, options: { forAgent?: boolean } = {}): string {
  const where = scope ? ` under ${scope}` : "";
  if (scope && r.filesChecked === 0) return `No indexed files under ${scope}.`;
  if (!r.cycles.length) return `No import cycles among ${files(r.filesChecked)}${where}.`;
  const n = r.cycles.length;
  const out = [`${n} import cycle${n === 1 ? "" : "s"} among ${files(r.filesChecked)}${where}:`];
  for (const c of r.cycles.slice(0, MAX_CYCLES_SHOWN)) out.push(`  ${c.join(" -> ")}`);
  if (n > MAX_CYCLES_SHOWN) {
    const how = options.forAgent ? "pass path to see those through one folder" : "--json lists them all";
    out.push(`  … ${n - MAX_CYCLES_SHOWN} more; ${how}.`);
  }
  return out.join("\n");
}
