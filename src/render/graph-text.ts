import type { CycleReport } from "../query/check.js";

/** Cycles shown in text; the JSON form always has all of them. */
const MAX_CYCLES_SHOWN = 100;

const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/** Import cycles as one `a.ts -> b.ts -> a.ts` line each, with project-relative paths. */
export function renderCycles(r: CycleReport, scope?: string): string {
  const where = scope ? ` under ${scope}` : "";
  if (scope && r.filesChecked === 0) return `No indexed files under ${scope}.`;
  if (!r.cycles.length) return `No import cycles among ${files(r.filesChecked)}${where}.`;
  const n = r.cycles.length;
  const out = [`${n} import cycle${n === 1 ? "" : "s"} among ${files(r.filesChecked)}${where}:`];
  for (const c of r.cycles.slice(0, MAX_CYCLES_SHOWN)) out.push(`  ${c.join(" -> ")}`);
  if (n > MAX_CYCLES_SHOWN) out.push(`  … ${n - MAX_CYCLES_SHOWN} more; --json lists them all.`);
  return out.join("\n");
}
