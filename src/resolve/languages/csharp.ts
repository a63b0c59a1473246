import { CSHARP_KEYWORD_TYPES } from "../../core/csharp-keyword-types.js";
import type { FileInfo } from "../../core/lookup.js";
import { collectionMethods, type LanguageRules } from "../rules.js";

/** `A.B.C`, `A.B`, `A` and the global namespace (""): the namespaces whose types code in `A.B.C` sees. */
function namespaceChain(ns: string): string[] {
  const out: string[] = [];
  for (let n = ns; n; n = n.includes(".") ? n.slice(0, n.lastIndexOf(".")) : "") out.push(n);
  out.push("");
  return out;
}

/**
 * C#: a file's namespace is its package (`""` for the global namespace). `using A.B;` names a
 * namespace's files; code sees the types of its own namespace and of every enclosing one without a
 * using. Partial types are one type across files (`partialTypes`), and extension methods are reached
 * from their receivers (`extensionCalls`).
 */
export const csharpRules: LanguageRules = {
  nestedTypesByName: true,
  arrayMethods: collectionMethods(
    [
      "First",
      "FirstOrDefault",
      "Last",
      "LastOrDefault",
      "Single",
      "SingleOrDefault",
      "ElementAt",
      "Find",
      "MinBy",
      "MaxBy",
    ],
    [
      "Where",
      "OrderBy",
      "OrderByDescending",
      "ThenBy",
      "Reverse",
      "ToList",
      "ToArray",
      "AsEnumerable",
      "Skip",
      "Take",
      "Distinct",
      "FindAll",
    ],
    ["Values"],
  ),
  overloads: true,
  staticNeverOverrides: true,
  noFewerArguments: true,
  // C# looks a call up in the base types when no method of the nearest type declaring the name is
  // applicable: `Resolve(JSValue.Null)` in `ReactPromise.Resolve()` is `ReactPromise<T>.Resolve(T)`.
  inheritedOverloads: true,
  resolveModule(spec, _from, lookup) {
    return lookup.filesInPackage(spec, "csharp");
  },
  selfNames: new Set(["this"]),
  implicitThis: true,
  // The root type's members (System.Object's) every type has, and well-known outside bases' members.
  outerMembers: {
    universal: new Set("Equals GetHashCode ToString GetType MemberwiseClone ReferenceEquals Finalize".split(" ")),
    external: {
      IDisposable: ["Dispose"],
      IAsyncDisposable: ["DisposeAsync"],
      IComparable: ["CompareTo"],
      IEquatable: ["Equals"],
      ICloneable: ["Clone"],
      IEnumerable: ["GetEnumerator"],
    },
  },
  packageOf(from, lookup) {
    if (from.packageName === null) return null;
    const files: FileInfo[] = [];
    for (const ns of namespaceChain(from.packageName)) files.push(...lookup.filesInPackage(ns, "csharp"));
    return { key: `csharp:${from.packageName}`, files };
  },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  partialTypes: true,
  extensionCalls: true,
  keywordTypes: new Set(CSHARP_KEYWORD_TYPES.values()),
  typeWildcards: true,
  nestedPackages: true,
  membersFirst: true,
  newOnly: true,
  // `public Color Color { get; }`: a written type never reaches the member named like it.
  referencesReachTypes: true,
};
