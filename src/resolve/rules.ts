import type { NodeKind } from "../core/kinds.js";
import type { FileInfo, Lookup } from "../core/lookup.js";

/** Kinds for `LanguageRules.alternatives`. */
export const FUNCTIONS: ReadonlySet<NodeKind> = new Set(["function"]);
export const FUNCTIONS_AND_METHODS: ReadonlySet<NodeKind> = new Set(["function", "method"]);

/** Project facts outside the source files that change how modules resolve. */
export interface ProjectContext {
  /** tsconfig/jsconfig `compilerOptions`, with `dir` the project-relative folder of the config file. */
  tsconfigs: { dir: string; baseUrl: string | null; paths: Record<string, string[]> }[];
  /** Go modules: the folder holding `go.mod` and its `module` path. */
  goModules: { dir: string; module: string }[];
  /** Cargo crates: the crate's name as code writes it (`-` → `_`) and its root file (`src/lib.rs`). */
  cargoCrates: { dir: string; name: string; root: string }[];
  /**
   * Composer's `autoload.psr-4` (and `autoload-dev`): a namespace prefix (`App\`, backslashed, with its
   * trailing backslash) and the project-relative folders its classes live in.
   */
  psr4?: { prefix: string; dirs: string[] }[];
}

/** What differs between languages when names are resolved. One object per language, in `languages/`. */
/** Files that see each other's top-level names (a package, a crate), and a key naming them. */
export interface FileGroup {
  key: string;
  files: FileInfo[];
}

export interface LanguageRules {
  /** The files a module specifier names (a package may be several files); empty when outside the project. */
  resolveModule(specifier: string, from: FileInfo, lookup: Lookup, ctx: ProjectContext): FileInfo[];
  /**
   * Whether a file (by its path and package) coming or going may change what a module specifier
   * resolves to: false only when it cannot. A sync re-resolves the module references it may change;
   * without this, all of them (a file added to the JDK re-resolved its 42k imports, and more through
   * them, in 15 s).
   */
  moduleMayReach?(specifier: string, file: { path: string; packageName: string | null }, ctx: ProjectContext): boolean;
  /**
   * An import other than a wildcard names one declaration of its package (Java's `import a.b.C`,
   * Kotlin's `import a.b.f`): the file depends on the file declaring it, not on every file of the
   * package. Then a change to the names a file declares changes what such imports reach.
   */
  importsDeclarations?: boolean;
  /**
   * With `importsDeclarations`: the names an import brings in are those the file uses through it,
   * bound by the extractor as `pkg.Name` (Go imports a whole package, and a file using `fmt.Println`
   * depends on the file declaring it, not on every file of fmt).
   */
  importsByUse?: boolean;
  /**
   * A name used as a value (`NAMED_VALUE`) may be a constant or variable read too, not only a
   * function or type: Go writes its constants in any case (`maxDepth`, `http.StatusOK`), so the
   * extractor cannot tell them apart, and one reference stands for each use.
   */
  valuesReadConstants?: boolean;
  /**
   * A name the file imports means that import alone: when the import leads outside the project, the
   * name is not looked for in the file's package. PHP fixes a class name from the file's `use`
   * clauses before its namespace: doctrine's `use Doctrine\Persistence\Mapping\ClassMetadata;` in
   * namespace `Doctrine\ORM\Mapping` is the library's interface, not the ORM's `ClassMetadata`.
   */
  importsShadowPackage?: boolean;
  /**
   * An import binds its names where it is written: one inside a function binds them in that function
   * only, and before the module's names (Python's `def f(): from .testing import Runner as cls`). The
   * extractor makes an `import` node of each bound name, under the function that holds it.
   */
  scopedImports?: boolean;
  /** Receivers that mean the current instance or class. */
  selfNames: ReadonlySet<string>;
  /** Whether a bare `m()` inside a class may be `this.m()` (Java). */
  implicitThis: boolean;
  /**
   * The files whose top-level names are visible without import (Go's folder, Java's package), the
   * file itself included, and a key naming that package; null when the language has no such scope.
   */
  packageOf(from: FileInfo, lookup: Lookup): FileGroup | null;
  /** Whether importers see only exported names. */
  exportsOnly: boolean;
  /** Imports inside a module re-export its names to importers (Python's `from x import y`). */
  importsReexport: boolean;
  /** The language can re-export at all (`export ... from`, or importsReexport); lets lookups skip imports. */
  reexports: boolean;
  /** Members may live in other files of the package (Go methods). */
  membersAcrossPackage: boolean;
  /**
   * A local bound to a member (`f := I.f`, `h := x.handler`) hides every other meaning of its name
   * where it is in scope, also when the member is nothing we can resolve (Go: the extractor records
   * no call of any other local, see `callsLocal`).
   */
  boundLocalsHide?: boolean;
  /**
   * A composite literal may make a value of any type of the name (Go's `T{}` of a struct, a slice or
   * an alias): two types of one name leave it unresolved, whatever their kinds.
   */
  literalOfAnyType?: boolean;
  /**
   * Rust-style paths: a dotted specifier is relative to the importing file (cached per file), a
   * single name that is not declared may be a module (`crate`, `super`, a crate of the workspace),
   * and an import whose module is not a file (an inline module, an enum) is followed through
   * declarations.
   */
  modulePaths?: boolean;
  /**
   * The files of the compilation unit a file belongs to (a Rust crate). Members of a type may be
   * declared in any of them (`impl Point` in another module), and crate-wide names (macros) are found
   * there when the type or name is unique in it.
   */
  crateOf?(from: FileInfo, lookup: Lookup): FileGroup | null;
  /**
   * The folder of the files that may find their crate through this file (its child modules, at any
   * depth): when it comes or goes, they may belong to another crate, and a sync resolves them again.
   */
  crateFolderBelow?(path: string): string;
  /**
   * C and C++ linkage (see `linkage.ts`): a function declared in a header and defined in a source
   * file is one function, so a call reaches the definition and every prototype of it; a C call of a
   * name no included header declares reaches the project's one definition with external linkage.
   */
  linkage?: boolean;
  /**
   * C++: calls, bases and `new` are resolved by qualified name in `cpp.ts` (the enclosing class and
   * its bases, each enclosing namespace, `using` directives), then tied to every declaration by
   * `linkage`.
   */
  cppScopes?: boolean;
  /**
   * C# partial types: declarations of one qualified name in files of one package (namespace) are
   * parts of one type. The part in the file named after the type (else in the first file by path)
   * stands for it, and members and bases are looked up in every part.
   */
  partialTypes?: boolean;
  /**
   * `x.m()` may call an extension (a callable with an `EXTENSION_RECEIVER` local type) declared in
   * the package or a module imported by the file, when `x`'s type has no member `m`: one whose
   * extended type fits the receiver's, or the only one of that name and arity when the receiver's
   * type is unknown.
   */
  extensionCalls?: boolean;
  /**
   * Types from outside the project whose values reach only extensions of that very type or of the
   * root type, never those of another type from outside (C#'s keyword types by their System names,
   * `String`, `Int32`: a string is no `IJSValueWriter`). A made value of one (`new String()`, as C#
   * writes a literal receiver) is a value of it.
   */
  keywordTypes?: ReadonlySet<string>;
  /**
   * Rust: a method the receiver's type does not have may come from an extension trait the file
   * imports (one with a blanket impl, `use tokio::io::AsyncSeekExt` for `file.stream_position()`): the
   * one such trait declaring it.
   */
  importedTraitMethods?: boolean;
  /**
   * The package of a wildcard import may be a type (`using static A.B.C;`, Kotlin's `import a.B.*`):
   * its members are then in scope by bare name.
   */
  typeWildcards?: boolean;
  /**
   * Packages are dotted names that nest, apart from the file layout (C# namespaces): a dotted prefix
   * of a name may be a package, written in full or relative to the file's package or one enclosing
   * it, and an alias (`using Geo = A.Geometry;`) may name a package.
   */
  nestedPackages?: boolean;
  /**
   * A dotted name may start with a package written in full (Java's and Kotlin's `com.shop.model.Order`,
   * in a type, a `new`, a static call), wherever no variable, field or import has its first part.
   */
  packagePaths?: boolean;
  /**
   * The extended type is written apart from the parameters (Kotlin's `fun Foo.m(x)`), so a call of an
   * extension passes as many arguments as it declares; C#'s `this Foo x` is a parameter itself.
   */
  extensionReceiverApart?: boolean;
  /**
   * An extension the file imports by name (Kotlin's `import a.b.ifNull`) is what `x.ifNull()` calls
   * there when `x`'s type is not known or not a project type (a call's result, a type from outside),
   * also when it extends a type parameter: the import is how such calls reach it. With the receiver's
   * type unknown, no other extension is tried: Kotlin's standard library is made of extensions
   * (`map`, `get`, `let`), and a project's extension of the same name is rarely the one meant.
   */
  importedExtensions?: boolean;
  /**
   * Members may be declared apart from their type (Swift's `extension Foo { func m() }`, with owner
   * Foo): such a member's enclosing type is Foo, found by name in the compilation unit (`crateOf`),
   * so `self.x()` and bare calls in it reach Foo's members. Such members are no bare names of the
   * package.
   */
  ownerScopes?: boolean;
  /**
   * A type nested in an enclosing type (or in one of its bases) is named bare inside it (Java's
   * `TreeNode` in `HashMap`, C#'s and Kotlin's nested classes), as Swift's are (`ownerScopes`).
   */
  nestedTypesByName?: boolean;
  /** Overloads are told apart by argument labels (Swift's `f(x:)` and `f(y:)`), see `Resolver.byLabels`. */
  argumentLabels?: boolean;
  /**
   * A field is one property of the object, whichever class of its hierarchy assigns it (TypeScript,
   * JavaScript, Python, PHP): where a class types it by a name that leads nowhere (a JSDoc type
   * never imported), its bases' typing of it is read instead. In Java and its kin a field declared
   * again hides the base's, of another type.
   */
  sharedFields?: boolean;
  /** A bare call reaches the enclosing type's members (and its bases') before any other name. */
  membersFirst?: boolean;
  /**
   * Where the enclosing type (and its bases) has no member of a name used bare, the types it is nested
   * in are searched, innermost first: Java's inner and nested classes call the outer class's methods
   * bare (`nonNullElementAt(es, i)` in `ArrayDeque.DeqIterator`), as C#'s and Kotlin's do. Only past
   * types whose bases are the project's or listed in `external` (a base from outside the project, by
   * name, and the members it declares: `Serializable` none, `Runnable` `run`), and never for
   * `universal` names: the root type's members (`toString`, `hashCode`), which every type has.
   */
  outerMembers?: { universal: ReadonlySet<string>; external: Readonly<Record<string, readonly string[]>> };
  /**
   * Methods of anonymous class bodies are marked as such (ANONYMOUS_BODY: Java's `new Foo() { .. }` and
   * enum constants' bodies, Kotlin's object expressions): in one, `this` is the body, and a bare name is first its own member or its
   * supertype's, then (as `outerMembers` says) the enclosing types'.
   */
  anonymousBodies?: boolean;
  /**
   * A call reaches functions, methods, types and enum cases, never a property or constant of the same
   * name: PHP keeps them apart (`$o->customer()`); a Rust or Java call of a field is written otherwise
   * (`(self.f)()`, `f.apply()`), so `self.enable_io()` is the method beside the field `enable_io`.
   */
  callsReachCallables?: boolean;
  /**
   * A call reaches a function or method where one of the names found is one, rather than a property
   * or variable of the same name: Kotlin calls a property only through its `invoke` (a value of
   * function type), and a function of the name comes first (`fun size()` beside `val size`, a file's
   * `private fun nextValue()` beside its `private var nextValue`). A property alone is still called.
   */
  callablesBeforeValues?: boolean;
  /**
   * A `references` ref is a written type, so only a type answers it: Go's grammar reads a long list of
   * named results (`(r, s, t2, ..., z1 int64)`) as types up to its last few names, which would
   * otherwise reach variables and constants named like them. Kotlin names factory functions as the
   * types they make (`fun Money(units: Int): Money`), and C# properties as their types (`public Color
   * Color { get; }`): a type from outside the project would reach the property.
   */
  referencesReachTypes?: boolean;
  /**
   * A type written by its bare name is first one nested in a type around the use, innermost first, as
   * Swift looks names up: `struct CdpNetwork { typealias RequestId = String; struct Params { let id:
   * RequestId } }`, also through extensions (`extension ExpoSwiftUI { struct Host { var v: some View } }`
   * is ExpoSwiftUI's `View`); and a type an extension declares is no bare name outside the extended
   * type, though a child of its file. For written types (`references`) only.
   */
  outerNestedTypes?: boolean;
  /**
   * A `references` ref by bare name is a written type (Java's method references always have a
   * receiver), so only a type answers it: inside `class TreeNode`, the name `TreeNode` is the class,
   * not its constructor, and inside a member type a type of an enclosing one is looked for past the
   * constructors and methods of that name.
   */
  bareReferencesReachTypes?: boolean;
  /**
   * Kinds whose definitions of one qualified name in one file are alternatives (`if`/`else`,
   * `try`/`except ImportError`, `#[cfg]`), or the later replaces the earlier, where the language has
   * no overloads: a call that finds only them reaches the last. Not TypeScript's functions (`runTest`
   * declared in each `describe` callback is one name per callback, which are no symbols), nor Rust's
   * methods (`Task::from_raw`, inherent, beside a trait impl's `from_raw` on Task).
   */
  alternatives?: ReadonlySet<NodeKind>;
  /**
   * Methods and functions are overloaded: a call that leaves several overloads of one definition (its
   * argument count cannot tell `add(int)` from `add(String)`) reaches the first, marked `overload`,
   * rather than none: answers group overloads as one definition, so its callers are right.
   */
  overloads?: boolean;
  /**
   * A static method overrides no instance method, nor an instance method a static one (Java, C#,
   * Swift). Not Kotlin, whose `object` members are stored as static and implement an interface's.
   */
  staticNeverOverrides?: boolean;
  /**
   * A call passes at least as many arguments as a declaration's known parameter count (defaults and
   * variadics leave it unknown), so a lone candidate that wants more is another method's name (C#,
   * Swift: `super.init()` is no `init(props:)`; Kotlin: an extension `getValue(thisRef, property)`
   * calling the receiver's `getValue(property)`). Not extensions, whose receiver is a parameter.
   */
  noFewerArguments?: boolean;
  /**
   * A call whose argument count no overload of the type it finds takes reaches a base's method of
   * that name and count, or nothing (see `Resolver.inheritedOverloads`). Java and Kotlin; Swift's
   * argument counts split generic arguments (`f(ofType: A<B, C>.self)` counts 3), so not there.
   */
  inheritedOverloads?: boolean;
  /**
   * The standard collections' methods, as chains through them (`(before).method()(after)`): where no
   * project type answers, a call of an `element` method (`items.find(f)`, `items.first()`) is an
   * element of the collection, one of a `copy` method (`items.slice()`, `items.filter(f)`) the same
   * collection.
   */
  arrayMethods?: CollectionMethods;
  /** Objects are made with `new` only: a call by bare name never instantiates a type. */
  newOnly?: boolean;
  /**
   * Types live apart from values (TypeScript): an interface or a type alias is no value, so a call, a
   * `new` or a JSX element (`<Story />`) never reaches one, though a value of that name may.
   */
  typesApart?: boolean;
  /**
   * Variables have no declared type, only what is assigned to them (Python): a use reads the last
   * assignment before it. Elsewhere a variable's declared type is its type wherever it is used.
   */
  flowTypes?: boolean;
  /**
   * A type's inherent method comes before a trait's method of its name (Rust): `self.inner.poll(cx)`
   * on a `ReusableBoxFuture` calls its own `poll(&mut self)`, not its `impl Future`'s (see TRAIT_METHOD).
   */
  inherentFirst?: boolean;
  /**
   * Ruby: constants are global and found by lexical nesting, classes and modules reopen across files
   * (one type, members from every part), methods are found through mixins. Names resolve through
   * `ruby.ts` instead of the generic lookups.
   */
  rubyConstants?: boolean;
  /**
   * `this` in a function the module exports, outside any class, is the module: such a function is
   * called as its method (`app.handle()`, `exports.parse()`), so `this.lazyrouter()` in Express's
   * `app.handle = function ..` calls the module's `lazyrouter` (and `self` where `self = this`).
   */
  moduleThis?: boolean;
}

export interface CollectionMethods {
  element: RegExp;
  copy: RegExp;
  /** Properties that are a collection of the same elements (a map's `values` in Kotlin, `Values` in C#). */
  views: RegExp | null;
}

/** `arrayMethods` for these method names (and property names, `views`). */
export function collectionMethods(
  element: readonly string[],
  copy: readonly string[],
  views: readonly string[] = [],
): CollectionMethods {
  const chain = (names: readonly string[]) => new RegExp(`^(.+?)\\.(?:${names.join("|")})\\(\\)(.*)$`);
  const view = views.length ? new RegExp(`^(.+?)\\.(?:${views.join("|")})((?:[.[].*)?)$`) : null;
  return { element: chain(element), copy: chain(copy), views: view };
}
