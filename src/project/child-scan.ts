import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DB_FILE, INDEX_DIR } from "../config/paths.js";
import { isUnsafeRoot } from "./root.js";

const MAX_DEPTH = 4;
const MAX_CANDIDATES = 64;

/** Files that mark a folder as a workspace worth scanning below for indexed projects. */
const WORKSPACE_MARKERS = [
  ".git",
  "package.json",
  "pnpm-workspace.yaml",
  "lerna.json",
  "nx.json",
  "turbo.json",
  "go.work",
  "go.mod",
  "Cargo.toml",
  "pyproject.toml",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "composer.json",
  "Gemfile",
  "WORKSPACE",
  "MODULE.bazel",
];

/** Folders never descended into: dependencies, build output, caches, virtualenvs, temp. */
const SKIPPED = new Set([
  "node_modules",
  "bower_components",
  "vendor",
  "third_party",
  "dist",
  "build",
  "out",
  "target",
  "bin",
  "obj",
  "venv",
  "env",
  "__pycache__",
  "coverage",
  "cache",
  "tmp",
  "temp",
  "logs",
  "Pods",
  "DerivedData",
]);

const hasIndex = (dir: string) => existsSync(join(dir, INDEX_DIR, DB_FILE));

/** True when `dir` looks like a workspace (a repository or a package manifest), so scanning below it is expected. */
export function isWorkspace(dir: string): boolean {
  return WORKSPACE_MARKERS.some((m) => existsSync(join(dir, m)));
}

/**
 * Indexed projects below a workspace folder that is not itself indexed: breadth-first to depth 4,
 * skipping dot, dependency, build, cache and temp folders, not descending below an indexed project,
 * and stopping at 64 candidates. Never runs at $HOME or `/`, nor outside a workspace unless `anyFolder`
 * (a folder the user named). Sorted.
 */
export function scanIndexedChildren(dir: string, options: { anyFolder?: boolean } = {}): string[] {
  if (isUnsafeRoot(dir) || (!options.anyFolder && !isWorkspace(dir))) return [];
  const found: string[] = [];
  let level = [dir];
  for (let depth = 1; depth <= MAX_DEPTH && level.length && found.length < MAX_CANDIDATES; depth++) {
    const next: string[] = [];
    for (const parent of level) {
      let entries;
      try {
        entries = readdirSync(parent, { withFileTypes: true });
      } catch {
        continue; // unreadable folders are simply not scanned
      }
      for (const e of entries) {
        if (!e.isDirectory() || e.name.startsWith(".") || SKIPPED.has(e.name) || SKIPPED.has(e.name.toLowerCase())) {
          continue;
        }
        const child = join(parent, e.name);
        if (hasIndex(child)) {
          found.push(child);
          if (found.length >= MAX_CANDIDATES) break;
        } else next.push(child);
      }
      if (found.length >= MAX_CANDIDATES) break;
    }
    level = next;
  }
  return found.sort();
}
