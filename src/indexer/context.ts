import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dirOf } from "../core/paths.js";
import type { ProjectContext } from "../resolve/rules.js";

/** JSON with comments and trailing commas, as tsconfig files are written. */
function parseLooseJson(text: string): unknown {
  const stripped = text
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? "")
    .replace(/,(\s*[}\]])/g, "$1");
  return JSON.parse(stripped);
}

/**
 * Read the manifests that steer module resolution: each tsconfig/jsconfig's baseUrl and paths, and
 * each go.mod's module path. An unreadable or invalid manifest is ignored (resolution degrades to
 * relative imports), never fatal.
 */
export function readProjectContext(root: string, manifests: string[]): ProjectContext {
  const ctx: ProjectContext = { tsconfigs: [], goModules: [] };
  for (const rel of [...manifests].sort()) {
    let text: string;
    try {
      text = readFileSync(join(root, rel), "utf8");
    } catch {
      continue;
    }
    const dir = dirOf(rel);
    if (rel.endsWith("go.mod")) {
      const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(text);
      if (m?.[2]) ctx.goModules.push({ dir, module: m[2] });
      continue;
    }
    try {
      const json = parseLooseJson(text) as { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } };
      const opts = json.compilerOptions ?? {};
      const baseUrl = typeof opts.baseUrl === "string" ? opts.baseUrl : null;
      const paths = opts.paths && typeof opts.paths === "object" ? opts.paths : {};
      if (baseUrl !== null || Object.keys(paths).length) ctx.tsconfigs.push({ dir, baseUrl, paths });
    } catch {
      // Not JSON we understand: resolve without it.
    }
  }
  return ctx;
}
