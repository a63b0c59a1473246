import { collectionMethods, type LanguageRules } from "../rules.js";

/**
 * Java and Kotlin imports name a package (`a.b.*`) or something in one (`a.b.C`, `a.b.C.m`): only a
 * file of that package, or of a package the name runs through, can change what they reach. A file
 * without a package header may be reached by anything.
 */
export function packageMayReach(spec: string, file: { packageName: string | null }): boolean {
  const pkg = file.packageName;
  return !pkg || spec === pkg || spec.startsWith(`${pkg}.`);
}

export const javaRules: LanguageRules = {
  packagePaths: true,
  nestedTypesByName: true,
  arrayMethods: collectionMethods(
    [
      "get",
      "getFirst",
      "getLast",
      "peek",
      "peekFirst",
      "poll",
      "pop",
      "element",
      "first",
      "last",
      "orElseThrow",
      "orElse",
      "next",
      "getOrDefault",
      "computeIfAbsent",
    ],
    [
      "stream",
      "parallelStream",
      "filter",
      "sorted",
      "distinct",
      "limit",
      "skip",
      "subList",
      "findFirst",
      "findAny",
      "values",
      "iterator",
    ],
  ),
  overloads: true,
  staticNeverOverrides: true,
  inheritedOverloads: true,
  resolveModule(spec, _from, lookup) {
    return lookup.filesInPackage(spec, "java");
  },
  moduleMayReach: packageMayReach,
  importsDeclarations: true,
  // `import static a.b.Limits.*;`: Limits' static members by bare name.
  typeWildcards: true,
  selfNames: new Set(["this"]),
  implicitThis: true,
  anonymousBodies: true,
  // The root type's members (java.lang.Object's) every type has, and well-known outside bases' members.
  outerMembers: {
    universal: new Set("equals hashCode toString getClass clone finalize notify notifyAll wait".split(" ")),
    external: {
      // `class Node extends Object`, as java.util.regex.Pattern writes it: the root type, nothing more.
      Object: [],
      Serializable: [],
      Cloneable: [],
      RandomAccess: [],
      EventListener: [],
      Runnable: ["run"],
      Callable: ["call"],
      Comparable: ["compareTo"],
      AutoCloseable: ["close"],
      Closeable: ["close"],
      Iterable: ["iterator", "forEach", "spliterator"],
      Iterator: ["hasNext", "next", "remove", "forEachRemaining"],
    },
  },
  packageOf: (from, lookup) =>
    from.packageName === null
      ? null
      : { key: `java:${from.packageName}`, files: lookup.filesInPackage(from.packageName, "java") },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  callsReachCallables: true,
  bareReferencesReachTypes: true,
};
