import { dirOf } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import { FUNCTIONS, collectionMethods, type LanguageRules, type ProjectContext } from "../rules.js";

/** Files that are the root of their crate's module tree: they have no parent module. */
const ROOTS = new Set(["lib.rs", "main.rs"]);

function base(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function join(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

/** The folder holding a module's child modules: `a/` for `a.rs` and `a/mod.rs`, the root's own folder. */
function childDir(path: string): string {
  const name = base(path);
  const dir = dirOf(path);
  if (ROOTS.has(name) || name === "mod.rs") return dir;
  return join(dir, name.slice(0, -3));
}

/** `mod name;` of a module file: `name.rs` or `name/mod.rs` in its child folder. */
export function childModule(from: FileInfo, name: string, lookup: Lookup): FileInfo | undefined {
  const dir = childDir(from.path);
  return lookup.fileByPath(join(dir, `${name}.rs`)) ?? lookup.fileByPath(join(dir, `${name}/mod.rs`));
}

/** The module a file is a child of, by Rust's file layout; undefined for a crate root. */
export function parentModule(file: FileInfo, lookup: Lookup): FileInfo | undefined {
  const name = base(file.path);
  if (ROOTS.has(name)) return undefined;
  const dir = dirOf(file.path);
  const slot = name === "mod.rs" ? (dir ? dirOf(dir) : null) : dir;
  if (slot === null) return undefined;
  const owner = name === "mod.rs" ? base(dir) : name.slice(0, -3);
  if (!owner) return undefined;
  for (const candidate of [join(slot, "mod.rs"), join(slot, "lib.rs"), join(slot, "main.rs")]) {
    const f = lookup.fileByPath(candidate);
    if (f && f.id !== file.id) return f;
  }
  return slot ? lookup.fileByPath(`${slot}.rs`) : undefined;
}

/**
 * A crate's files by its root's path, per lookup (one index or sync): each file of a crate asks for
 * them once, and listing them walks every file of the project (rustc: 2,700 files, each asking).
 */
const crateFiles = new WeakMap<Lookup, Map<string, FileInfo[]>>();

/** The root file of the crate a file belongs to: up through parent modules until there is none. */
export function crateRoot(file: FileInfo, lookup: Lookup): FileInfo {
  let cur = file;
  for (let i = 0; i < 64; i++) {
    const parent = parentModule(cur, lookup);
    if (!parent) return cur;
    cur = parent;
  }
  return cur;
}

function crateNamed(name: string, ctx: ProjectContext, lookup: Lookup): FileInfo | undefined {
  for (const c of ctx.cargoCrates) if (c.name === name) return lookup.fileByPath(c.root);
  return undefined;
}

/**
 * Rust paths, as the extractor writes them: dotted, relative to the file, headed by `crate`, `super`
 * (once per level), a crate of the workspace, or a child module of the file. Resolves to the module's
 * file; empty when a segment is an inline module, a type or outside the project (the resolver then
 * follows the path through declarations).
 */
export const rustRules: LanguageRules = {
  importedTraitMethods: true,
  flowTypes: true,
  inherentFirst: true,
  arrayMethods: collectionMethods(
    [
      "first",
      "last",
      "get",
      "unwrap",
      "expect",
      "pop",
      "front",
      "back",
      "next",
      "unwrap_or",
      "unwrap_or_else",
      "unwrap_or_default",
    ],
    [
      "ok",
      "ok_or",
      "ok_or_else",
      "map_err",
      "context",
      "with_context",
      "iter",
      "iter_mut",
      "into_iter",
      "filter",
      "rev",
      "skip",
      "take",
      "cloned",
      "copied",
      "as_ref",
      "as_slice",
      "clone",
    ],
  ),
  alternatives: FUNCTIONS,
  resolveModule(spec, from, lookup, ctx) {
    if (spec === "") return [from];
    const segs = spec.split(".");
    let cur: FileInfo | undefined;
    let i = 1;
    const head = segs[0]!;
    if (head === "crate") cur = crateRoot(from, lookup);
    else if (head === "super") {
      cur = from;
      for (i = 0; segs[i] === "super" && cur; i++) cur = parentModule(cur, lookup);
    } else cur = childModule(from, head, lookup) ?? crateNamed(head, ctx, lookup);
    for (; cur && i < segs.length; i++) cur = childModule(cur, segs[i]!, lookup);
    return cur ? [cur] : [];
  },
  selfNames: new Set(),
  implicitThis: false,
  packageOf: () => null,
  exportsOnly: false,
  // A `use` inside a module makes the name reachable through that module only when it is `pub use`;
  // code that compiles never reaches a private one, so every `use` can be followed.
  importsReexport: true,
  reexports: true,
  membersAcrossPackage: false,
  modulePaths: true,
  callsReachCallables: true,
  // A written type is never an enum's variant, which a glob of the enum would otherwise make the name
  // reach (regex: `use aho_corasick::AhoCorasick` beside `use MatchLiteralType::*`, which has one).
  referencesReachTypes: true,
  crateFolderBelow: childDir,
  crateOf(from, lookup) {
    const root = crateRoot(from, lookup);
    let byRoot = crateFiles.get(lookup);
    if (!byRoot) crateFiles.set(lookup, (byRoot = new Map()));
    let files = byRoot.get(root.path);
    if (!files) byRoot.set(root.path, (files = lookup.filesUnder(dirOf(root.path), "rust")));
    return { key: `rust:${root.path}`, files };
  },
};
