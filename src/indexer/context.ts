import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { dirOf, realPathOrGiven } from "../core/paths.js";
import { readRegularInside } from "../core/regular-file.js";
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
  const ctx: ProjectContext = { tsconfigs: [], goModules: [], cargoCrates: [] };
  const realRoot = realPathOrGiven(root);
  for (const rel of [...manifests].sort()) {
    // The scan listed a regular file; one swapped for a link out of the project since is not read.
    const text = readRegularInside(realRoot, join(root, rel), (fd) => readFileSync(fd, "utf8"));
    if (text === null) continue;
    const dir = dirOf(rel);
    if (rel === "Cargo.toml" || rel.endsWith("/Cargo.toml")) {
      const crate = cargoCrate(text, dir);
      if (crate) ctx.cargoCrates.push(crate);
      continue;
    }
    if (rel === "composer.json" || rel.endsWith("/composer.json")) {
      (ctx.psr4 ??= []).push(...composerPsr4(text, dir));
      continue;
    }
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

/**
 * A Cargo package's library crate: the name code uses for it (`[lib] name`, else the package name
 * with `-` as `_`) and its root file (`[lib] path`, else `src/lib.rs`). A workspace manifest with no
 * `[package]` names no crate; its members have manifests of their own.
 */
function cargoCrate(text: string, dir: string): ProjectContext["cargoCrates"][number] | null {
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const pkg = toml.package as { name?: unknown } | undefined;
  const lib = toml.lib as { name?: unknown; path?: unknown } | undefined;
  const name = typeof lib?.name === "string" ? lib.name : typeof pkg?.name === "string" ? pkg.name : null;
  if (!name) return null;
  const path = typeof lib?.path === "string" ? lib.path.replace(/^\.\//, "") : "src/lib.rs";
  return { dir, name: name.replace(/-/g, "_"), root: dir ? `${dir}/${path}` : path };
}

/**
 * Composer's PSR-4 autoload map (`autoload` and `autoload-dev`): each namespace prefix and the folders,
 * made project-relative, that hold its classes (`App\\Model\\Order` in `src/Model/Order.php`).
 */
function composerPsr4(text: string, dir: string): NonNullable<ProjectContext["psr4"]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const out: NonNullable<ProjectContext["psr4"]> = [];
  for (const key of ["autoload", "autoload-dev"]) {
    const section = (json as Record<string, { "psr-4"?: unknown } | undefined>)?.[key];
    const map = section?.["psr-4"];
    if (!map || typeof map !== "object") continue;
    for (const [prefix, value] of Object.entries(map as Record<string, unknown>)) {
      const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
      const dirs = list.map((d) => joinDir(dir, d.replace(/^\.\//, "").replace(/\/+$/, "")));
      out.push({ prefix: prefix ? prefix.replace(/\\*$/, "\\") : "", dirs });
    }
  }
  return out;
}

function joinDir(dir: string, sub: string): string {
  if (!sub || sub === ".") return dir;
  return dir ? `${dir}/${sub}` : sub;
}
