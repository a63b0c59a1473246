import { lstatSync, readFileSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import type { IndexingConfig } from "../config/config.js";
import { BUILTIN_IGNORED_DIRS } from "./ignores.js";

/** A file in scope, as seen on disk. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export type SkipReason = "too large" | "unreadable" | "symlink outside project" | "symlink loop";

export interface Skipped {
  path: string;
  reason: SkipReason;
}

export interface Inventory {
  files: ScannedFile[];
  skipped: Skipped[];
  /** Project files that steer resolution (tsconfig.json, go.mod), found on the same walk. */
  manifests: string[];
}

/** Names of files that change how imports resolve. */
export const MANIFEST_NAMES: ReadonlySet<string> = new Set(["tsconfig.json", "jsconfig.json", "go.mod"]);

interface GitignoreLayer {
  /** Project-relative folder the .gitignore lives in ("" for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Walks the project and lists the files to index: built-in ignores, nested .gitignore files, the
 * config's include/exclude globs and size limit, and only files some language claims.
 * Symlinked folders are not followed (no loops, nothing outside the project); a symlinked file is
 * indexed only when it resolves inside the project.
 */
export function scanProject(root: string, config: IndexingConfig, claims: (path: string) => boolean): Inventory {
  const files: ScannedFile[] = [];
  const skipped: Skipped[] = [];
  const manifests: string[] = [];
  const include = config.include.length ? picomatch(config.include, { dot: true }) : null;
  const exclude = config.exclude.length ? picomatch(config.exclude, { dot: true }) : null;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }

  const walk = (dir: string, rel: string, layers: GitignoreLayer[]): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      if (rel) skipped.push({ path: rel, reason: "unreadable" });
      return;
    }
    let active = layers;
    if (config.gitignore && entries.some((e) => e.name === ".gitignore" && !e.isDirectory())) {
      try {
        const rules = ignore().add(readFileSync(`${dir}/.gitignore`, "utf8"));
        active = [...layers, { base: rel, rules }];
      } catch {
        // An unreadable .gitignore ignores nothing.
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const abs = `${dir}/${e.name}`; // not path.join: this runs for every entry of the tree
      if (e.isDirectory()) {
        if (BUILTIN_IGNORED_DIRS.has(e.name) || ignored(active, childRel, true)) continue;
        if (exclude?.(childRel) || exclude?.(`${childRel}/`)) continue;
        walk(abs, childRel, active);
        continue;
      }
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      if (MANIFEST_NAMES.has(e.name) && e.isFile() && !ignored(active, childRel, false)) manifests.push(childRel);
      if (!claims(e.name) || ignored(active, childRel, false)) continue;
      if (exclude?.(childRel) || (include && !include(childRel))) continue;
      let st;
      try {
        if (e.isSymbolicLink()) {
          const target = realpathSync(abs);
          const inside = relative(realRoot, target);
          if (inside.startsWith("..") || inside.startsWith(sep) || inside === "") {
            skipped.push({ path: childRel, reason: "symlink outside project" });
            continue;
          }
          st = statSync(abs);
          if (!st.isFile()) continue;
        } else {
          st = lstatSync(abs);
        }
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        skipped.push({ path: childRel, reason: code === "ELOOP" ? "symlink loop" : "unreadable" });
        continue;
      }
      if (st.size > config.maxFileSize) {
        skipped.push({ path: childRel, reason: "too large" });
        continue;
      }
      files.push({ path: childRel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
    }
  };
  walk(root, "", []);
  return { files, skipped, manifests };
}

function ignored(layers: GitignoreLayer[], rel: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const sub = layer.base ? rel.slice(layer.base.length + 1) : rel;
    if (layer.rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}
