import type { EdgeKind, NodeKind } from "./kinds.js";

/** A position range, lines 1-based, columns 0-based (as editors show lines, as tree-sitter counts columns). */
export interface Span {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

/** One declaration found in a file. `parent` indexes into the same file's symbol list; -1 is the file itself. */
export interface ExtractedSymbol extends Span {
  kind: NodeKind;
  name: string;
  /** Dotted path inside the file, e.g. `Outer.Inner.method`; for Java and Go the package is not included. */
  qualifiedName: string;
  parent: number;
  signature: string | null;
  docstring: string | null;
  exported: boolean;
  visibility: "public" | "private" | "protected" | "internal" | null;
  /** Declared parameter count for callables, so overloads and arity can narrow a call. */
  paramCount: number | null;
  /** True for `static` members and class-level (non-instance) declarations where the language marks them. */
  isStatic: boolean;
}

/** Reference kinds an extractor emits; `contains` is structural and `overrides` is derived by the resolver. */
export type RefKind = Exclude<EdgeKind, "contains">;

/**
 * A use of a name that the resolver turns into an edge. `from` indexes the enclosing symbol (-1: file level).
 * `receiver` is the text before the last dot (`this`, `self`, `super`, `x`, `pkg`, `a.b`), or null for a bare name.
 */
export interface RawReference {
  kind: RefKind;
  from: number;
  name: string;
  receiver: string | null;
  line: number;
  col: number;
  /** Argument count at a call site, to pick among overloads. */
  argCount: number | null;
}

/**
 * A name brought into a file's scope by an import (or re-exported from it).
 * - `imported`: the name in the source module; `*` for a namespace/module binding, `default` for a default import,
 *   null for a side-effect import with no binding.
 * - `local`: the name in this file (`*` for `export * from`).
 */
export interface ImportBinding {
  local: string;
  imported: string | null;
  specifier: string;
  line: number;
  /** `export ... from`: the binding is visible to importers of this file, not used inside it. */
  reexport: boolean;
}

/**
 * A name a file uses through a package it imports (Go's `http.Request`), bound as `local` `http.Request`
 * of `imported` `Request`: what the package's import reaches (`LanguageRules.importsByUse`). It binds
 * nothing another file sees.
 */
export const useBindingName = (packageName: string, name: string): string => `${packageName}.${name}`;

/** Whether a binding is one of those (`useBindingName`). */
export const isUseBinding = (b: { local: string; imported: string | null }): boolean =>
  b.imported !== null && b.local.endsWith(`.${b.imported}`);

/**
 * The suffix that makes an element of a value, in receivers and local types: `items[0]` is an element
 * of `items`, `repo.all()[0]` one of what `all()` returns. A type written `T[]` (`Item[]`,
 * `Array<Item>`) has elements of type T.
 */
export const ELEMENT = "[0]";

/**
 * A value of type `typeName` in receivers and local types, written as a made one: `new Foo()` for
 * `new Foo(x)`, and for a cast (`((Foo) x).m()`), a type switch's case or a branch a type test
 * narrows. The name may be dotted (`new ssa.Call()`): the resolver reads such a head whole.
 */
export const valueOfType = (typeName: string): string => `new ${typeName}()`;

/**
 * Between a call and a position, what that position of the call's tuple result is: `split()#1` is
 * the second of what `split()` returns (Rust's `-> (ReadHalf, WriteHalf)`, Go's `(*Conn, *Buf,
 * error)`). A callable records each position's type as the type of `()#i`.
 */
export const TUPLE = "#";

/**
 * What a function given as argument `argument` of a call gets as its parameter `parameter` (or, with
 * "this", as its receiver), a position of the call as TUPLE's are: `#1:0` after the callee's `()` in
 * its own local types, and after the call's text where a callback's parameter is bound (`each()#1:0`).
 */
export function callbackPosition(argument: number, parameter: number | "this"): string {
  return `${TUPLE}${argument}:${parameter}`;
}

/**
 * The prefix of a type parameter's bound in local types: `<T` typed `Repo` for `<T extends Repo>`,
 * in the scope that declares T. A value typed T is of its bound.
 */
export const TYPE_BOUND = "<";

/**
 * The prefix of a type written in a doc comment (JSDoc's `@param {AnimationMixer} mixer`): JavaScript
 * libraries name their own classes there without importing them, so where the name leads nowhere in
 * the file, it is the project's one type of that name.
 */
export const DOC_TYPE = "@";

/**
 * The prefix of a receiver a bare call may have without writing it: inside a lambda with a receiver
 * (Kotlin's `ModuleDefinition { Name("x") }`, whose `block: ModuleDefinitionBuilder.() -> Unit`),
 * `Name` is first looked up on that receiver, then as the bare name it is written as.
 */
export const IMPLICIT_RECEIVER = "~";

/**
 * The local name of the binding a CommonJS module makes with `module.exports = Shape` (a re-export of
 * its own declaration): what `require` of the module returns.
 */
export const MODULE_EXPORTS = "module.exports";

/**
 * The receiver of a `references` ref for a function or class named as a value, not called: passed
 * as an argument (`apply(helper, v)`, `isinstance(x, Order)`), put in a table (`{ helper }`,
 * `.open = my_open`, `[Cart]`), assigned (`s->fn = helper`, `model = Order`) or tested (`x
 * instanceof Cart`). A method named through its object (`this.handleClick`, `self.on_saved`) has the
 * object's text after it (`(value)this`). The resolver looks the name up as it would a call of it,
 * and keeps only functions, methods and types: a variable or field so named is no use worth an edge.
 */
export const NAMED_VALUE = "(value)";

/**
 * The receiver of a `references` ref for a constant read (`MAX_ROWS`), bare or with the object it is
 * read through after it (`(read)Color` for `Color.RED`, `(read)settings` for `settings.DEBUG`). The
 * resolver keeps only a constant, variable, enum member or field: most names read are locals.
 */
export const READ_VALUE = "(read)";

/**
 * Ruby: the receiver for "an instance of the class or module around it", which a class-level
 * callback names its methods for (`before_action :set_user` runs `set_user` on each instance).
 */
export const OWN_INSTANCE = "(instance)";

/**
 * The prefix of a local type that gives a variable another value's members: `mixin(app, proto)`
 * types app `+proto` (see js-mixins). Only a call on the variable reads it, as that value's member.
 */
export const MIXIN = "+";

/** The type name that means "the object literal itself": its members are the holder's children. */
export const OBJECT_TYPE = "{}";

/**
 * The local-type name that marks an extension (C#'s `static M(this Foo x)`, Kotlin's `fun Foo.m()`):
 * in the callable's scope, its type name is the type it extends, so `foo.m()` can reach it.
 */
export const EXTENSION_RECEIVER = "(this)";

/** The extended type of an extension over a type parameter (`M<T>(this T x)`): any receiver fits. */
export const GENERIC_RECEIVER = "*";

/**
 * What the extractor knows about a variable's type in one scope: `const x = new Foo()`, `x: Foo`,
 * a typed parameter, or a typed field (`this.repo` with name `this.repo`). The name `()` gives a callable's
 * return type. `typeName` is a type name, a call chain (`a.b()`) to follow, or OBJECT_TYPE.
 * `scope` indexes a symbol (-1: file).
 */
export interface LocalType {
  scope: number;
  name: string;
  typeName: string;
  /** Where the name gets this type (1-based): a name assigned twice has the type of its last assignment. */
  line: number;
}

/** Everything one file yields. Pure data: safe to send between worker threads. */
export interface ExtractResult {
  symbols: ExtractedSymbol[];
  refs: RawReference[];
  imports: ImportBinding[];
  localTypes: LocalType[];
  /** Java `package a.b;`, Go `package foo`; null where the language has none. */
  packageName: string | null;
  /** Count of ERROR/MISSING nodes: the file is indexed as far as it parses. */
  syntaxErrors: number;
  /** The language the text was parsed as, when not the one its ending names (a C++ `.h`). */
  language?: string;
  /**
   * Extraction stopped at its bounds (generated code: a chain or nesting far past anything written
   * by hand), so the file is indexed in part.
   */
  cutShort?: true;
}

/**
 * The local-type name that marks a method of a trait's implementation (Rust's `impl Future for Sleep {
 * fn poll(..) }`), recorded in the method's own scope with the trait as written: a type may have an
 * inherent method of the same name, which a call reaches first.
 */
export const TRAIT_METHOD = "(trait method)";

/**
 * The local-type name that marks a method written as a statement of a function's body (JavaScript's
 * `this.render = function () {..}` in a class's constructor), recorded in the method's own scope with
 * that function's name as a member of the method's class (`constructor`), or WRITTEN_IN_CLASS when
 * the function is the class itself (`function Queue() { this.clear = function () {..} }`): the
 * method is the class's member, but the names that function declares are in scope of it.
 */
export const WRITTEN_IN = "(written in)";
export const WRITTEN_IN_CLASS = "(the class)";

/**
 * The local-type name that marks a method written in an anonymous class body (Java's `new Foo() { .. }`
 * or an enum constant's body, Kotlin's `object : Foo { .. }`), recorded in the method's own scope. The
 * body is no symbol (its members sit under the declaration around it), so this is what tells the
 * resolver which methods are the body's and what its supertypes are: the type name is `anonymousBody`'s.
 */
export const ANONYMOUS_BODY = "(anonymous body)";

/**
 * The type name of an ANONYMOUS_BODY mark: where the body starts (which tells two bodies apart), its
 * supertypes as written, and the names of local callables around it (Kotlin's `onDone: (T) -> Unit`
 * parameter of the function making the object), which a call by that name reaches before any member.
 */
export function anonymousBody(start: number, supertypes: readonly string[], locals: readonly string[] = []): string {
  return `${start};${supertypes.join(",")};${locals.join(",")}`;
}

/** An ANONYMOUS_BODY mark's type name read back (see `anonymousBody`). */
export function readAnonymousBody(typeName: string): { key: string; supertypes: string[]; locals: string[] } {
  const [key = "", supertypes = "", locals = ""] = typeName.split(";");
  return { key, supertypes: supertypes ? supertypes.split(",") : [], locals: locals ? locals.split(",") : [] };
}

/**
 * Local-type names of C++ `using` directives, with the scope they are written in (a function, else
 * the file): `using namespace a::b;` has type name `a.b`, `using a::f;` has `a.f`.
 */
export const USING_NAMESPACE = "(using namespace)";
export const USING_NAME = "(using)";
/**
 * Local-type name of what a C++ alias (`using Super = Base;`) names, recorded on the alias itself
 * (its scope is the alias's node): `Super::f()` is a call of Base's member.
 */
export const ALIAS_OF = "(alias of)";
