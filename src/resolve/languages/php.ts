import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import { FUNCTIONS_AND_METHODS, type LanguageRules, type ProjectContext } from "../rules.js";
import { packageMayReach } from "./java.js";

/**
 * A `require`/`include` path: `./x.php` and `../x.php` (from `__DIR__`) beside the requiring file; a
 * plain `x.php` beside it, else from the project root (include_path's usual `.`), else the one project
 * file ending in it.
 */
function requireTarget(spec: string, from: FileInfo, lookup: Lookup): FileInfo[] {
  const here = joinRel(dirOf(from.path), spec);
  const beside = here === null ? undefined : lookup.fileByPath(here);
  if (beside) return [beside];
  if (spec.startsWith(".")) return [];
  const rooted = lookup.fileByPath(spec.replace(/^\/+/, ""));
  if (rooted) return [rooted];
  const suffix = lookup.filesByPathSuffix(spec.replace(/^\/+/, ""));
  return suffix.length === 1 ? suffix : [];
}

/** Where PSR-4 puts a class: `App\Model\Order` under prefix `App\` in `src/` is `src/Model/Order.php`. */
function psr4Paths(absolute: string, ctx: ProjectContext): string[] {
  const out: string[] = [];
  for (const { prefix, dirs } of ctx.psr4 ?? []) {
    if (!absolute.startsWith(prefix)) continue;
    const rest = absolute.slice(prefix.length).split("\\").join("/");
    for (const d of dirs) out.push(d ? `${d}/${rest}.php` : `${rest}.php`);
  }
  return out;
}

/** `require "x.php"` names a path; anything else a class or function by namespace (`A.B.C`). */
function isRequirePath(spec: string): boolean {
  return spec.endsWith(".php") || spec.includes("/");
}

/**
 * PHP: a file's namespace is its package (dotted, "" for the global namespace). A specifier is a
 * declaration's absolute name, dotted (`App.Model.Order`, from `use App\Model\Order` or a qualified
 * name the extractor made absolute): the files of namespace `App.Model` that declare `Order` at their
 * top level (the one composer's PSR-4 map points at first, when it declares it). A namespace is no
 * module (`use A\B;` serves as a prefix, which the extractor expands). Paths (`x.php`) are required
 * files. Code sees its own namespace and the global one without a `use`.
 */
/**
 * Per lookup (one index or sync), each namespace's files by the names they declare at the top
 * level, and each namespace's package (its files and the global namespace's). Both were rebuilt on
 * every lookup: MediaWiki's global namespace holds thousands of files, each class looked up in
 * it scanned them all.
 */
const declaredIn = new WeakMap<Lookup, Map<string, Map<string, FileInfo[]>>>();
const packages = new WeakMap<Lookup, Map<string, { key: string; files: FileInfo[] }>>();

function filesDeclaring(lookup: Lookup, ns: string, name: string): readonly FileInfo[] {
  let byNs = declaredIn.get(lookup);
  if (!byNs) declaredIn.set(lookup, (byNs = new Map()));
  let byName = byNs.get(ns);
  if (!byName) {
    byName = new Map();
    for (const f of lookup.filesInPackage(ns, "php")) {
      for (const s of lookup.allTopLevel(f.id)) {
        if (s.kind === "import") continue;
        const list = byName.get(s.name);
        if (!list) byName.set(s.name, [f]);
        else if (list[list.length - 1] !== f) list.push(f);
      }
    }
    byNs.set(ns, byName);
  }
  return byName.get(name) ?? [];
}

export const phpRules: LanguageRules = {
  alternatives: FUNCTIONS_AND_METHODS,
  // A class or function is looked up in the files of its namespace, as a Java type in its package.
  moduleMayReach: (spec, file) => isRequirePath(spec) || packageMayReach(spec, file),
  // `use App\A\Foo;` reaches the file declaring Foo: renaming Foo there moves it, as a Java import.
  importsDeclarations: true,
  resolveModule(spec, from, lookup, ctx) {
    if (isRequirePath(spec)) return requireTarget(spec, from, lookup);
    const dot = spec.lastIndexOf(".");
    const ns = dot < 0 ? "" : spec.slice(0, dot);
    const name = spec.slice(dot + 1);
    const declares = (f: FileInfo) =>
      f.language === "php" && f.packageName === ns && lookup.topLevel(f.id, name).some((s) => s.kind !== "import");
    for (const path of psr4Paths(spec.split(".").join("\\"), ctx)) {
      const f = lookup.fileByPath(path);
      if (f && declares(f)) return [f];
    }
    return [...filesDeclaring(lookup, ns, name)];
  },
  selfNames: new Set(["this"]),
  implicitThis: false,
  sharedFields: true,
  packageOf(from, lookup) {
    if (from.packageName === null) return null;
    let known = packages.get(lookup);
    if (!known) packages.set(lookup, (known = new Map()));
    let pkg = known.get(from.packageName);
    if (!pkg) {
      const files = [...lookup.filesInPackage(from.packageName, "php")];
      if (from.packageName !== "") files.push(...lookup.filesInPackage("", "php"));
      known.set(from.packageName, (pkg = { key: `php:${from.packageName}`, files }));
    }
    return pkg;
  },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  newOnly: true,
  callsReachCallables: true,
  importsShadowPackage: true,
};
