import type { FileInfo, Lookup } from "../../core/lookup.js";
import { collectionMethods, type LanguageRules } from "../rules.js";
import { packageMayReach } from "./java.js";

/**
 * The files of a package as Kotlin code sees them: its Kotlin files and the Java files of the same
 * package (Android projects mix the two, and Kotlin calls Java by the same names).
 */
function packageFiles(pkg: string, lookup: Lookup): FileInfo[] {
  const kotlin = lookup.filesInPackage(pkg, "kotlin");
  const java = pkg === "" ? [] : lookup.filesInPackage(pkg, "java");
  return java.length ? [...kotlin, ...java] : kotlin;
}

/**
 * Kotlin: a file's package is its package header (`""` without one); the package's files see each
 * other's top-level names without import. `import a.b.C` names a type, a top-level function or a
 * member of an object (through `typeWildcards` and the type fallback of imports). A bare call reaches
 * the enclosing type's members first (`membersFirst`), and `Foo(x)` makes a Foo (no `new`).
 * Extension functions (`fun String.slug()`) are reached from their receivers (`extensionCalls`).
 */
export const kotlinRules: LanguageRules = {
  packagePaths: true,
  nestedTypesByName: true,
  arrayMethods: collectionMethods(
    [
      "first",
      "firstOrNull",
      "last",
      "lastOrNull",
      "single",
      "singleOrNull",
      "find",
      "get",
      "getOrNull",
      "elementAt",
      "random",
      "getValue",
      "getOrDefault",
      "getOrPut",
      "next",
    ],
    [
      "filter",
      "filterNot",
      "sorted",
      "sortedBy",
      "reversed",
      "toList",
      "toMutableList",
      "distinct",
      "take",
      "drop",
      "iterator",
    ],
    ["values"],
  ),
  overloads: true,
  inheritedOverloads: true,
  noFewerArguments: true,
  resolveModule(spec, _from, lookup) {
    return packageFiles(spec, lookup);
  },
  moduleMayReach: packageMayReach,
  importsDeclarations: true,
  selfNames: new Set(["this"]),
  implicitThis: true,
  anonymousBodies: true,
  // The root type's members (Any's) every type has, and well-known outside bases' members.
  outerMembers: {
    universal: new Set("equals hashCode toString".split(" ")),
    external: {
      Serializable: [],
      Runnable: ["run"],
      Comparable: ["compareTo"],
      AutoCloseable: ["close"],
      Closeable: ["close"],
      Iterable: ["iterator"],
      Iterator: ["hasNext", "next"],
    },
  },
  packageOf: (from, lookup) =>
    from.packageName === null
      ? null
      : { key: `kotlin:${from.packageName}`, files: packageFiles(from.packageName, lookup) },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  extensionCalls: true,
  extensionReceiverApart: true,
  importedExtensions: true,
  typeWildcards: true,
  membersFirst: true,
  callablesBeforeValues: true,
  // A factory function is often named as the type it makes (`fun Money(units: Int): Money`).
  referencesReachTypes: true,
};
