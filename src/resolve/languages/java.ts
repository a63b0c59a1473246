import type { LanguageRules } from "../rules.js";

export const javaRules: LanguageRules = {
  resolveModule(spec, _from, lookup) {
    return lookup.filesInPackage(spec, "java");
  },
  selfNames: new Set(["this"]),
  implicitThis: true,
  packageFiles: (from, lookup) =>
    from.packageName === null ? [] : lookup.filesInPackage(from.packageName, "java").filter((f) => f.id !== from.id),
  exportsOnly: false,
  importsReexport: false,
  membersAcrossPackage: false,
};
