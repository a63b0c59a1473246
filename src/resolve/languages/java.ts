import type { LanguageRules } from "../rules.js";

export const javaRules: LanguageRules = {
  resolveModule(spec, _from, lookup) {
    return lookup.filesInPackage(spec, "java");
  },
  selfNames: new Set(["this"]),
  implicitThis: true,
  packageOf: (from, lookup) =>
    from.packageName === null
      ? null
      : { key: `java:${from.packageName}`, files: lookup.filesInPackage(from.packageName, "java") },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
};
