import { isHeaderPath } from "../../core/c-family-paths.js";
import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import type { LanguageRules } from "../rules.js";

/** Languages whose files include each other's headers: C code includes C headers from C++ and back. */
export const C_FAMILY: ReadonlySet<string> = new Set(["c", "cpp"]);

export const isHeader = (file: FileInfo): boolean => isHeaderPath(file.path);

/** Folders in common at the start of two paths. */
function sharedDepth(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

/**
 * The project file an `#include` names. `"a/b.h"` is looked up beside the including file first, as
 * compilers do. Then, for both spellings, in the project's include folders, which we infer rather
 * than read from a build system: any file whose path ends with `/a/b.h` is in such a folder
 * (`include/a/b.h` for `-Iinclude`). Of several, the one sharing the most leading folders with the
 * including file wins (a library's own `config.h` over a sibling library's); a tie names none.
 */
export function resolveInclude(spec: string, from: FileInfo, lookup: Lookup): FileInfo[] {
  const system = spec.startsWith("<");
  const path = system ? spec.slice(1, -1) : spec;
  if (!path) return [];
  if (!system) {
    const rel = joinRel(dirOf(from.path), path);
    const beside = rel !== null ? lookup.fileByPath(rel) : undefined;
    if (beside && C_FAMILY.has(beside.language)) return [beside];
  }
  const clean = path.replace(/^(\.\.?\/)+/, "");
  const found = lookup.filesByPathSuffix(clean).filter((f) => C_FAMILY.has(f.language) && f.id !== from.id);
  if (found.length <= 1) return found;
  let best: FileInfo[] = [];
  let bestDepth = -1;
  for (const f of found) {
    const d = sharedDepth(f.path, from.path);
    if (d > bestDepth) {
      best = [f];
      bestDepth = d;
    } else if (d === bestDepth) best.push(f);
  }
  return best.length === 1 ? best : [];
}

/** The file name a path or an include (`<sys/types.h>`) ends with: an include reaches a file of its name. */
const fileName = (spec: string) => {
  const path = spec.startsWith("<") ? spec.slice(1, -1) : spec;
  return path.slice(path.lastIndexOf("/") + 1);
};

/**
 * C: names are global to a program once linked, and a file sees the declarations of the headers it
 * includes (and of theirs). The resolver's `linkage` step ties prototypes to definitions.
 */
export const cRules: LanguageRules = {
  resolveModule: (spec, from, lookup) => resolveInclude(spec, from, lookup),
  // Beside the including file or by path suffix, an include reaches a file of its own name.
  moduleMayReach: (spec, file) => fileName(file.path) === fileName(spec),
  selfNames: new Set(),
  implicitThis: false,
  packageOf: () => null,
  exportsOnly: false,
  importsReexport: false,
  reexports: true,
  membersAcrossPackage: false,
  linkage: true,
  // A written type: struct tags are names apart from functions and variables (`struct stat`, `stat()`).
  referencesReachTypes: true,
};

/**
 * C++: includes and linkage as C; names are resolved by qualified name in `resolve/cpp.ts`
 * (namespaces, classes and their bases, `using`).
 */
export const cppRules: LanguageRules = {
  ...cRules,
  selfNames: new Set(["this"]),
  cppScopes: true,
};
