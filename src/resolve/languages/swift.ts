import { collectionMethods, type LanguageRules } from "../rules.js";

/**
 * Swift: a file's module (`swiftModule` in the extractor: a package target's folder, else the whole
 * project) is its package; files of one module see each other's declarations without imports, and
 * `import Foo` brings module Foo's. Members declared in an `extension Foo` anywhere in the module are
 * Foo's (`crateOf` and `ownerScopes`); members of extensions of types from outside the project are
 * reached from receivers declared with that type (`extensionCalls`). `self.m()` and bare calls reach
 * the enclosing type's members first; `Foo(x)` makes a Foo and calls `Foo.init`.
 */
export const swiftRules: LanguageRules = {
  arrayMethods: collectionMethods(
    ["first", "last", "randomElement", "popLast", "removeFirst", "removeLast", "min", "max"],
    ["filter", "sorted", "reversed", "shuffled", "dropFirst", "dropLast", "prefix", "suffix"],
  ),
  overloads: true,
  staticNeverOverrides: true,
  noFewerArguments: true,
  resolveModule(spec, _from, lookup) {
    return lookup.filesInPackage(spec, "swift");
  },
  selfNames: new Set(["self"]),
  implicitThis: true,
  packageOf: (from, lookup) =>
    from.packageName === null
      ? null
      : { key: `swift:${from.packageName}`, files: lookup.filesInPackage(from.packageName, "swift") },
  crateOf: (from, lookup) =>
    from.packageName === null
      ? null
      : { key: `swift-module:${from.packageName}`, files: lookup.filesInPackage(from.packageName, "swift") },
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  ownerScopes: true,
  argumentLabels: true,
  extensionCalls: true,
  extensionReceiverApart: true,
  importedExtensions: true,
  membersFirst: true,
  // A nested type calls its outer types' static members bare (`formatKeys(param)` in a class nested
  // in `enum Conversions`). Outside bases: the standard protocols a type conforms to, with the
  // members they give it.
  outerMembers: {
    universal: new Set(),
    external: {
      Error: [],
      Sendable: [],
      Equatable: [],
      Hashable: ["hash", "hashValue"],
      Codable: ["encode"],
      Encodable: ["encode"],
      Decodable: [],
      CustomStringConvertible: ["description"],
      CustomDebugStringConvertible: ["debugDescription"],
      CaseIterable: ["allCases"],
      Identifiable: ["id"],
      AnyObject: [],
    },
  },
  referencesReachTypes: true,
  outerNestedTypes: true,
};
