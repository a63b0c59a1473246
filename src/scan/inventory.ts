import { lstatSync, readFileSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { relative, sep } from "node:path";
import type { IndexingConfig } from "../config/config.js";
import { ScopeRules, type GitignoreLayer } from "./scope.js";

export { MANIFEST_NAMES } from "./scope.js";

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
  /** Folders the walk entered, the root ("") first. */
  folders: string[];
  /** Folders it did not enter because of .gitignore or the config's exclude (built-in ignores aside). */
  ignoredFolders: string[];
}

/**
 * Walks the project and lists the files to index: built-in ignores, nested .gitignore files, the
 * config's include/exclude globs and size limit, and only files some language claims.
 * Symlinked folders are not followed (no loops, nothing outside the project); a symlinked file is
 * indexed only when it resolves inside the project.
 */
export function scanProject(
  root: string,
  config: IndexingConfig,
  claims: (path: string) => boolean,
  /** Called with the number of files listed so far and the path just added, each time one is. */
  onFile: (listed: number, path: string) => void = () => {},
): Inventory {
  const files: ScannedFile[] = [];
  const skipped: Skipped[] = [];
  const manifests: string[] = [];
  const folders: string[] = [];
  const ignoredFolders: string[] = [];
  const scope = new ScopeRules(config, claims);
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
    folders.push(rel);
    const active = scope.layersInside(rel, layers, () =>
      entries.some((e) => e.name === ".gitignore" && !e.isDirectory())
        ? readFileSync(`${dir}/.gitignore`, "utf8")
        : null,
    );
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const abs = `${dir}/${e.name}`; // not path.join: this runs for every entry of the tree
      if (e.isDirectory()) {
        const skip = scope.skipsFolder(childRel, e.name, active);
        if (skip === "ignored") ignoredFolders.push(childRel);
        if (!skip) walk(abs, childRel, active);
        continue;
      }
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      if (e.isFile() && scope.isManifest(childRel, e.name, active)) manifests.push(childRel);
      if (!scope.admitsFile(childRel, e.name, active)) continue;
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
      onFile(files.push({ path: childRel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) }), childRel);
    }
  };
  walk(root, "", []);
  return { files, skipped, manifests, folders, ignoredFolders };
}
