import { dirOf } from "../../core/paths.js";
import type { LanguageRules } from "../rules.js";

export const goRules: LanguageRules = {
  resolveModule(spec, _from, lookup, ctx) {
    // Longest module path first: nested modules shadow their parents.
    const mods = [...ctx.goModules].sort((a, b) => b.module.length - a.module.length);
    for (const m of mods) {
      if (spec === m.module || spec.startsWith(`${m.module}/`)) {
        const rest = spec.slice(m.module.length).replace(/^\//, "");
        const dir = [m.dir, rest].filter(Boolean).join("/");
        return lookup.filesInDir(dir, "go");
      }
    }
    // Go's own source tree (`src/go.mod` says `module std`): a path whose first element has no dot
    // (`net/http`, `internal/poll`) is a package of the standard library, under that folder.
    const std = mods.find((m) => m.module === "std");
    if (std && !spec.split("/", 1)[0]!.includes(".")) {
      const files = lookup.filesInDir([std.dir, spec].filter(Boolean).join("/"), "go");
      if (files.length) return files;
    }
    return [];
  },
  selfNames: new Set(),
  implicitThis: false,
  packageOf: (from, lookup) => {
    const dir = dirOf(from.path);
    return { key: `go:${dir}`, files: lookup.filesInDir(dir, "go") };
  },
  exportsOnly: true,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: true,
};
