import { readRegularFile } from "../core/regular-file.js";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import type { IndexingConfig } from "../config/config.js";
import { BUILTIN_IGNORED_DIRS } from "./ignores.js";
import { hasControlCharacters } from "./control-names.js";

/** Names of files that change how imports resolve. */
export const MANIFEST_NAMES: ReadonlySet<string> = new Set([
  "tsconfig.json",
  "jsconfig.json",
  "go.mod",
  "Cargo.toml",
  "composer.json",
]);

/** The rules of one .gitignore file, and the project-relative folder it lives in ("" for the root). */
export interface GitignoreLayer {
  base: string;
  rules: Ignore;
}

/** Whether `rel` (a file, or a folder when `isDir`) is ignored by any of the .gitignore layers in force. */
function ignoredBy(layers: readonly GitignoreLayer[], rel: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const sub = layer.base ? rel.slice(layer.base.length + 1) : rel;
    if (layer.rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/**
 * The project's scope as rules over one path at a time: which folders a walk enters and which files
 * it indexes. The inventory walk and the live watcher both decide through this, so they cannot drift.
 * Size limits and symlink targets need the file itself and stay with the walk.
 */
export class ScopeRules {
  private readonly include: picomatch.Matcher | null;
  private readonly exclude: picomatch.Matcher | null;

  constructor(
    readonly config: IndexingConfig,
    private readonly claims: (path: string) => boolean,
  ) {
    this.include = config.include.length ? picomatch(config.include, { dot: true }) : null;
    this.exclude = config.exclude.length ? picomatch(config.exclude, { dot: true }) : null;
  }

  /**
   * The .gitignore layers in force inside folder `rel`: its parent's, plus its own .gitignore when it
   * has one (`readGitignore` returns that file's text, or null). An unreadable .gitignore ignores nothing.
   */
  layersInside(rel: string, parent: readonly GitignoreLayer[], readGitignore: () => string | null): GitignoreLayer[] {
    if (!this.config.gitignore) return parent as GitignoreLayer[];
    let text: string | null;
    try {
      text = readGitignore();
    } catch {
      text = null;
    }
    return text === null ? (parent as GitignoreLayer[]) : [...parent, { base: rel, rules: ignore().add(text) }];
  }

  /** Why the walk does not enter folder `rel` (named `name`), or null when it does. */
  skipsFolder(rel: string, name: string, layers: readonly GitignoreLayer[]): "built-in" | "ignored" | null {
    if (BUILTIN_IGNORED_DIRS.has(name)) return "built-in";
    if (ignoredBy(layers, rel, true)) return "ignored";
    if (this.exclude?.(rel) || this.exclude?.(`${rel}/`)) return "ignored";
    return null;
  }

  /** A manifest that steers resolution (tsconfig.json, go.mod); .gitignore applies, include/exclude do not. */
  isManifest(rel: string, name: string, layers: readonly GitignoreLayer[]): boolean {
    return MANIFEST_NAMES.has(name) && !ignoredBy(layers, rel, false);
  }

  /** Whether file `rel` (named `name`) is indexed, size limit and symlinks aside. */
  admitsFile(rel: string, name: string, layers: readonly GitignoreLayer[]): boolean {
    if (!this.claims(name) || ignoredBy(layers, rel, false)) return false;
    return !(this.exclude?.(rel) || (this.include && !this.include(rel)));
  }
}

/** What one project-relative path is to the index. */
export type PathKind =
  /** A file the index holds when it exists (size limit aside). */
  | "source"
  /** A manifest read for resolution (tsconfig.json, jsconfig.json, go.mod). */
  | "manifest"
  /** Inside a folder the index never enters. */
  | "outside"
  /** In an entered folder, but not a file the index holds (or a folder: the caller can tell). */
  | "other";

/**
 * The same scope asked one path at a time, for file events: .gitignore files along the way are read
 * once and cached until `forgetGitignores()` (call it when any .gitignore changes).
 */
export class PathScope {
  readonly rules: ScopeRules;
  private readonly layers = new Map<string, GitignoreLayer[]>();

  constructor(
    private readonly root: string,
    config: IndexingConfig,
    claims: (path: string) => boolean,
  ) {
    this.rules = new ScopeRules(config, claims);
  }

  forgetGitignores(): void {
    this.layers.clear();
  }

  /** What `rel` (project-relative, `/`-separated) is to the index, judged by its path alone. */
  classify(rel: string): PathKind {
    // Never indexed, as the walk skips them (see control-names.ts).
    if (hasControlCharacters(rel)) return "other";
    const parts = rel.split("/");
    const name = parts.pop()!;
    const layers = this.layersOf(parts);
    if (!layers) return "outside";
    if (this.rules.isManifest(rel, name, layers)) return "manifest";
    return this.rules.admitsFile(rel, name, layers) ? "source" : "other";
  }

  /** Whether the walk enters folder `rel` (and every folder above it). */
  entersFolder(rel: string): boolean {
    if (hasControlCharacters(rel)) return false;
    const parts = rel.split("/");
    const name = parts[parts.length - 1]!;
    const layers = this.layersOf(parts.slice(0, -1));
    return layers !== null && this.rules.skipsFolder(rel, name, layers) === null;
  }

  /** The layers in force inside the folder made of `parts`, or null when the walk never gets there. */
  private layersOf(parts: string[]): GitignoreLayer[] | null {
    let layers = this.layersAt("", []);
    let rel = "";
    for (const part of parts) {
      rel = rel ? `${rel}/${part}` : part;
      if (this.rules.skipsFolder(rel, part, layers)) return null;
      layers = this.layersAt(rel, layers);
    }
    return layers;
  }

  private layersAt(rel: string, parent: GitignoreLayer[]): GitignoreLayer[] {
    let layers = this.layers.get(rel);
    if (!layers) {
      const file = rel ? `${this.root}/${rel}/.gitignore` : `${this.root}/.gitignore`;
      layers = this.rules.layersInside(rel, parent, () => readRegularFile(file, { followLink: false }));
      this.layers.set(rel, layers);
    }
    return layers;
  }
}
