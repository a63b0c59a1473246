import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import type { LanguageRules } from "../rules.js";

function moduleFiles(path: string, lookup: Lookup, exactOnly: boolean): FileInfo[] {
  for (const candidate of [`${path}.py`, `${path}/__init__.py`, `${path}.pyi`, `${path}/__init__.pyi`]) {
    const exact = lookup.fileByPath(candidate);
    if (exact) return [exact];
  }
  if (exactOnly) return [];
  // Absolute imports are relative to a source root we do not know (`src/`, a vendored tree):
  // accept a suffix match only when it is unambiguous.
  for (const candidate of [`${path}.py`, `${path}/__init__.py`]) {
    const matches = lookup.filesByPathSuffix(candidate);
    if (matches.length === 1) return matches;
    if (matches.length > 1) return [];
  }
  return [];
}

export const pythonRules: LanguageRules = {
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
  packageOf: () => null,
  exportsOnly: false,
  importsReexport: true,
  reexports: true,
  membersAcrossPackage: false,
  flowTypes: true,
};
