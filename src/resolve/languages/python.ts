import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import { FUNCTIONS_AND_METHODS, type LanguageRules } from "../rules.js";

function moduleFiles(path: string, lookup: Lookup, exactOnly: boolean): FileInfo[] {
  for (const candidate of [`${path}.py`, `${path}/__init__.py`, `${path}.pyi`, `${path}/__init__.pyi`]) {
    const exact = lookup.fileByPath(candidate);
    if (exact) return [exact];
  }
  if (exactOnly) return [];
  // Absolute imports are relative to a source root we do not know (`src/`, a vendored tree):
  // accept a suffix match only when it is unambiguous, and only where the folder above the match
  // can be a source root: a folder that is itself a package (has an `__init__.py`) is not on the
  // path, so `import datetime` is the standard library's, not `django/db/models/functions/datetime.py`.
  for (const candidate of [`${path}.py`, `${path}/__init__.py`]) {
    const matches = lookup.filesByPathSuffix(candidate);
    if (matches.length > 1) return [];
    if (matches.length === 1) return underSourceRoot(matches[0]!.path, candidate, lookup) ? matches : [];
  }
  return [];
}

/** Whether the folder that `path` (which ends with `/${suffix}`) lies in below `suffix` is not a package. */
function underSourceRoot(path: string, suffix: string, lookup: Lookup): boolean {
  const root = path.slice(0, path.length - suffix.length); // "" or ending in "/"
  return !root || (!lookup.fileByPath(`${root}__init__.py`) && !lookup.fileByPath(`${root}__init__.pyi`));
}

/**
 * A module specifier names a file by its last part (`a.b.mod` is `…/a/b/mod.py`) or a package by its
 * folder (`a.b` is `…/a/b/__init__.py`); a suffix match also turns on files of that name elsewhere.
 * So only a file whose name or folder is the specifier's last part can change what it reaches
 * (`from . import x` names no part: anything may), or, for an absolute specifier, any `__init__.py`
 * (it makes its folder a package, which is no source root for a suffix match).
 */
function pythonMayReach(spec: string, file: { path: string }): boolean {
  const last = spec.slice(spec.lastIndexOf(".") + 1);
  if (!last) return true;
  const slash = file.path.lastIndexOf("/");
  const name = file.path.slice(slash + 1);
  // A package's `__init__.py` decides whether the folder above a suffix match is a source root.
  if (!spec.startsWith(".") && (name === "__init__.py" || name === "__init__.pyi")) return true;
  const stem = name.split(".", 1)[0];
  const folder = file.path.slice(file.path.lastIndexOf("/", slash - 1) + 1, Math.max(slash, 0));
  return last === stem || last === folder;
}

export const pythonRules: LanguageRules = {
  alternatives: FUNCTIONS_AND_METHODS,
  scopedImports: true,
  moduleMayReach: pythonMayReach,
  resolveModule(spec, from, lookup) {
    if (spec.startsWith(".")) {
      const level = spec.length - spec.replace(/^\.+/, "").length;
      let dir = dirOf(from.path);
      for (let i = 1; i < level; i++) dir = dirOf(dir);
      const rest = spec.slice(level).split(".").filter(Boolean).join("/");
      if (!rest) {
        const init = lookup.fileByPath(dir ? `${dir}/__init__.py` : "__init__.py");
        return init ? [init] : [];
      }
      const rel = joinRel(dir, rest);
      return rel === null ? [] : moduleFiles(rel, lookup, true);
    }
    return moduleFiles(spec.split(".").join("/"), lookup, false);
  },
  selfNames: new Set(["self", "cls"]),
  implicitThis: false,
  sharedFields: true,
  packageOf: () => null,
  exportsOnly: false,
  importsReexport: true,
  reexports: true,
  membersAcrossPackage: false,
  flowTypes: true,
};
