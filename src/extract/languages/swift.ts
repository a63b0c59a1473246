import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import type { ExtractResult, ExtractedSymbol } from "../../core/extraction.js";
import {
  ELEMENT,
  EXTENSION_RECEIVER,
  NAMED_VALUE,
  READ_VALUE,
  GENERIC_RECEIVER,
  callbackPosition,
  valueOfType,
} from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast } from "../ts-helpers.js";
import { captureFor, childOfType, spanOf } from "../nodes.js";
import { isSlashOrBlockDoc } from "../source-text.js";
import { constantReads } from "./constant-reads.js";

/**
 * One flat query for the whole file; each pattern's index says what a match is (see `P`).
 *
 * A file's module is its package (see `swiftModule`): Swift files of one module see each other's
 * declarations without imports. Types are qualified inside the file (`Circle.Handle`). An
 * `extension Circle { ... }` is no symbol: its members are Circle's (`owner`, so `Circle.extra`),
 * wherever Circle is declared in the module, and each records the extended type as its local type
 * `EXTENSION_RECEIVER`, so a member of an extension of a type from outside (`extension String`) is
 * found from receivers of that type. `Foo(x)` is a call of the name Foo (an instantiation when Foo
 * is a type) and a call of `Foo.init`; `init`s are constructors named `init`.
 */
const QUERY = `
(comment) @comment
(multiline_comment) @comment
(import_declaration) @import
(class_declaration) @def
(protocol_declaration) @def
(function_declaration) @def
(protocol_function_declaration) @def
(init_declaration) @def
(deinit_declaration) @def
(subscript_declaration) @def
(property_declaration) @def
(protocol_property_declaration) @def
(enum_entry) @def
(typealias_declaration) @def
(call_expression) @call
(if_statement) @binding
(guard_statement) @binding
(while_statement) @binding
(lambda_parameter name: (simple_identifier) @name) @closureparam
(inheritance_specifier inherits_from: (_) @base)
(parameter name: (simple_identifier) @name) @param
(type_parameter . (type_identifier) @typeparam) @tp
(for_statement item: (pattern) @item collection: (_)) @for
(switch_entry) @case
(as_expression) @cast
(check_expression) @cast
(catch_block) @catch
(associatedtype_declaration) @associated
(selector_expression) @selector
(equality_expression lhs: (_) @subject rhs: (prefix_expression target: (simple_identifier) @member))
`;

const P = {
  Comment: 0,
  MultilineComment: 1,
  Import: 2,
  Type: 3,
  Protocol: 4,
  Function: 5,
  ProtocolFunction: 6,
  Init: 7,
  Deinit: 8,
  Subscript: 9,
  Property: 10,
  ProtocolProperty: 11,
  EnumEntry: 12,
  TypeAlias: 13,
  Call: 14,
  IfLet: 15,
  GuardLet: 16,
  WhileLet: 17,
  ClosureParameter: 18,
  Base: 19,
  Parameter: 20,
  TypeParameter: 21,
  For: 22,
  Case: 23,
  Cast: 24,
  Check: 25,
  Catch: 26,
  AssociatedType: 27,
  Selector: 28,
  Comparison: 29,
} as const;

/**
 * The type of a name bound without a written type (`guard let x = x.value`, `{ x in }`, `for x in`):
 * it counts as a second declaration of the name in the function, so a type recorded for the name
 * elsewhere in it is dropped as ambiguous, and is itself never recorded.
 */
const UNKNOWN_TYPE = "";

/** `Order.self`: the type as a value. */
const METATYPE = ".self";

/** Collections whose one type argument is their elements' type (`[Order]` is written as an array type). */
const COLLECTIONS = new Set(["Array", "Set", "ContiguousArray", "ArraySlice"]);

/** Sequence methods whose closure gets an element (its one parameter, or `$0`). */
const ELEMENT_CLOSURES = new Set([
  "forEach",
  "map",
  "compactMap",
  "flatMap",
  "filter",
  "first",
  "last",
  "contains",
  "allSatisfy",
  "drop",
  "prefix",
  "min",
  "max",
  "sorted",
]);

/** The local-type name of a function's argument labels; a call's are this, its line and its name. */
const LABELS = "(labels)";

type Visibility = ExtractedSymbol["visibility"];

/** Node types that are a type written in a declaration. */
const TYPE_NODES = new Set([
  "user_type",
  "optional_type",
  "implicitly_unwrapped_type",
  "array_type",
  "dictionary_type",
  "tuple_type",
  "function_type",
  "opaque_type",
  "existential_type",
  "metatype",
  "protocol_composition_type",
]);
/**
 * The standard library's own types and the protocols the compiler derives or checks: a written one is
 * no use of anything in the project. `Self` is the declaring type. `throws`, `rethrows` and `async`
 * are words the grammar reads as a type after an attribute with arguments (`@Actor (A) throws -> B`).
 */
const BUILTIN_TYPES = new Set([
  "Self",
  "Int",
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Double",
  "Float",
  "Float16",
  "Float32",
  "Float64",
  "Float80",
  "Bool",
  "String",
  "Character",
  "Substring",
  "Void",
  "Never",
  "Any",
  "AnyObject",
  "AnyClass",
  "Error",
  "Optional",
  "Array",
  "Dictionary",
  "Set",
  "AnyHashable",
  "ObjectIdentifier",
  "Sendable",
  "Copyable",
  "Escapable",
  "Equatable",
  "Hashable",
  "Comparable",
  "Identifiable",
  "Codable",
  "Encodable",
  "Decodable",
  "CustomStringConvertible",
  "CustomDebugStringConvertible",
  "throws",
  "rethrows",
  "async",
]);
/** Types that hold other types, walked for the named types inside (`[Key: Foo?]`, `(Foo) -> Bar`). */
const COMPOSITE_TYPES = new Set([
  "optional_type",
  "implicitly_unwrapped_type",
  "array_type",
  "dictionary_type",
  "tuple_type",
  "tuple_type_item",
  "function_type",
  "opaque_type",
  "existential_type",
  "metatype",
  "protocol_composition_type",
  "type_arguments",
]);
/** Operations whose last operand the grammar lets a trailing call or member access swallow. */
const OPERATIONS = new Set([
  "additive_expression",
  "multiplicative_expression",
  "comparison_expression",
  "equality_expression",
  "conjunction_expression",
  "disjunction_expression",
  "nil_coalescing_expression",
  "ternary_expression",
  "infix_expression",
  "range_expression",
  "bitwise_operation",
  "prefix_expression",
]);
/** Bodies whose declarations are members of a type or an extension. */
const MEMBER_BODIES = new Set(["class_body", "enum_class_body", "protocol_body"]);
/** Declarations holding locals in the builder's scopes. */
const LOCAL_SCOPES = new Set([
  "function_declaration",
  // A requirement without a body is a scope too: two requirements of one name (`a(x:)`, `a(y:)`)
  // would otherwise give the protocol two `(labels)` that clash, and both lose them.
  "protocol_function_declaration",
  "init_declaration",
  "deinit_declaration",
  "subscript_declaration",
  "class_declaration",
  "protocol_declaration",
  "source_file",
]);

const capture = captureFor("swift");

/**
 * The module a file belongs to, from its path: a Swift package's target folder (`Sources/Name/`,
 * `Tests/Name/`) is module `Name`; every other Swift file of the project is in one module, `""`
 * (an app or a pod: their module boundaries live in build files we do not read).
 */
export function swiftModule(path: string): string {
  const m = /(?:^|\/)(?:Sources|Tests)\/([^/]+)\//.exec(path);
  return m ? m[1]! : "";
}

interface Modifiers {
  visibility: Visibility;
  isStatic: boolean;
  /** Where the signature starts: after leading attributes. */
  start: Node;
}

class SwiftFile {
  private readonly typeParams = new Set<string>();
  /** Protocols' associated types (`associatedtype Element`): placeholders, as type parameters are. */
  private readonly associatedTypes = new Set<string>();
  private readonly pendingTypes: { at: Node; name: string; typeName: string; cast?: boolean }[] = [];
  /**
   * Written types, walked once the whole file is matched, when the type parameters are all known:
   * a function's parameters are matched before its own type parameters. `fromType` is the extended
   * type for an extension's `where` clause, which is in no symbol.
   */
  private readonly typeUses: { type: Node; fromType: string | null }[] = [];
  /** Types passed as metatypes (`register(Order.self)`), by their dotted names. */
  private readonly metatypes: { at: Node; names: string[] }[] = [];

  constructor(private readonly b: ExtractionBuilder) {}

  handle(m: QueryMatch): void {
    const p = m.patternIndex;
    switch (p) {
      case P.Comment:
      case P.MultilineComment: {
        const node = m.captures[0]!.node;
        if (isSlashOrBlockDoc(this.b.source, node.startIndex)) this.b.comment(node);
        return;
      }
      case P.Import:
        return this.importDeclaration(m.captures[0]!.node);
      case P.Type:
      case P.Protocol:
        return this.typeDeclaration(capture(m, "def"));
      case P.Function:
      case P.ProtocolFunction:
        return this.function(capture(m, "def"));
      case P.Init:
      case P.Deinit:
        return this.initializer(capture(m, "def"), p === P.Deinit);
      case P.Subscript:
        return this.subscript(capture(m, "def"));
      case P.Property:
      case P.ProtocolProperty:
        return this.property(capture(m, "def"));
      case P.EnumEntry:
        return this.enumEntry(capture(m, "def"));
      case P.TypeAlias: {
        const def = capture(m, "def");
        const name = childOfType(def, "type_identifier");
        if (!name) return;
        const mods = this.modifiersOf(def);
        const owner = this.extensionOwner(def);
        this.b.symbol("type_alias", spanOf(mods.start, def), name, {
          docNode: def,
          visibility: mods.visibility ?? "internal",
          exported: mods.visibility === "public",
          ...(owner ? { owner } : {}),
        });
        this.typeUse(this.writtenType(def));
        return this.whereClause(def, null);
      }
      case P.Call:
        return this.callExpression(m.captures[0]!.node);
      case P.Base:
        return this.heritage(m.captures[0]!.node);
      case P.Parameter:
        return this.parameter(capture(m, "param"), capture(m, "name"));
      case P.TypeParameter: {
        this.typeParams.add(this.b.text(capture(m, "typeparam")));
        // `<T: Codable & Shape>`: the constraint, after the name.
        const param = capture(m, "tp");
        for (let i = 1; i < param.namedChildCount; i++) this.typeUse(param.namedChild(i));
        return;
      }
      case P.IfLet:
      case P.GuardLet:
      case P.WhileLet:
        return this.optionalBindings(m.captures[0]!.node);
      case P.ClosureParameter:
        this.typeUse(this.writtenType(capture(m, "closureparam")));
        // Shadows an outer name of the function with a value of unknown type.
        return this.addType(capture(m, "name"), this.b.text(capture(m, "name")), UNKNOWN_TYPE);
      case P.Case:
        return this.castCase(m.captures[0]!.node);
      case P.Cast:
      case P.Check:
        return this.typeUse(m.captures[0]!.node.childForFieldName("name"));
      case P.Catch:
        // `catch let e as AppError`
        return this.typeUse(m.captures[0]!.node.childForFieldName("error")?.childForFieldName("name") ?? null);
      case P.AssociatedType:
        return this.associatedType(m.captures[0]!.node);
      case P.Selector:
        return this.selector(m.captures[0]!.node);
      case P.Comparison:
        return this.comparedMember(capture(m, "subject"), capture(m, "member"));
      case P.For: {
        // As a closure parameter does; and within the loop, the name is an element of the collection.
        // The name is read here: a pattern on the field takes long to compile with this grammar (35 ms,
        // most of the query).
        const loop = capture(m, "for");
        const name = capture(m, "item").childForFieldName("bound_identifier");
        if (name?.type !== "simple_identifier") return;
        this.addType(name, this.b.text(name), UNKNOWN_TYPE);
        const of = loop.childForFieldName("collection");
        const chain = of ? this.chain(of, 0) : null;
        if (chain) this.b.bindElement(this.b.text(name), name.endIndex, loop.endIndex, chain);
        return;
      }
    }
  }

  /**
   * `if let x = value`, `guard let x = value`, `while let x = value`, several per statement. `let x
   * = x` and the shorthand `let x` unwrap the same variable (its type holds); `let x = y as? T` is a
   * T; any other value shadows x with a value of unknown type. (Read here: a query pattern on the
   * field takes long to compile with this grammar.)
   */
  private optionalBindings(statement: Node): void {
    let pending: Node | null = null;
    const settle = (value: Node | null) => {
      if (!pending) return;
      const name = this.b.text(pending);
      if (value === null || (value.type === "simple_identifier" && this.b.text(value) === name)) {
        pending = null;
        return;
      }
      const cast = value.type === "as_expression" ? value.childForFieldName("name") : null;
      const typeName = cast && /\bas\?/.test(this.b.text(value)) ? this.typeName(cast) : null;
      this.pendingTypes.push({ at: pending, name, typeName: typeName ?? UNKNOWN_TYPE, cast: typeName !== null });
      pending = null;
    };
    for (let i = 0; i < statement.childCount; i++) {
      const c = statement.child(i);
      if (!c) continue;
      const field = statement.fieldNameForChild(i);
      if (field === "bound_identifier") {
        settle(null);
        if (c.type === "simple_identifier") pending = c;
      } else if (field === "condition" && c.isNamed && c.type !== "value_binding_pattern") settle(c);
      else if (c.type === "value_binding_pattern" || c.type === "statements" || c.type === "{") settle(null);
    }
    settle(null);
  }

  /**
   * `#selector(onTap)`, `#selector(self.onTap)`: a method named as a value (`NAMED_VALUE`), as
   * target-action code hands one to `addTarget` or a notification center.
   */
  private selector(node: Node): void {
    const named = node.lastNamedChild;
    if (named?.type === "simple_identifier") {
      this.b.ref("references", named, this.b.text(named), NAMED_VALUE);
      return;
    }
    if (named?.type !== "navigation_expression" || named.namedChild(0)?.type !== "self_expression") return;
    const name = named.lastNamedChild?.lastNamedChild;
    if (name?.type === "simple_identifier") this.b.ref("references", name, this.b.text(name), `${NAMED_VALUE}self`);
  }

  /** Hand the collected variable types to the builder, minus those typed by a type parameter or given two types in one scope. */
  flushTypes(): void {
    // Per function and name: the types given (UNKNOWN_TYPE aside), whether all of them come from
    // `as?` casts, and whether the name is also bound without a type.
    const byScope = new Map<string, { types: Set<string>; casts: boolean; unknown: boolean }>();
    const keys = this.pendingTypes.map((t) => {
      if (t.name === EXTENSION_RECEIVER || t.name === "()" || t.name.startsWith("this.")) return null;
      let scope = t.at.parent;
      while (scope && !LOCAL_SCOPES.has(scope.type)) scope = scope.parent;
      const key = `${scope?.id ?? -1}\0${t.name}`;
      let seen = byScope.get(key);
      if (!seen) byScope.set(key, (seen = { types: new Set(), casts: true, unknown: false }));
      if (t.typeName === UNKNOWN_TYPE || this.typeParams.has(t.typeName.split(".")[0]!.replace(/\(\)$/, "")))
        seen.unknown = true;
      else {
        seen.types.add(t.typeName);
        seen.casts &&= t.cast === true;
      }
      return key;
    });
    // Two types clash; so do a type and an untyped binding, unless the type comes from casts
    // (`{ x in guard let x = x as? T ... }`: the untyped name is narrowed to T where it is used).
    const clashes = new Set<string>();
    for (const [key, seen] of byScope)
      if (seen.types.size > 1 || (seen.types.size === 1 && seen.unknown && !seen.casts)) clashes.add(key);
    this.pendingTypes.forEach((t, i) => {
      const key = keys[i];
      if ((key && clashes.has(key)) || t.typeName === UNKNOWN_TYPE) return;
      if (t.name.startsWith(LABELS)) return this.b.localType(t.at, t.name, t.typeName);
      if (t.name === EXTENSION_RECEIVER) {
        this.b.localType(t.at, t.name, this.typeParams.has(t.typeName) ? GENERIC_RECEIVER : t.typeName);
        return;
      }
      const head = t.typeName.split(".")[0]!.replace(/\(\)$/, "");
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
    });
  }

  /** Visibility and `static`/`class` from a declaration's `modifiers`; the signature starts after attributes. */
  private modifiersOf(def: Node): Modifiers {
    let visibility: Visibility = null;
    let isStatic = false;
    let start: Node | null = null;
    const mods = def.child(0)?.type === "modifiers" ? def.child(0) : childOfType(def, "modifiers");
    if (mods) {
      for (const c of mods.namedChildren) {
        // A comment between attributes and the declaration is no part of its signature.
        if (!c || c.type === "attribute" || c.type === "comment" || c.type === "multiline_comment") continue;
        start ??= c;
        const word = this.b.text(c);
        if (c.type === "visibility_modifier") {
          // `private(set) var x` is readable where the declaration is visible.
          if (/\(\s*set\s*\)/.test(word)) continue;
          if (word.startsWith("public") || word.startsWith("open")) visibility = "public";
          else if (word.startsWith("private") || word.startsWith("fileprivate")) visibility = "private";
          else if (word.startsWith("internal")) visibility = "internal";
        } else if (c.type === "property_modifier" && (word === "static" || word === "class")) isStatic = true;
      }
      if (!start) start = mods.nextSibling;
    }
    // `class func f()`: the keyword is a child of the declaration itself.
    for (let i = 0; i < def.childCount && !isStatic; i++) {
      const c = def.child(i);
      if (!c || c.isNamed) continue;
      if (c.type === "func" || c.type === "var" || c.type === "let") break;
      if (c.type === "class" || c.type === "static") isStatic = true;
    }
    return { visibility, isStatic, start: start ?? def };
  }

  /** The declaration holding a member (a type or an extension), or null at top level or in a function. */
  private holderOf(def: Node): Node | null {
    const body = def.parent;
    if (!body || !MEMBER_BODIES.has(body.type)) return null;
    return body.parent;
  }

  private isExtension(decl: Node | null): boolean {
    return decl?.type === "class_declaration" && this.declarationKind(decl) === "extension";
  }

  /** `class`, `struct`, `enum`, `actor`, `extension`, `protocol`. */
  private declarationKind(decl: Node): string {
    for (let i = 0; i < decl.childCount; i++) {
      const c = decl.child(i);
      if (c && !c.isNamed && /^(class|struct|enum|actor|extension|protocol)$/.test(c.type)) return c.type;
    }
    return "class";
  }

  /** The type an extension extends, dotted (`Outer.Inner`). */
  private extendedType(ext: Node): string | null {
    for (const c of ext.namedChildren) if (c?.type === "user_type") return this.typeName(c);
    return null;
  }

  /** For a declaration directly in an extension's body: the extended type's name, its owner. */
  private extensionOwner(def: Node): string | null {
    const holder = this.holderOf(def);
    return holder && this.isExtension(holder) ? this.extendedType(holder) : null;
  }

  private isProtocolMember(def: Node): boolean {
    return def.parent?.type === "protocol_body";
  }

  private typeDeclaration(def: Node): void {
    const kindWord = def.type === "protocol_declaration" ? "protocol" : this.declarationKind(def);
    if (kindWord === "extension") return this.extension(def);
    const name = childOfType(def, "type_identifier");
    if (!name) return;
    const mods = this.modifiersOf(def);
    const kind: NodeKind =
      kindWord === "protocol" ? "interface" : kindWord === "struct" ? "struct" : kindWord === "enum" ? "enum" : "class";
    const body = def.childForFieldName("body");
    const owner = this.extensionOwner(def);
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      docNode: def,
      visibility: mods.visibility ?? "internal",
      exported: mods.visibility === "public",
      signatureEnd: body ? body.startIndex : def.endIndex,
      ...(owner ? { owner } : {}),
    });
    this.whereClause(def, null);
  }

  /**
   * `extension Foo: P { }`: conformance is Foo's when Foo is declared in this file, and so are the
   * types its `where` clause uses. Foo itself is no use: the extension's members are Foo's.
   */
  private extension(def: Node): void {
    const extended = this.extendedType(def);
    if (!extended) return;
    this.whereClause(def, extended);
    for (const spec of def.namedChildren) {
      if (spec?.type !== "inheritance_specifier") continue;
      const base = spec.childForFieldName("inherits_from");
      const dotted = base ? this.typeName(base) : null;
      if (!base || !dotted) continue;
      const { receiver, name } = splitLast(dotted);
      this.b.typeRef("implements", base, name, receiver, extended);
    }
  }

  private function(def: Node): void {
    let name: Node | null = null;
    let returnType: Node | null = null;
    let body: Node | null = null;
    let params = 0;
    let fixedArity = true;
    for (const c of def.namedChildren) {
      if (!c) continue;
      if (c.type === "simple_identifier" && !name) name = c;
      else if (c.type === "parameter") {
        params++;
        if (/\.\.\.\s*$/.test(this.b.text(c))) fixedArity = false;
      } else if (c.type === "function_body") body = c;
      else if (TYPE_NODES.has(c.type) && name) returnType = c;
    }
    if (!name) return;
    // A parameter with a default value: its value is a sibling of the parameters.
    if (def.childrenForFieldName("default_value").length) fixedArity = false;
    const mods = this.modifiersOf(def);
    const holder = this.holderOf(def);
    const owner = holder && this.isExtension(holder) ? this.extendedType(holder) : null;
    const kind: NodeKind = holder ? "method" : "function";
    const local = !holder && def.parent?.type !== "source_file";
    const visibility = local ? null : this.isProtocolMember(def) ? "public" : (mods.visibility ?? "internal");
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: body ? body.startIndex : def.endIndex,
      paramCount: fixedArity ? params : null,
      ...(owner ? { owner } : {}),
    });
    this.typeUse(returnType);
    this.whereClause(def, null);
    const returns = returnType ? this.typeName(returnType) : null;
    if (returns) this.addType(name, "()", returns);
    this.declareLabels(def, name);
    if (owner) this.addType(name, EXTENSION_RECEIVER, owner);
  }

  /** `init(...)` (a constructor named `init`) and `deinit`. */
  private initializer(def: Node, deinit: boolean): void {
    const mods = this.modifiersOf(def);
    const holder = this.holderOf(def);
    const owner = holder && this.isExtension(holder) ? this.extendedType(holder) : null;
    let params = 0;
    let fixedArity = def.childrenForFieldName("default_value").length === 0;
    let body: Node | null = null;
    for (const c of def.namedChildren) {
      if (c?.type === "parameter") {
        params++;
        if (/\.\.\.\s*$/.test(this.b.text(c))) fixedArity = false;
      } else if (c?.type === "function_body") body = c;
    }
    const visibility = this.isProtocolMember(def) ? "public" : (mods.visibility ?? "internal");
    this.b.symbol(deinit ? "method" : "constructor", spanOf(mods.start, def), null, {
      name: deinit ? "deinit" : "init",
      docNode: def,
      visibility,
      exported: visibility === "public",
      signatureEnd: body ? body.startIndex : def.endIndex,
      paramCount: deinit ? 0 : fixedArity ? params : null,
      ...(owner ? { owner } : {}),
    });
    if (owner && !deinit) this.addType(def, EXTENSION_RECEIVER, owner);
    if (!deinit) this.whereClause(def, null);
    const keyword = def.childForFieldName("name");
    if (!deinit && keyword) this.declareLabels(def, keyword);
  }

  /**
   * The argument labels a function's parameters take (`register(module:name:)`), recorded as the
   * local type `(labels)` of the function: `label`, `label:Type` when the type has a name, then `?`
   * when it has a default value, `*` when variadic; `_` for no label. The resolver tells overloads
   * apart by them (`argumentLabels`).
   */
  private declareLabels(def: Node, at: Node): void {
    const labels: string[] = [];
    // The function's own type parameters are matched after it: read them here.
    const own = new Set<string>();
    for (const p of childOfType(def, "type_parameters")?.namedChildren ?? []) {
      const name = p?.type === "type_parameter" ? childOfType(p, "type_identifier") : null;
      if (name) own.add(this.b.text(name));
    }
    for (let i = 0; i < def.childCount; i++) {
      const c = def.child(i);
      if (!c) continue;
      const field = def.fieldNameForChild(i);
      if (c.type === "parameter") {
        const label = c.childForFieldName("external_name") ?? c.childForFieldName("name");
        if (!label) return;
        let type: Node | null = null;
        for (const t of c.namedChildren) if (t && TYPE_NODES.has(t.type)) type = t;
        const typeName = type ? this.typeName(type) : null;
        const text = `${this.b.text(label)}${typeName && !this.typeParams.has(typeName) && !own.has(typeName) ? `:${typeName}` : ""}`;
        labels.push(`${text}${/\.\.\.\s*$/.test(this.b.text(c)) ? "*" : ""}`);
      } else if (field === "default_value" && labels.length) labels[labels.length - 1] += "?";
    }
    if (labels.length) this.addType(at, LABELS, labels.join(","));
  }

  /**
   * The labels of a call's arguments (`_` for none), each with `=expression` when the argument is a
   * name or a call chain whose type the resolver may know (`reject(UnexpectedException(e))`),
   * recorded as the local type `(labels)<line>:<name>` of the calling scope when it has arguments.
   * Not with trailing closures, whose labels are implied.
   */
  private callLabels(callee: Node, names: string[], args: Node): void {
    const labels: string[] = [];
    // A call with closures has no labels read here, but its arguments' metatypes are still uses.
    let labelled = !this.trailingClosures(args);
    for (const c of args.namedChildren) {
      if (c?.type === "lambda_literal") labelled = false;
      if (c?.type !== "value_arguments") continue;
      for (const a of c.namedChildren) {
        if (a?.type !== "value_argument") continue;
        const label = a.childForFieldName("name");
        const value = a.childForFieldName("value");
        const expr = value ? this.chain(value, 0) : null;
        if (expr?.endsWith(METATYPE)) this.metatype(value!, expr);
        const known = expr !== null && !/[,=|]/.test(expr);
        labels.push(`${label ? this.b.text(label).replace(/:$/, "") : "_"}${known ? `=${expr}` : ""}`);
      }
    }
    if (!labels.length || !labelled) return;
    const line = callee.startPosition.row + 1;
    for (const name of names) this.addType(callee, `${LABELS}${line}:${name}`, labels.join(","));
  }

  /** `subscript(i: Int) -> T`: a property named `subscript`, as C#'s indexers are `this[]`. */
  private subscript(def: Node): void {
    const mods = this.modifiersOf(def);
    const owner = this.extensionOwner(def);
    const body = childOfType(def, "computed_property");
    const visibility = mods.visibility ?? "internal";
    this.b.symbol("property", spanOf(mods.start, def), null, {
      name: "subscript",
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: body ? body.startIndex : def.endIndex,
      ...(owner ? { owner } : {}),
    });
    this.typeUse(this.writtenType(def));
    this.whereClause(def, null);
  }

  /**
   * `let`/`var` in a type or extension (a property), at top level (a constant or variable) or in a
   * function (a local, whose type feeds typed receivers).
   */
  private property(def: Node): void {
    const pattern = def.childForFieldName("name");
    const name = pattern?.childForFieldName("bound_identifier") ?? null;
    if (!pattern || !name) return;
    const nameText = this.b.text(name);
    const annotation = childOfType(def, "type_annotation");
    const declared = annotation?.childForFieldName("name") ?? null;
    this.typeUse(declared);
    let typeName = declared ? this.typeName(declared) : null;
    if (!declared) {
      const value = def.childForFieldName("value");
      typeName = value ? this.valueType(value) : null;
    }
    const holder = this.holderOf(def);
    const topLevel = def.parent?.type === "source_file";
    if (!holder && !topLevel) {
      if (typeName) this.addType(name, nameText, typeName);
      if (declared) this.addElementType(name, nameText, declared);
      return;
    }
    const mods = this.modifiersOf(def);
    const owner = holder && this.isExtension(holder) ? this.extendedType(holder) : null;
    const isLet = /^let\b/.test(this.b.text(childOfType(def, "value_binding_pattern") ?? def));
    const visibility = this.isProtocolMember(def) ? "public" : (mods.visibility ?? "internal");
    const kind: NodeKind = holder ? "property" : isLet ? "constant" : "variable";
    const computed = def.childForFieldName("computed_value");
    const value = def.childForFieldName("value");
    const end = computed ? computed.startIndex : value ? value.startIndex : def.endIndex;
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: this.withoutEquals(end),
      ...(owner ? { owner } : {}),
    });
    if (typeName && !owner) this.addType(name, holder ? `this.${nameText}` : nameText, typeName);
    if (declared && !owner) this.addElementType(name, holder ? `this.${nameText}` : nameText, declared);
  }

  /** `case red, green`: one member per name. `case paid(Receipt)`: the values' types are the enum's uses. */
  private enumEntry(def: Node): void {
    for (const values of def.childrenForFieldName("data_contents"))
      for (const v of values?.namedChildren ?? []) this.typeUse(v);
    for (const name of def.childrenForFieldName("name")) {
      if (name?.type !== "simple_identifier") continue;
      this.b.symbol("enum_member", name, name, {
        docNode: def,
        visibility: "public",
        exported: true,
        isStatic: true,
        signatureEnd: name.endIndex,
      });
    }
  }

  private withoutEquals(end: number): number {
    let e = end;
    const src = this.b.source;
    while (e > 0 && /\s/.test(src[e - 1]!)) e--;
    if (src[e - 1] === "=") e--;
    return e;
  }

  /**
   * A supertype in a type's header: `extends`, which the resolver turns into `implements` when a
   * class, struct or enum names a protocol (Swift writes the superclass and protocols in one list).
   */
  private heritage(base: Node): void {
    const spec = base.parent;
    const decl = spec?.parent;
    if (!decl || (decl.type !== "class_declaration" && decl.type !== "protocol_declaration")) return;
    if (this.isExtension(decl)) return; // see extension()
    const dotted = this.typeName(base);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("extends", base, name, receiver);
  }

  private parameter(param: Node, name: Node): void {
    let type: Node | null = null;
    for (const c of param.namedChildren) if (c && TYPE_NODES.has(c.type)) type = c;
    this.typeUse(type);
    const typeName = type ? this.typeName(type) : null;
    if (typeName) this.addType(name, this.b.text(name), typeName);
    if (type) this.addElementType(name, this.b.text(name), type);
    if (type?.type === "function_type") this.closureParameters(param, type);
  }

  /**
   * `func visit(body: (User, Int) -> Void)`: what a closure given as argument i gets as its parameter
   * j, recorded as `()#i:j` in the function's scope (a position of the call, as TUPLE's are), for
   * `visit { u, n in u.save() }` (see `signatureClosures`).
   */
  private closureParameters(param: Node, fnType: Node): void {
    const fn = param.parent;
    if (fn?.type !== "function_declaration" && fn?.type !== "init_declaration") return;
    let i = 0;
    for (const c of fn.namedChildren) {
      if (c?.id === param.id) break;
      if (c?.type === "parameter") i++;
    }
    let j = 0;
    for (const item of fnType.childForFieldName("params")?.namedChildren ?? []) {
      if (item?.type !== "tuple_type_item") continue;
      let type: Node | null = null;
      for (const c of item.namedChildren) if (c && TYPE_NODES.has(c.type)) type = c;
      const typeName = type ? this.typeName(type) : null;
      if (typeName) this.b.localType(param, `()${callbackPosition(i, j)}`, typeName);
      j++;
    }
  }

  /**
   * `visit(list) { u, n in u.save() }`, `pool.borrow(id: "a", use: { $0.save() })`: a closure given as
   * an argument gets what the callee's signature says (see `closureParameters`), by position.
   */
  private signatureClosures(callee: string, suffix: Node): void {
    let i = 0;
    for (const c of suffix.namedChildren) {
      if (c?.type === "value_arguments") {
        for (const a of c.namedChildren) {
          if (a?.type !== "value_argument") continue;
          const value = a.childForFieldName("value");
          if (value?.type === "lambda_literal") this.bindClosure(value, callee, i);
          i++;
        }
      } else if (c?.type === "lambda_literal") {
        this.bindClosure(c, callee, i);
        i++;
      }
    }
  }

  /** The closure given as argument i: its parameters (or `$0`, `$1`, ..) stand for positions `i:0`, `i:1`, ... */
  private bindClosure(closure: Node, callee: string, i: number): void {
    const at = (j: number) => `${callee}()${callbackPosition(i, j)}`;
    const signature = closure.childForFieldName("type");
    const list = signature ? childOfType(signature, "lambda_function_type_parameters") : null;
    const params = list ? list.namedChildren.filter((p) => p?.type === "lambda_parameter") : [];
    if (!params.length) {
      for (let j = 0; j < 3; j++) this.b.bindValue(`$${j}`, closure.startIndex, closure.endIndex, at(j));
      return;
    }
    params.forEach((p, j) => {
      const name = p?.childForFieldName("name");
      if (name) this.b.bindValue(this.b.text(name), closure.startIndex, closure.endIndex, at(j));
    });
  }

  /**
   * The elements' type of a written collection (`[Order]`, `Array<Order>`, `Set<Order>`), as the type
   * of `name[0]` (see ELEMENT).
   */
  private addElementType(at: Node, name: string, type: Node): void {
    let t: Node | null = type;
    if (t.type === "optional_type") t = t.childForFieldName("wrapped") ?? t.namedChild(0);
    let element: Node | null = null;
    if (t?.type === "array_type") element = t.childForFieldName("element") ?? t.namedChild(0);
    else if (t?.type === "user_type") {
      const head = t.namedChildren.filter((c) => c?.type === "type_identifier").pop();
      const args = childOfType(t, "type_arguments")?.namedChildren;
      if (head && args?.length === 1 && COLLECTIONS.has(this.b.text(head))) element = args[0] ?? null;
    }
    const typeName = element ? this.typeName(element) : null;
    if (typeName) this.addType(at, `${name}${ELEMENT}`, typeName);
  }

  /** `orders.forEach { $0.ship() }`, `orders.map { o in o.total() }`: in the closure, an element of orders. */
  private elementClosure(method: string, receiver: string | null, call: Node): void {
    if (!receiver || receiver === "?" || !ELEMENT_CLOSURES.has(method)) return;
    // The trailing closure: a direct child of the call's suffix (read by walking down, not searching
    // the closure's whole body).
    let closure: Node | null = null;
    for (const suffix of call.namedChildren)
      if (suffix?.type === "call_suffix") closure ??= childOfType(suffix, "lambda_literal");
    if (!closure) return;
    const signature = closure.childForFieldName("type");
    const list = signature ? childOfType(signature, "lambda_function_type_parameters") : null;
    const params = list ? list.namedChildren.filter((p) => p?.type === "lambda_parameter") : [];
    const name = params.length === 1 ? params[0]!.childForFieldName("name") : null;
    const bound = name ? this.b.text(name) : params.length === 0 ? "$0" : null;
    if (bound) this.b.bindElement(bound, closure.startIndex, closure.endIndex, receiver);
  }

  /**
   * A call. `Foo(x)` and `A.Foo(x)` are also calls of `Foo.init` (resolved when Foo is a type with
   * such an initialiser); `Foo.init(x)` and `self.init(x)` name it directly.
   */
  private call(callee: Node, receiver: string | null, args: Node): void {
    if (this.isSubscript(args)) return;
    const name = this.b.text(callee);
    const argCount = this.argCount(args);
    this.b.ref("calls", callee, name, receiver, argCount);
    const construction = /^[A-Z]/.test(name) && receiver !== "?";
    if (construction) this.b.ref("calls", callee, "init", receiver === null ? name : `${receiver}.${name}`, argCount);
    if (argCount > 0) this.callLabels(callee, construction ? [name, "init"] : [name], args);
    if (!args.parent) return;
    if (receiver && ELEMENT_CLOSURES.has(name)) this.elementClosure(name, receiver, args.parent);
    else if (receiver !== "?") this.signatureClosures(receiver ? `${receiver}.${name}` : name, args);
  }

  /**
   * `f(x)`, `a.b.f(x)`. (One query pattern for every call, read here: a pattern spelling out the
   * navigation takes seconds to compile with this grammar.) The grammar reads `a() + b()` as
   * `(a() + b)()`: a call whose callee is an operation calls the operation's last operand (`b`, or
   * `x.b` in `a + x.b()`).
   */
  private callExpression(call: Node): void {
    const fn = call.namedChild(0);
    const args = call.namedChild(1);
    if (!fn || args?.type !== "call_suffix") return;
    const callee = this.lastOperand(fn);
    // `.undefined()`, `return .init(x)`: an implicit member of the type the context wants (the
    // function's return type, a parameter's), which is not read here; no bare name of the scope.
    const implicit =
      callee.parent?.type === "prefix_expression" && this.b.source.startsWith(".", callee.parent.startIndex);
    if (callee.type === "simple_identifier") return this.call(callee, implicit ? "?" : null, args);
    if (callee.type !== "navigation_expression") return;
    const target = callee.childForFieldName("target");
    const name = callee.childForFieldName("suffix")?.childForFieldName("suffix") ?? null;
    if (target && name?.type === "simple_identifier") this.call(name, this.receiver(this.lastOperand(target)), args);
  }

  /**
   * The operand an operation's trailing `.m` or `()` belongs to, as the grammar binds them to the
   * whole operation: `"a" + super.m()` parses as `("a" + super).m()`, `!x()` as `(!x)()`.
   */
  private lastOperand(node: Node): Node {
    let last = node;
    for (let depth = 0; depth < 16 && OPERATIONS.has(last.type); depth++) {
      const next =
        last.childForFieldName("rhs") ??
        last.childForFieldName("if_false") ??
        last.childForFieldName("if_nil") ??
        (last.type === "prefix_expression" ? last.childForFieldName("target") : null);
      if (!next) break;
      last = next;
    }
    return last;
  }

  /** `a[i]` parses as a call whose arguments are in brackets: a subscript, not a call. */
  private isSubscript(suffix: Node): boolean {
    const args = suffix.namedChild(0);
    return args?.type === "value_arguments" && this.b.source.startsWith("[", args.startIndex);
  }

  /** The type of an initialiser the resolver can follow: a call chain (`Foo(1)` is `Foo()`), a member (`self.repo`), a cast. */
  private valueType(value: Node): string | null {
    let v: Node | null = value;
    while (v && (v.type === "try_expression" || v.type === "await_expression")) v = v.childForFieldName("expr");
    // `let r = x as! Repo`: the type cast to.
    if (v?.type === "as_expression") {
      const type = v.childForFieldName("name");
      return type ? this.typeName(type) : null;
    }
    if (v?.type === "navigation_expression") {
      const member = this.chain(v, 0);
      return member && member.includes(".") ? member : null;
    }
    if (!v || v.type !== "call_expression") return null;
    const r = this.chain(v, 0);
    return r && r.endsWith("()") ? r : null;
  }

  private addType(at: Node, name: string, typeName: string): void {
    this.pendingTypes.push({ at, name, typeName });
  }

  /** Arguments of a call suffix: the parenthesised ones and trailing closures. */
  private argCount(suffix: Node): number {
    let n = 0;
    for (const c of suffix.namedChildren) {
      if (c?.type === "value_arguments") {
        for (const a of c.namedChildren) if (a?.type === "value_argument") n++;
      } else if (c?.type === "lambda_literal") n++;
    }
    const trailing = this.trailingClosures(suffix);
    return n + (trailing ? trailing.namedChildren.filter((c) => c?.type === "lambda_literal").length : 0);
  }

  /**
   * `f(x) { } label: { }` parses as a call of the call `f(x)` whose suffix holds the closures: that
   * suffix, for the inner call's.
   */
  private trailingClosures(suffix: Node): Node | null {
    const call = suffix.parent;
    const outer = call?.parent;
    if (!call || outer?.type !== "call_expression" || outer.namedChild(0)?.id !== call.id) return null;
    const outerSuffix = outer.namedChild(1);
    if (outerSuffix?.type !== "call_suffix" || outerSuffix.namedChildren.some((c) => c?.type === "value_arguments"))
      return null;
    return outerSuffix;
  }

  /**
   * `case let x as Foo:` in a `switch`: in that case's statements x is a Foo (a value of it, `new
   * Foo()`). Read here rather than matched: patterns on this grammar's fields compile slowly.
   */
  private castCase(entry: Node): void {
    const patterns = entry.namedChildren.filter((c) => c?.type === "switch_pattern");
    // `case is Foo`, `case let x as Foo`: the type is the pattern's.
    for (const p of patterns) this.typeUse(p?.namedChild(0)?.childForFieldName("name") ?? null);
    this.implicitMembers(entry, patterns);
    const body = entry.namedChildren.find((c) => c?.type === "statements");
    const pattern = patterns.length === 1 ? patterns[0]!.namedChild(0) : null;
    if (!body || pattern?.type !== "pattern" || !/^\s*(?:let|var)\s+\w+\s+as\s/.test(this.b.text(pattern))) return;
    const name = pattern.namedChildren.find((c) => c?.type === "pattern")?.childForFieldName("bound_identifier");
    const type = pattern.childForFieldName("name");
    const typeName = type ? this.typeName(type) : null;
    if (name?.type === "simple_identifier" && typeName)
      this.b.narrow(this.b.text(name), body.startIndex, body.endIndex, valueOfType(typeName));
  }

  /**
   * `case .high:` in `switch level`: an implicit member is the subject's type's, so it is read through
   * the subject, as `level.high` would be (the resolver finds it in a parameter's, a local's or a
   * property's type, or `self`'s, inside an enum).
   */
  private implicitMembers(entry: Node, patterns: (Node | null)[]): void {
    let through: string | null = null;
    for (const p of patterns) {
      const pattern = p?.namedChild(0);
      const member = pattern?.type === "pattern" && pattern.namedChildCount === 1 ? pattern.namedChild(0) : null;
      if (member?.type !== "simple_identifier" || this.b.source[pattern!.startIndex] !== ".") continue;
      if (through === null) {
        const subject = entry.parent?.type === "switch_statement" ? entry.parent.childForFieldName("expr") : null;
        through = subject ? this.receiver(subject) : "?";
      }
      if (through === "?") return;
      this.b.ref("references", member, this.b.text(member), `${READ_VALUE}${through}`);
    }
  }

  /** `tier == .premium`: an implicit member compared is of the other side's type. */
  private comparedMember(other: Node, member: Node): void {
    if (this.b.source[member.startIndex - 1] !== ".") return; // `x == -y`, `x == !y`
    const through = this.receiver(other);
    if (through !== "?") this.b.ref("references", member, this.b.text(member), `${READ_VALUE}${through}`);
  }

  /** A written type, if it is one, to walk once the whole file is matched (see `flushTypeUses`). */
  private typeUse(type: Node | null, fromType: string | null = null): void {
    if (type && TYPE_NODES.has(type.type)) this.typeUses.push({ type, fromType });
  }

  /** The type a declaration writes last: a subscript's result, an alias's value, a closure parameter's. */
  private writtenType(def: Node): Node | null {
    let type: Node | null = null;
    for (const c of def.namedChildren) if (c && TYPE_NODES.has(c.type)) type = c;
    return type;
  }

  /** `where T: Foo, T.Element == Bar`: the types the constraints name (the constrained one is a type parameter's). */
  private whereClause(def: Node, fromType: string | null): void {
    const clause = childOfType(def, "type_constraints");
    if (!clause) return;
    for (const constraint of clause.namedChildren) {
      const inner = constraint?.type === "type_constraint" ? constraint.namedChild(0) : null;
      if (inner) for (const c of inner.namedChildren) this.typeUse(c, fromType);
    }
  }

  /** `associatedtype Item: Codable = Order`: a placeholder, as a type parameter is; its constraint and default are uses. */
  private associatedType(def: Node): void {
    const name = childOfType(def, "type_identifier");
    if (name) this.associatedTypes.add(this.b.text(name));
    for (const c of def.namedChildren) this.typeUse(c);
    this.whereClause(def, null);
  }

  /** Each written type's uses, as `references` refs; after the matches, when every type parameter is known. */
  flushTypeUses(): void {
    for (const { type, fromType } of this.typeUses) this.typeRefs(type, fromType, 0);
    for (const { at, names } of this.metatypes) this.typeNamed(at, names, null);
  }

  /**
   * Each project type a written type uses (`Order?`, `[Key: [Item]]`, `(Order) -> Receipt`,
   * `some Shape & Named`, `Box<Item>`, `Outer.Inner`) as a `references` ref: what `impact` and
   * `callers --all-uses` follow to a parameter's, result's, property's or variable's type. Standard
   * library types, type parameters and associated types (and their members, `T.Element`) and `Self`
   * are none; `Foo.Type` is a use of Foo.
   */
  private typeRefs(t: Node, fromType: string | null, depth: number): void {
    if (depth > 8) return;
    if (COMPOSITE_TYPES.has(t.type)) {
      for (const c of t.namedChildren) if (c) this.typeRefs(c, fromType, depth + 1);
      return;
    }
    if (t.type !== "user_type") return;
    const names: string[] = [];
    for (const c of t.namedChildren) {
      if (c?.type === "type_identifier") names.push(this.b.text(c));
      else if (c?.type === "type_arguments") this.typeRefs(c, fromType, depth + 1);
    }
    const last = names.length > 1 ? names[names.length - 1] : null;
    if (last === "Type" || last === "Protocol") names.pop();
    this.typeNamed(t, names, fromType);
  }

  /** `Order.self` passed to a call (read with the written types); a value's `.self` (`x.self`) is the value. */
  private metatype(at: Node, expr: string): void {
    const names = expr.slice(0, -METATYPE.length).split(".");
    if (names.every((n) => /^[A-Z]/.test(n))) this.metatypes.push({ at, names });
  }

  /**
   * A project type named by its dotted name (`Outer.Inner`), as a `references` ref: written as a
   * type, or as a metatype passed to a call (`register(Order.self)`, `Class(Player.self) { .. }`).
   */
  private typeNamed(at: Node, names: string[], fromType: string | null): void {
    if (names.length > 1 && names[0] === "Swift") names.shift();
    const head = names[0];
    if (!head || this.typeParams.has(head) || this.associatedTypes.has(head) || head === "Self") return;
    if (names.length === 1 && BUILTIN_TYPES.has(head)) return;
    const name = names.pop()!;
    const receiver = names.length ? names.join(".") : null;
    if (fromType) this.b.typeRef("references", at, name, receiver, fromType);
    else this.b.ref("references", at, name, receiver);
  }

  /**
   * The dotted name of a type with generics and optionality stripped: `Foo`, `A.B`, `Foo<T>` →
   * `Foo`, `Foo?` → `Foo`. Null for arrays, dictionaries, tuples and function types.
   */
  private typeName(type: Node): string | null {
    switch (type.type) {
      case "user_type": {
        const parts: string[] = [];
        for (const c of type.namedChildren) if (c?.type === "type_identifier") parts.push(this.b.text(c));
        return parts.length ? parts.join(".") : null;
      }
      case "optional_type":
      case "implicitly_unwrapped_type": {
        const inner = type.childForFieldName("wrapped") ?? type.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case "existential_type": // `any P`
      case "opaque_type": {
        // `some P`
        const inner = type.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      default:
        return null;
    }
  }

  /**
   * Receiver text: `x`, `self`, `super`, `a.b`, `A.B.C`, calls in a chain as `a.b()` (arguments
   * dropped), `a?.b` and `a!.b` as `a.b`, `try`/`await` dropped; anything else computed is `?`.
   */
  private receiver(node: Node): string {
    return this.chain(node, 0) ?? "?";
  }

  private chain(node: Node, depth: number): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case "simple_identifier": {
        // `$0` is a closure's element where one is bound (see `elementClosure`), else nothing known.
        const t = this.b.text(node);
        return t.startsWith("$") && t !== "$0" ? null : t;
      }
      case "self_expression":
        return "self";
      case "super_expression":
        return "super";
      case "navigation_expression": {
        const left = node.childForFieldName("target");
        const suffix = node.childForFieldName("suffix");
        const right = suffix?.childForFieldName("suffix") ?? null;
        if (!left || right?.type !== "simple_identifier") return null;
        const l = this.chain(this.lastOperand(left), depth + 1);
        return l ? `${l}.${this.b.text(right)}` : null;
      }
      case "call_expression": {
        const fn = node.namedChild(0);
        const suffix = node.namedChild(1);
        if (!fn) return null;
        if (suffix && this.isSubscript(suffix)) {
          // `orders[0]`: an element of orders.
          const of = this.chain(fn, depth + 1);
          return of ? `${of}${ELEMENT}` : null;
        }
        // `f(x) { }`: the closures are a second suffix of the same call.
        if (fn.type === "call_expression" && suffix && !suffix.namedChildren.some((c) => c?.type === "value_arguments"))
          return this.chain(fn, depth + 1);
        const callee = this.chain(fn, depth + 1);
        return callee && !callee.endsWith(")") ? `${callee}()` : null;
      }
      case "postfix_expression": {
        const inner = node.childForFieldName("target");
        return inner && this.b.source.endsWith("!", node.endIndex) ? this.chain(inner, depth + 1) : null;
      }
      case "try_expression":
      case "await_expression": {
        const inner = node.childForFieldName("expr");
        return inner ? this.chain(inner, depth + 1) : null;
      }
      case "as_expression": {
        // `(x as! Repo).save()`, `(x as? Repo)?.save()`: a value of the type cast to, written as a made
        // one (`new A.Repo()` too: the resolver reads a `new` head whole).
        const type = node.childForFieldName("name");
        const name = type ? this.typeName(type) : null;
        return name ? valueOfType(name) : null;
      }
      case "tuple_expression": {
        const values = node.childrenForFieldName("value");
        return values.length === 1 && values[0] && node.namedChildCount === 1 ? this.chain(values[0], depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** `import Foo` (with `@testable`, or `import struct Foo.Bar`): every name of module Foo. */
  private importDeclaration(decl: Node): void {
    const path = childOfType(decl, "identifier");
    if (!path) return;
    const dotted = this.b.text(path).replace(/\s+/g, "");
    const module = dotted.split(".")[0]!;
    const line = decl.startPosition.row + 1;
    this.b.import({ local: "*", imported: "*", specifier: module, line, reexport: false });
    this.b.symbol("import", decl, null, { name: dotted });
  }
}

/**
 * Constructs newer than the grammar, blanked to what it knows (same length, same line breaks):
 * raw strings (`#"a"b"#` as a plain string of spaces), raw identifiers (`` `a test` `` as
 * `` `a_test` ``), underscored attributes (`@_implicitSelfCapture`), typed throws (`throws(E)` as
 * `throws`), the testing macros `#expect(...)` and `#require(...)` as calls, `nonisolated(unsafe)`,
 * `~Copyable` (as `Copyable`), `@unchecked`, and the ownership words `sending`, `borrowing`,
 * `consuming` and `consume` before a type or a value.
 */
function mendText(source: string): string {
  if (
    !/nonisolated|~Copyable|~Escapable|@unchecked|@_|#"|#expect|#require|throws\(|`|\bsending\b|\bborrowing\b|\bconsum(?:e|ing)\b/.test(
      source,
    )
  )
    return source;
  const blank = (s: string) => " ".repeat(s.length);
  return source
    .replace(/#"[^\n]*?"#/g, (s) => `"${" ".repeat(s.length - 2)}"`)
    .replace(/`[^`\n]+`/g, (s) => `\`${s.slice(1, -1).replace(/\W/g, "_")}\``)
    .replace(/@_\w+(?=\s)/g, blank)
    .replace(/\bthrows\([^)\n]*\)/g, (s) => `throws${" ".repeat(s.length - 6)}`)
    .replace(/#(?=(?:expect|require)\()/g, " ")
    .replace(/\bnonisolated(?:\(unsafe\))?(?=\s)/g, blank)
    .replace(/~(?=(?:Copyable|Escapable)\b)/g, " ")
    .replace(/@unchecked(?=\s)/g, blank)
    .replace(/\b(?:sending|borrowing|consuming)(?=\s+[A-Z@([])/g, blank)
    .replace(/\bconsume(?=\s+[a-z_])/g, blank);
}

/** What a bare name in capitals read in a Swift file may be declared as there (`let MAX_ITEMS = 3`). */
const CONSTANT_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "property", "variable"]);

export const swiftExtractor: LanguageExtractor = {
  id: "swift",
  grammar: "tree-sitter-swift.wasm",
  prepare(_language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    return (tree: Tree, source: string, path: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new SwiftFile(b);
      for (const m of query.matches(root)) file.handle(m);
      file.flushTypeUses();
      file.flushTypes();
      // Enum cases and static members are camelCase (`Color.red`, `Limits.maxItems`).
      constantReads(b, root, {
        nameType: "simple_identifier",
        declaredKinds: CONSTANT_KINDS,
        separator: ".",
        anyCaseMembers: true,
      });
      return b.finish(swiftModule(path), countSyntaxErrors(root));
    };
  },
  parseText: mendText,
};
