import { dirOf } from "../../core/paths.js";
import type { LanguageRules, ProjectContext } from "../rules.js";

/**
 * Per project: its Go modules, the longest module path first (nested modules shadow their parents),
 * and the folder of each import path looked up so far.
 */
const byProject = new WeakMap<
  ProjectContext,
  { modules: ProjectContext["goModules"]; dirs: Map<string, string | null> }
>();

/**
 * The folder an import path names: by the project's `go.mod` files, or under Go's own source tree
 * (`src/go.mod` says `module std`) for a path whose first element has no dot (`net/http`,
 * `internal/poll`). Null when neither.
 */
function packageDir(spec: string, ctx: ProjectContext): string | null {
  let project = byProject.get(ctx);
  if (!project) {
    const modules = [...ctx.goModules].sort((a, b) => b.module.length - a.module.length);
    byProject.set(ctx, (project = { modules, dirs: new Map() }));
  }
  let dir = project.dirs.get(spec);
  if (dir === undefined) project.dirs.set(spec, (dir = folderOf(spec, project.modules)));
  return dir;
}

function folderOf(spec: string, modules: ProjectContext["goModules"]): string | null {
  for (const m of modules) {
    if (spec === m.module || spec.startsWith(`${m.module}/`)) {
      const rest = spec.slice(m.module.length).replace(/^\//, "");
      return [m.dir, rest].filter(Boolean).join("/");
    }
  }
  const std = modules.find((m) => m.module === "std");
  return std && !spec.split("/", 1)[0]!.includes(".") ? [std.dir, spec].filter(Boolean).join("/") : null;
}

export const goRules: LanguageRules = {
  resolveModule(spec, _from, lookup, ctx) {
    const dir = packageDir(spec, ctx);
    // A folder's external test package (`package bufio_test` beside bufio) is never imported: its files
    // made `check` report cycles among the tests that import the folder's package.
    return dir === null ? [] : lookup.filesInDir(dir, "go").filter((f) => !f.packageName?.endsWith("_test"));
  },
  // A package is a folder: only a file coming to, going from or changing in that folder changes it.
  moduleMayReach: (spec, file, ctx) => packageDir(spec, ctx) === dirOf(file.path),
  selfNames: new Set(),
  implicitThis: false,
  // The files of the folder in the file's own package: its external test package (`x_test`) is another.
  packageOf: (from, lookup) => {
    const dir = dirOf(from.path);
    return {
      key: `go:${dir}:${from.packageName ?? ""}`,
      files: lookup.filesInDir(dir, "go").filter((f) => f.packageName === from.packageName),
    };
  },
  exportsOnly: true,
  importsDeclarations: true,
  importsByUse: true,
  valuesReadConstants: true,
  referencesReachTypes: true,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: true,
  boundLocalsHide: true,
  literalOfAnyType: true,
};
