import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import type { ExtractResult, ExtractedSymbol } from "../../core/extraction.js";
import {
  ANONYMOUS_BODY,
  ELEMENT,
  EXTENSION_RECEIVER,
  NAMED_VALUE,
  GENERIC_RECEIVER,
  anonymousBody,
  callbackPosition,
  valueOfType,
} from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast } from "../ts-helpers.js";
import { captureFor, childOfType, spanOf } from "../nodes.js";
import { isBlockDoc } from "../source-text.js";
import { constantReads } from "./constant-reads.js";

/**
 * One flat query for the whole file; each pattern's index says what a match is (see `P`). The
 * Kotlin grammar (tree-sitter-kotlin 0.3) has no fields, so declarations are read from their
 * children by type.
 *
 * Packages are not symbols: as in Java, a file's package is its `packageName` and types are
 * qualified inside the file (`Order.Line`). A companion object is no symbol either: its members are
 * the outer type's (`Order.make`, static), as Kotlin code calls them (`Order.make()`). Objects are
 * classes whose members are static. `Foo(x)` is a call of the name `Foo`, which the resolver turns
 * into an instantiation when Foo is a type. A top-level extension function (`fun String.slug()`) records
 * the type it extends as its local type `EXTENSION_RECEIVER`.
 */
const QUERY = `
(multiline_comment) @comment
(package_header (identifier) @name)
(import_header) @import
(class_declaration) @def
(object_declaration) @def
(function_declaration) @def
(secondary_constructor) @def
(property_declaration) @def
(class_parameter) @def
(enum_entry . (simple_identifier) @name) @def
(type_alias . (type_identifier) @name) @def
(call_expression . (simple_identifier) @callee . (call_suffix) @args)
(call_expression . (navigation_expression . (_) @recv . (navigation_suffix . (simple_identifier) @callee)) . (call_suffix) @args)
(constructor_delegation_call) @init
(delegation_specifier) @base
(parameter . (simple_identifier) @name . (_) @type)
(type_parameter (type_identifier) @typeparam)
(catch_block . (simple_identifier) @name . (_) @type)
(lambda_parameters (variable_declaration . (simple_identifier) @name . (_) @type))
(for_statement . (variable_declaration . (simple_identifier) @name . (_) @type))
(for_statement) @loop
(check_expression) @test
(when_expression (when_subject . (simple_identifier) @name .) (when_entry . (when_condition (type_test . (_) @type .) @test) . (control_structure_body) @body))
[(as_expression (_) (_) @type .) (type_test (_) @type .) (type_parameter (_) @type .) (type_constraint (_) @type .) (call_suffix (type_arguments) @type)]
(callable_reference) @ref
`;

const P = {
  Comment: 0,
  Package: 1,
  Import: 2,
  Class: 3,
  Object: 4,
  Function: 5,
  SecondaryConstructor: 6,
  Property: 7,
  ClassParameter: 8,
  EnumEntry: 9,
  TypeAlias: 10,
  Call: 11,
  CallOn: 12,
  ConstructorDelegation: 13,
  Base: 14,
  Parameter: 15,
  TypeParameter: 16,
  Catch: 17,
  LambdaParameter: 18,
  ForVariable: 19,
  Loop: 20,
  IfIs: 21,
  WhenIs: 22,
  TypeUse: 23,
  CallableRef: 24,
} as const;

/**
 * The `kotlin` package's basic types, imported into every file: never a project type, so no reference
 * worth recording. Collections (`List`, `Map`) are left to the resolver: a project may declare its own.
 */
const BUILTIN_TYPES = new Set(
  "Any Unit Nothing Boolean Byte Short Int Long Float Double Char String Number CharSequence UByte UShort UInt ULong Array BooleanArray ByteArray ShortArray IntArray LongArray FloatArray DoubleArray CharArray".split(
    " ",
  ),
);

/** Collections whose one type argument is their elements' type. */
const COLLECTIONS = new Set([
  "List",
  "MutableList",
  "ArrayList",
  "Array",
  "Set",
  "MutableSet",
  "HashSet",
  "LinkedHashSet",
  "Collection",
  "MutableCollection",
  "Iterable",
  "Sequence",
  "Iterator",
]);
/** Maps, whose values stand for their elements (`byId[k]`, `byId.getValue(k)`, `byId.values.forEach { }`). */
const MAPS = new Set(["Map", "MutableMap", "HashMap", "LinkedHashMap", "SortedMap", "TreeMap"]);

/** Collection methods whose lambda gets an element (as `it` or its one parameter). */
const ELEMENT_LAMBDAS = new Set([
  "forEach",
  "map",
  "mapNotNull",
  "flatMap",
  "filter",
  "filterNot",
  "find",
  "first",
  "firstOrNull",
  "last",
  "lastOrNull",
  "any",
  "all",
  "none",
  "count",
  "sumOf",
  "onEach",
  "sortedBy",
  "sortedByDescending",
  "groupBy",
  "associateBy",
  "associateWith",
  "maxByOrNull",
  "minByOrNull",
  "takeWhile",
  "dropWhile",
  "partition",
]);

/** Declarations whose locals share one scope in the builder (a function, or a type's initialisers). */
const LOCAL_SCOPES = new Set([
  "function_declaration",
  "secondary_constructor",
  "class_declaration",
  "object_declaration",
  "companion_object",
  "object_literal",
  "source_file",
]);

type Visibility = ExtractedSymbol["visibility"];

/** Node types that are a type written in a declaration. */
const TYPE_NODES = new Set(["user_type", "nullable_type", "parenthesized_type", "function_type", "dynamic"]);
/** Initialisers a local's type is read from: a call, an element, a member, a cast. */
const VALUE_NODES = new Set(["call_expression", "indexing_expression", "navigation_expression", "as_expression"]);
/** Bodies whose declarations are members of a type. */
const MEMBER_BODIES = new Set(["class_body", "enum_class_body"]);

const capture = captureFor("kotlin");

/** The standard library's functions whose contract makes their one condition true after them. */
const CONTRACTS = new Set(["require", "check"]);

/** A branch that leaves the code around it whenever it runs: `return`, `throw`, `break`, `continue` last. */
function leavesBlock(body: Node): boolean {
  const first = body.namedChild(0);
  const last = first?.type === "statements" ? first.lastNamedChild : first;
  return last?.type === "jump_expression";
}

/** Whether an offset lies in one of the spans (start, end pairs). */
function inScope(spans: number[] | undefined, at: number): boolean {
  if (!spans) return false;
  for (let i = 0; i < spans.length; i += 2) if (spans[i]! <= at && at < spans[i + 1]!) return true;
  return false;
}

const COMMENTS = new Set(["line_comment", "multiline_comment"]);

/**
 * The type written after a name: past its annotations (`promise: @Suppress("DEPRECATION") Promise`),
 * which the grammar puts in a `type_modifiers` node before the type, beside it.
 */
function withoutTypeModifiers(type: Node): Node {
  return type.type === "type_modifiers" ? (type.nextNamedSibling ?? type) : type;
}

/** A stand-in declaration start that no comment ends above: for declarations that share a line with their holder's. */
const NO_DOC = { startPosition: { row: -2, column: 0 } } as Node;

interface Modifiers {
  visibility: Visibility;
  isConst: boolean;
  /** Where the signature starts: after leading annotations. */
  start: Node;
}

class KotlinFile {
  private packageNameText: string | null = null;
  private readonly typeParams = new Set<string>();
  /** Each type parameter's name node, whose declaration is the scope a use of the name means it in. */
  private readonly typeParamNodes: Node[] = [];
  /**
   * Written types (a parameter's, a return type, a cast's ...), walked once the whole file is matched:
   * the type parameters in scope are known only then.
   */
  private readonly typeUses: Node[] = [];
  private readonly pendingTypes: { at: Node; name: string; typeName: string }[] = [];
  /**
   * Parameters of function type (`onDone: (T) -> Unit`) with the range of the function declaring
   * them: local callables, which a call by their name inside the function reaches before a member of
   * an object expression there (see `flushObjectFunctions`).
   */
  private readonly callableParameters: { start: number; end: number; name: string }[] = [];
  /** Functions of object expressions, marked once the whole file is matched (see `flushObjectFunctions`). */
  private readonly objectFunctions: { name: Node; literal: Node; supertypes: string[] }[] = [];

  constructor(private readonly b: ExtractionBuilder) {}

  /** The file's package; "" without a package header. */
  get packageName(): string {
    return this.packageNameText ?? "";
  }

  handle(m: QueryMatch): void {
    const p = m.patternIndex;
    switch (p) {
      case P.Comment: {
        const node = m.captures[0]!.node;
        if (isBlockDoc(this.b.source, node.startIndex)) this.b.comment(node);
        return;
      }
      case P.Package:
        this.packageNameText ??= this.b.text(m.captures[0]!.node).replace(/\s+/g, "");
        return;
      case P.Import:
        return this.importHeader(m.captures[0]!.node);
      case P.Class:
      case P.Object:
        return this.typeDeclaration(capture(m, "def"));
      case P.Function:
        return this.function(capture(m, "def"));
      case P.SecondaryConstructor:
        return this.secondaryConstructor(capture(m, "def"));
      case P.Property:
        return this.property(capture(m, "def"));
      case P.ClassParameter:
        return this.classParameter(capture(m, "def"));
      case P.EnumEntry: {
        const def = capture(m, "def");
        const name = capture(m, "name");
        this.b.symbol("enum_member", def, name, {
          visibility: "public",
          exported: true,
          isStatic: true,
          signatureEnd: name.endIndex,
        });
        return;
      }
      case P.TypeAlias: {
        const def = capture(m, "def");
        const mods = this.modifiersOf(def);
        this.b.symbol("type_alias", spanOf(mods.start, def), capture(m, "name"), {
          docNode: def,
          visibility: mods.visibility ?? "public",
          exported: mods.visibility === null || mods.visibility === "public",
        });
        // The aliased type, written last.
        const aliased = def.lastNamedChild;
        if (aliased) this.typeUses.push(aliased);
        return;
      }
      case P.Call: {
        const callee = capture(m, "callee");
        const args = capture(m, "args");
        this.b.ref("calls", callee, this.b.text(callee), null, this.argCount(args));
        return this.signatureLambdas(this.b.text(callee), args);
      }
      case P.CallOn: {
        const callee = capture(m, "callee");
        const recv = this.receiver(capture(m, "recv"));
        const args = capture(m, "args");
        const name = this.b.text(callee);
        this.b.ref("calls", callee, name, recv, this.argCount(args));
        if (ELEMENT_LAMBDAS.has(name)) return this.elementLambda(name, recv, args);
        if (recv !== "?") this.signatureLambdas(`${recv}.${name}`, args);
        return;
      }
      case P.Loop:
        return this.loop(m.captures[0]!.node);
      case P.ConstructorDelegation:
        return this.constructorDelegation(m.captures[0]!.node);
      case P.Base:
        return this.heritage(m.captures[0]!.node);
      case P.Parameter:
      case P.Catch:
      case P.LambdaParameter:
      case P.ForVariable: {
        // `block: (e: Foo) -> Unit` names a function type's parameter: no variable.
        if (p === P.Parameter && m.captures[0]!.node.parent?.parent?.type === "function_type_parameters") return;
        const type = withoutTypeModifiers(capture(m, "type"));
        this.typeUses.push(type);
        if (p === P.Parameter) this.lambdaParameters(m.captures[0]!.node.parent!, type);
        const typeName = this.typeName(type);
        if (typeName) this.addType(capture(m, "name"), this.b.text(capture(m, "name")), typeName, type);
        return;
      }
      case P.TypeParameter: {
        const name = m.captures[0]!.node;
        this.typeParams.add(this.b.text(name));
        this.typeParamNodes.push(name);
        return;
      }
      case P.IfIs: {
        const test = capture(m, "test");
        // `x is Foo`; `x in xs` is a check too, whose right side is no type (the walk skips it).
        const type = test.namedChild(1);
        if (type) this.typeUses.push(type);
        return this.ifIs(test);
      }
      case P.TypeUse:
        this.typeUses.push(m.captures[0]!.node);
        return;
      case P.CallableRef:
        return this.callableReference(m.captures[0]!.node);
      case P.WhenIs:
        return this.smartCast(capture(m, "name"), capture(m, "type"), capture(m, "test"), capture(m, "body"));
    }
  }

  /**
   * `if (x is Foo) ..`, `if (x !is Foo) return` and `require(x is Foo)`: the test is matched alone and
   * what holds it read here; the pattern for the whole `if` was a fifth of the time this query took to
   * compile, which every sync of a Kotlin file pays.
   */
  private ifIs(test: Node): void {
    const holder = test.parent;
    const name = test.namedChild(0);
    if (test.namedChildCount !== 2 || name?.type !== "simple_identifier" || !holder) return;
    const type = test.namedChild(1)!;
    const negated = this.b.text(test).includes("!is");
    if (holder.type === "if_expression" && holder.namedChild(0)?.id === test.id) {
      const body = test.nextNamedSibling;
      if (body?.type !== "control_structure_body") return;
      if (!negated) return this.smartCast(name, type, test, body);
      // A guard clause: past it, to the end of the statements holding it.
      if (!body.nextNamedSibling && leavesBlock(body) && holder.parent)
        this.castBetween(name, type, holder.endIndex, holder.parent.endIndex);
      return;
    }
    const contract = negated ? null : this.contractCall(holder);
    if (contract?.parent?.type === "statements")
      this.castBetween(name, type, contract.endIndex, contract.parent.endIndex);
  }

  /**
   * The statement `require(<argument>)` or `check(<argument>)` (a lambda may follow), when the
   * argument is its only one: the standard library's contracts make the test true past it.
   */
  private contractCall(argument: Node): Node | null {
    const args = argument.parent;
    const call = args?.parent?.parent;
    if (argument.type !== "value_argument" || args?.namedChildCount !== 1 || call?.type !== "call_expression")
      return null;
    const fn = call.namedChild(0);
    if (fn?.type !== "simple_identifier" || !CONTRACTS.has(this.b.text(fn))) return null;
    const outer = call.parent;
    return outer?.type === "call_expression" && outer.namedChild(0)?.id === call.id ? outer : call;
  }

  /**
   * `::parse`, `Order::total`: a function or method named as a value is used (`NAMED_VALUE`),
   * through the type written before `::` when there is one. `Order::class` uses the type.
   */
  private callableReference(node: Node): void {
    const name = node.lastNamedChild;
    if (name?.type === "type_identifier" && node.namedChildCount === 1) {
      this.typeUses.push(name);
      return;
    }
    if (name?.type !== "simple_identifier") return;
    const type = node.namedChildCount > 1 ? node.namedChild(0) : null;
    const receiver = type?.type === "type_identifier" ? this.b.text(type) : type ? null : "";
    if (receiver !== null) this.b.ref("references", name, this.b.text(name), `${NAMED_VALUE}${receiver}`);
  }

  /**
   * `if (x is Foo) ..` and `when (x) { is Foo -> .. }`: in that branch x is a Foo (a value of it, `new
   * Foo()`), whatever it is declared as; `!is` and a branch of several conditions narrow nothing.
   */
  private smartCast(name: Node, type: Node, test: Node, body: Node): void {
    if (this.b.text(test).includes("!is")) return;
    this.castBetween(name, type, body.startIndex, body.endIndex);
  }

  /** Between the two offsets, the variable `name` is a value of `type`. */
  private castBetween(name: Node, type: Node, start: number, end: number): void {
    const typeName = this.typeName(type);
    if (typeName) this.b.narrow(this.b.text(name), start, end, valueOfType(typeName));
  }

  /**
   * Hand the collected variable types to the builder, minus those typed by a type parameter, and
   * minus a local name given different types in one function (two `catch (e: ...)`, lambdas' typed
   * parameters): scopes are functions, so which one a use means is unknown.
   */
  /**
   * Mark each function of an object expression as the object's (ANONYMOUS_BODY), so that the object's
   * calls reach its own functions and its supertypes' members first, with the function-typed
   * parameters of the functions around the object, which come before those (a listener's
   * `override fun onResult(r) { onResult(r) }` calls the parameter `onResult`, not itself).
   */
  flushObjectFunctions(): void {
    for (const f of this.objectFunctions) {
      const at = f.literal.startIndex;
      const locals = this.callableParameters.filter((p) => p.start <= at && at < p.end).map((p) => p.name);
      this.b.localType(f.name, ANONYMOUS_BODY, anonymousBody(at, f.supertypes, locals));
    }
  }

  flushTypes(): void {
    const byScope = new Map<string, string>();
    const clashes = new Set<string>();
    const keys = this.pendingTypes.map((t) => {
      if (t.name === EXTENSION_RECEIVER || t.name === "()" || t.name.startsWith("this.")) return null;
      let scope = t.at.parent;
      while (scope && !LOCAL_SCOPES.has(scope.type)) scope = scope.parent;
      const key = `${scope?.id ?? -1}\0${t.name}`;
      const seen = byScope.get(key);
      if (seen === undefined) byScope.set(key, t.typeName);
      else if (seen !== t.typeName) clashes.add(key);
      return key;
    });
    this.pendingTypes.forEach((t, i) => {
      const key = keys[i];
      if (key && clashes.has(key)) return;
      if (t.name === EXTENSION_RECEIVER) {
        this.b.localType(t.at, t.name, this.typeParams.has(t.typeName) ? GENERIC_RECEIVER : t.typeName);
        return;
      }
      const head = t.typeName.split(".")[0]!.replace(/\(\)$/, "");
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
    });
  }

  /** Visibility and `const` from a declaration's `modifiers` child; the signature starts after annotations. */
  private modifiersOf(def: Node): Modifiers {
    let visibility: Visibility = null;
    let isConst = false;
    let start: Node | null = null;
    const first = def.child(0);
    if (first?.type === "modifiers") {
      for (const c of first.namedChildren) {
        if (!c) continue;
        // A comment between annotations and the declaration is no part of its signature.
        if (c.type === "annotation" || COMMENTS.has(c.type)) continue;
        start ??= c;
        const word = this.b.text(c);
        if (c.type === "visibility_modifier") {
          visibility =
            word === "public" || word === "private" || word === "protected" || word === "internal" ? word : null;
        } else if (c.type === "property_modifier" && word === "const") isConst = true;
      }
      if (!start) start = first.nextSibling;
    }
    return { visibility, isConst, start: start ?? def };
  }

  /** The declaration holding a member: a class, object, companion, enum entry or object literal; null at top level or in a function. */
  private holderOf(def: Node): Node | null {
    const body = def.parent;
    if (!body || !MEMBER_BODIES.has(body.type)) return null;
    return body.parent;
  }

  /** Members of objects and companion objects are static. */
  private isStaticMember(def: Node): boolean {
    const holder = this.holderOf(def);
    return holder?.type === "object_declaration" || holder?.type === "companion_object";
  }

  private isInterfaceMember(def: Node): boolean {
    const holder = this.holderOf(def);
    return holder?.type === "class_declaration" && this.hasToken(holder, "interface");
  }

  /** Whether a node has an anonymous child with this text (`interface`, `enum`). */
  private hasToken(node: Node, word: string): boolean {
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (c && !c.isNamed && c.type === word) return true;
    }
    return false;
  }

  private typeDeclaration(def: Node): void {
    let name: Node | null = null;
    for (const c of def.namedChildren) {
      if (c?.type === "type_identifier" || c?.type === "simple_identifier") {
        name = c;
        break;
      }
    }
    if (!name) return;
    const mods = this.modifiersOf(def);
    let kind: NodeKind = "class";
    if (def.type === "class_declaration") {
      if (this.hasToken(def, "interface")) kind = "interface";
      else if (this.hasToken(def, "enum")) kind = "enum";
    }
    const body = childOfType(def, "class_body") ?? childOfType(def, "enum_class_body");
    const visibility = mods.visibility ?? "public";
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: this.isStaticMember(def),
      signatureEnd: body ? body.startIndex : def.endIndex,
    });
  }

  private function(def: Node): void {
    let name: Node | null = null;
    let receiverType: Node | null = null;
    let returnType: Node | null = null;
    let params: Node | null = null;
    let body: Node | null = null;
    for (const c of def.namedChildren) {
      if (!c) continue;
      if (c.type === "simple_identifier" && !name) name = c;
      else if (TYPE_NODES.has(c.type)) {
        if (!name) receiverType = c;
        else if (params) returnType = c;
      } else if (c.type === "function_value_parameters") params = c;
      else if (c.type === "function_body") body = c;
    }
    if (!name) return;
    const mods = this.modifiersOf(def);
    const holder = this.holderOf(def);
    const kind: NodeKind = holder ? "method" : "function";
    const local = !holder && def.parent?.type !== "source_file";
    const visibility = local ? null : (mods.visibility ?? "public");
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: this.isStaticMember(def),
      signatureEnd: body ? body.startIndex : def.endIndex,
      paramCount: this.paramCount(params),
    });
    if (holder?.type === "object_literal") {
      const supertypes = this.objectSupertypes(holder);
      this.anonymousOverrides(def, supertypes, name);
      this.objectFunctions.push({ name, literal: holder, supertypes });
    }
    if (returnType) this.typeUses.push(returnType);
    if (receiverType) this.receiverTypeArguments(receiverType);
    const returns = returnType ? this.typeName(returnType) : body ? this.expressionBodyType(body) : null;
    if (returns) this.addType(name, "()", returns, returnType ?? undefined);
    // Only top-level extensions: one declared in a class is called inside that class alone.
    if (receiverType && def.parent?.type === "source_file") {
      const extended = this.typeName(receiverType);
      this.addType(name, EXTENSION_RECEIVER, extended ?? GENERIC_RECEIVER);
    }
  }

  /** `fun make() = Order(1)`: the type of an expression body the resolver can follow. */
  private expressionBodyType(body: Node): string | null {
    const expr = body.namedChild(0);
    return expr && expr.type === "call_expression" ? this.valueType(expr) : null;
  }

  /** `constructor(x: Int) : this(x)`: a constructor named `constructor`, as Kotlin writes it. */
  private secondaryConstructor(def: Node): void {
    const mods = this.modifiersOf(def);
    const params = childOfType(def, "function_value_parameters");
    const visibility = mods.visibility ?? "public";
    const body = childOfType(def, "statements");
    const delegation = childOfType(def, "constructor_delegation_call");
    this.b.symbol("constructor", spanOf(mods.start, def), null, {
      name: "constructor",
      docNode: def,
      visibility,
      exported: visibility === "public",
      signatureEnd: delegation ? delegation.startIndex : body ? body.startIndex : def.endIndex,
      paramCount: this.paramCount(params),
    });
  }

  /**
   * `constructor(x: Int) : this(x, 0)` or `: super(x)`. Where the class has a primary constructor
   * (`class Order(id: Int)`), `this(...)` is usually it: the class itself is made, as by `Order(x)`.
   */
  private constructorDelegation(call: Node): void {
    const args = childOfType(call, "value_arguments");
    const argCount = args ? this.countArguments(args) : 0;
    if (this.b.source.startsWith("super", call.startIndex))
      return this.b.ref("calls", call, "constructor", "super", argCount);
    const type = call.parent?.parent?.parent;
    const name = type?.type === "class_declaration" ? childOfType(type, "type_identifier") : null;
    if (name && childOfType(type!, "primary_constructor"))
      return this.b.ref("instantiates", call, this.b.text(name), null, argCount);
    this.b.ref("calls", call, "constructor", "this", argCount);
  }

  /**
   * `val x: T = ...` in a class (a property), at top level (a variable; `const val` a constant) or in
   * a function (a local, whose type feeds typed receivers).
   */
  private property(def: Node): void {
    let decl: Node | null = null;
    for (const c of def.namedChildren) {
      if (c?.type === "variable_declaration") {
        decl = c;
        break;
      }
      // `val List<Item>.total: Int`: the receiver, written before the name.
      if (c && TYPE_NODES.has(c.type)) this.receiverTypeArguments(c);
    }
    const name = decl ? childOfType(decl, "simple_identifier") : null;
    if (!decl || !name) return;
    const nameText = this.b.text(name);
    const declared = decl.namedChildren.find((c) => c !== null && TYPE_NODES.has(c.type)) ?? null;
    if (declared) this.typeUses.push(declared);
    let typeName = declared ? this.typeName(declared) : null;
    if (!typeName && !declared) {
      const value = def.namedChildren.find((c) => c !== null && VALUE_NODES.has(c.type));
      typeName = value ? this.valueType(value) : null;
    }
    const holder = this.holderOf(def);
    const topLevel = def.parent?.type === "source_file";
    if (!holder && !topLevel) {
      if (typeName) this.addType(name, nameText, typeName, declared ?? undefined);
      return;
    }
    const mods = this.modifiersOf(def);
    const visibility = mods.visibility ?? "public";
    const kind: NodeKind = holder ? "property" : mods.isConst ? "constant" : "variable";
    this.b.symbol(kind, spanOf(mods.start, this.lastAccessor(def)), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isConst || this.isStaticMember(def),
      signatureEnd: this.propertySignatureEnd(def, decl),
    });
    if (holder?.type === "object_literal") this.anonymousOverrides(def, this.objectSupertypes(holder), name);
    if (typeName) this.addType(name, holder ? `this.${nameText}` : nameText, typeName, declared ?? undefined);
  }

  /**
   * The last of a property's accessors, or the property itself. An accessor on a line of its own
   * (`val context: Context` then `get() { .. }`) is the property's sibling in this grammar, not its
   * child: without it in the span, the calls in its body were the class's and the property showed
   * only its first line.
   */
  private lastAccessor(def: Node): Node {
    let last = def;
    for (let next = def.nextNamedSibling; next; next = next.nextNamedSibling) {
      if (next.type === "getter" || next.type === "setter") last = next;
      else if (!COMMENTS.has(next.type)) break;
    }
    return last;
  }

  /** A property's signature: its declaration with the declared type, without initialiser or accessors. */
  private propertySignatureEnd(def: Node, decl: Node): number {
    const typeParams = childOfType(def, "type_constraints");
    return Math.max(decl.endIndex, typeParams?.endIndex ?? 0);
  }

  /** `class Point(val x: Int, y: Int)`: `x` is a property, `y` only a constructor parameter. */
  private classParameter(def: Node): void {
    const type = def.namedChildren.find((c) => c !== null && TYPE_NODES.has(c.type)) ?? null;
    // A plain constructor parameter's type is the class's use; a property's, the property's.
    if (type) this.typeUses.push(type);
    if (!childOfType(def, "binding_pattern_kind")) return;
    const name = childOfType(def, "simple_identifier");
    if (!name) return;
    const mods = this.modifiersOf(def);
    const visibility = mods.visibility ?? "public";
    // A parameter on the class's own line would take the class's doc comment.
    const classRow = def.parent?.parent?.startPosition.row;
    this.b.symbol("property", spanOf(mods.start, def), name, {
      docNode: def.startPosition.row === classRow ? NO_DOC : def,
      visibility,
      exported: visibility === "public",
      signatureEnd: type ? type.endIndex : name.endIndex,
    });
    const typeName = type ? this.typeName(type) : null;
    if (typeName) this.addType(def, `this.${this.b.text(name)}`, typeName, type ?? undefined);
  }

  /**
   * A supertype in a class header. All are `extends`: the resolver turns a class's `extends` of an
   * interface into `implements` (Kotlin writes both in one list; a superclass is usually invoked,
   * `Base()`, an interface not). Companion objects' and object expressions' supertypes are not the
   * enclosing type's, so they are left out.
   */
  private heritage(spec: Node): void {
    const inner = spec.namedChild(0);
    if (!inner) return;
    const holder = spec.parent;
    if (holder?.type !== "class_declaration" && holder?.type !== "object_declaration") {
      // A companion's or an object expression's supertype: a type the code around it uses.
      const used = inner.type === "constructor_invocation" ? childOfType(inner, "user_type") : inner;
      if (used) this.typeUses.push(used);
      return;
    }
    const base = this.supertype(inner);
    if (!base) return;
    const { receiver, name } = splitLast(base.dotted);
    this.b.ref(base.kind, base.type, name, receiver);
    // `Base<Item>()`: Base is extended, Item only used.
    this.receiverTypeArguments(base.type);
  }

  /** The type a delegation specifier's content names (`Base()`, `Listener`, `Api by impl`), and how. */
  private supertype(inner: Node): { type: Node; dotted: string; kind: "extends" | "implements" } | null {
    let type: Node | null = inner;
    let kind: "extends" | "implements" = "extends";
    if (inner.type === "constructor_invocation") type = childOfType(inner, "user_type");
    else if (inner.type === "explicit_delegation") {
      // `Base by impl` delegates an interface.
      type = inner.namedChildren.find((c) => c !== null && TYPE_NODES.has(c.type)) ?? null;
      kind = "implements";
    }
    const dotted = type ? this.typeName(type) : null;
    return type && dotted ? { type, dotted, kind } : null;
  }

  /**
   * An `override` member of an object expression (`object : Listener { override fun onEvent(..) }`)
   * overrides a member of one of the expression's supertypes. The object is no symbol (its members
   * sit under the function around it), so the supertypes cannot come from its heritage refs as a
   * class's do: each is written as the receiver of an `overrides` ref of the member, which the
   * resolver looks up from where the object is.
   */
  private anonymousOverrides(def: Node, supertypes: readonly string[], name: Node): void {
    if (!this.hasModifier(def, "override")) return;
    const member = this.b.text(name);
    for (const dotted of supertypes) this.b.ref("overrides", name, member, dotted);
  }

  /** The supertypes an object expression names (`object : Base(), Listener`), as written. */
  private objectSupertypes(literal: Node): string[] {
    const out: string[] = [];
    for (const spec of literal.namedChildren) {
      const inner = spec?.type === "delegation_specifier" ? spec.namedChild(0) : null;
      const base = inner ? this.supertype(inner) : null;
      if (base) out.push(base.dotted);
    }
    return out;
  }

  /** Whether a declaration's modifiers include this word (`override`). */
  private hasModifier(def: Node, word: string): boolean {
    const first = def.child(0);
    if (first?.type !== "modifiers") return false;
    return first.namedChildren.some((c) => c !== null && !COMMENTS.has(c.type) && this.b.text(c) === word);
  }

  /**
   * The type arguments of a type that is no use itself: an extension's receiver (`fun List<Item>.total()`
   * extends List, as a method belongs to its class) or a supertype (already `extends`).
   */
  private receiverTypeArguments(type: Node): void {
    let t: Node | null = type;
    while (t && (t.type === "nullable_type" || t.type === "parenthesized_type")) t = t.namedChild(0);
    if (t?.type !== "user_type") return;
    for (const c of t.namedChildren) if (c?.type === "type_arguments") this.typeUses.push(c);
  }

  /**
   * Each project type a written type uses (`Order?`, `List<a.b.Item>`, `(Order) -> Receipt`,
   * `Order.() -> Unit`) as a `references` ref of the declaration around it: what `impact` and
   * `callers --all-uses` follow to a parameter's, return type's, property's or local's type. The
   * `kotlin` package's basic types and the type parameters in scope are no project types.
   */
  flushTypeUses(): void {
    if (!this.typeUses.length) return;
    const scopes = this.typeParamScopes();
    for (const t of this.typeUses) this.typeRefs(t, scopes, 0);
  }

  /** Type parameters by name, each as the start and end of the declaration that declares it. */
  private typeParamScopes(): Map<string, number[]> {
    const scopes = new Map<string, number[]>();
    for (const name of this.typeParamNodes) {
      // type_identifier → type_parameter → type_parameters → the class, function, property or alias.
      const decl = name.parent?.parent?.parent;
      if (!decl) continue;
      const text = this.b.text(name);
      let spans = scopes.get(text);
      if (!spans) scopes.set(text, (spans = []));
      spans.push(decl.startIndex, decl.endIndex);
    }
    return scopes;
  }

  private typeRefs(t: Node, scopes: Map<string, number[]>, depth: number): void {
    if (depth > 8) return;
    switch (t.type) {
      case "type_identifier":
        // A class literal's (`Order::class`).
        return this.typeRef(t, this.b.text(t), scopes);
      case "user_type":
      case "function_type": {
        // A user type's identifiers are its dotted name (`a.b.Item`, `Outer<A>.Inner`); a function
        // type's leading ones, its receiver (`Order.() -> Unit`).
        let dotted = "";
        let at: Node | null = null;
        const inner: Node[] = [];
        for (const c of t.namedChildren) {
          if (c?.type === "type_identifier") {
            dotted = dotted ? `${dotted}.${this.b.text(c)}` : this.b.text(c);
            at ??= c;
          } else if (c) inner.push(c);
        }
        if (at) this.typeRef(at, dotted, scopes);
        for (const c of inner) this.typeRefs(c, scopes, depth + 1);
        return;
      }
      case "nullable_type":
      case "parenthesized_type":
      case "type_arguments":
      case "type_projection":
      case "function_type_parameters":
        for (const c of t.namedChildren) if (c) this.typeRefs(c, scopes, depth + 1);
        return;
      case "parameter": {
        // `(e: Order) -> Unit`: a function type's named parameter.
        const type = t.lastNamedChild;
        if (type) this.typeRefs(type, scopes, depth + 1);
        return;
      }
      case "type_modifiers": {
        // `p: suspend () -> Order`, `e: @Ann Order`: the patterns take the modifiers for the type.
        const next = depth === 0 ? t.nextNamedSibling : null;
        if (next && TYPE_NODES.has(next.type)) this.typeRefs(next, scopes, depth + 1);
        return;
      }
    }
  }

  private typeRef(at: Node, dotted: string, scopes: Map<string, number[]>): void {
    const { receiver, name } = splitLast(dotted);
    if (receiver === null && (BUILTIN_TYPES.has(name) || inScope(scopes.get(name), at.startIndex))) return;
    this.b.ref("references", at, name, receiver);
  }

  /**
   * The type of an initialiser the resolver can follow: a call chain (`Foo(1)` is `Foo()`, a
   * construction), an element, a member (`val repo = this.repo`) or a cast (`x as Repo`).
   */
  private valueType(value: Node): string | null {
    // `val r = x as Repo`, `x as? Repo`: the type cast to.
    if (value.type === "as_expression") {
      const type = value.namedChild(value.namedChildCount - 1);
      return type && TYPE_NODES.has(type.type) ? this.typeName(type) : null;
    }
    const r = this.chain(value, 0);
    if (!r) return null;
    return r.endsWith("()") || r.endsWith(ELEMENT) || (value.type === "navigation_expression" && r.includes("."))
      ? r
      : null;
  }

  /**
   * Record a name's type; from its written type (`declared`), also its elements' as the type of
   * `name[0]` (`List<Item>`: `items[0]` is an Item, see ELEMENT). The name keeps the collection's
   * type, which extensions of it (`fun List<Item>.total()`) are matched by.
   */
  private addType(at: Node, name: string, typeName: string, declared?: Node): void {
    this.pendingTypes.push({ at, name, typeName });
    const element = declared ? this.elementType(declared) : null;
    if (element) this.pendingTypes.push({ at, name: `${name}${ELEMENT}`, typeName: element });
  }

  /**
   * The elements' type of a written collection type: `List<Item>`, `Array<Item>?`, `Set<Item>` →
   * `Item`; a map's values': `Map<String, Item>` → `Item`.
   */
  private elementType(type: Node): string | null {
    const t = type.type === "nullable_type" ? type.namedChild(0) : type;
    if (t?.type !== "user_type") return null;
    const head = t.namedChildren.filter((c) => c?.type === "type_identifier").pop();
    const args = childOfType(t, "type_arguments")?.namedChildren;
    const collection = head ? this.b.text(head) : "";
    const arg =
      args?.length === 1 && COLLECTIONS.has(collection)
        ? args[0]
        : args?.length === 2 && MAPS.has(collection)
          ? args[1]
          : null;
    const inner = arg?.namedChild(arg.namedChildCount - 1);
    return inner ? this.typeName(inner) : null;
  }

  /** Parameters in a list; null when a call may pass another count (defaults, `vararg`). */
  private paramCount(params: Node | null): number | null {
    if (!params) return 0;
    let n = 0;
    for (const c of params.children) {
      // `= null` is a default too: `null` is no named node, but its `=` is there.
      if (c?.type === "=") return null;
      if (!c?.isNamed || COMMENTS.has(c.type)) continue;
      if (c.type === "parameter") n++;
      // Annotations and `crossinline`/`noinline` before a parameter leave its count alone.
      else if (c.type === "parameter_modifiers" && !c.namedChildren.some((m) => m?.text === "vararg")) continue;
      else return null; // a default value, or `vararg`
    }
    return n;
  }

  /** Arguments of a call suffix: the parenthesised ones and a trailing lambda. */
  private argCount(suffix: Node): number {
    let n = 0;
    for (const c of suffix.namedChildren) {
      if (c?.type === "value_arguments") n += this.countArguments(c);
      else if (c?.type === "annotated_lambda") n++;
    }
    // `foo<T>(x) { }` parses as a call of that call with the lambda.
    const outer = suffix.parent?.parent;
    if (outer?.type === "call_expression" && outer.namedChild(0)?.id === suffix.parent?.id) {
      const outerSuffix = outer.namedChild(1);
      if (outerSuffix?.type === "call_suffix" && outerSuffix.namedChildCount === 1) {
        if (outerSuffix.namedChild(0)?.type === "annotated_lambda") n++;
      }
    }
    return n;
  }

  private countArguments(args: Node): number {
    let n = 0;
    for (const a of args.namedChildren) if (a?.type === "value_argument") n++;
    return n;
  }

  /**
   * The dotted name of a type with generics stripped: `Foo`, `a.b.Foo`, `List<T>` → `List`, `Foo?`
   * → `Foo`. Null for function types.
   */
  private typeName(type: Node): string | null {
    switch (type.type) {
      case "type_identifier":
        return this.b.text(type);
      case "user_type": {
        const parts: string[] = [];
        for (const c of type.namedChildren) if (c?.type === "type_identifier") parts.push(this.b.text(c));
        return parts.length ? parts.join(".") : null;
      }
      case "nullable_type":
      case "parenthesized_type": {
        const inner = type.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      default:
        return null;
    }
  }

  /**
   * `for (x in items)`: in the body, x is an element of items (a typed `for (x: T in ..)` is typed
   * by its pattern). Destructuring (`for ((k, v) in map)`) is not.
   */
  private loop(node: Node): void {
    const declaration = childOfType(node, "variable_declaration");
    const name = declaration?.namedChild(0);
    if (!declaration || declaration.namedChildCount !== 1 || name?.type !== "simple_identifier") return;
    const of = declaration.nextNamedSibling;
    const body = childOfType(node, "control_structure_body");
    const chain = of ? this.chain(of, 0) : null;
    if (chain && body) this.b.bindElement(this.b.text(name), body.startIndex, body.endIndex, chain);
  }

  /**
   * `fun each(fn: (User) -> Unit)`: what a lambda given as argument i gets as its parameter j, recorded
   * as `()#i:j` in the function's scope (a position of the call, as TUPLE's are), for
   * `each { it.save() }` (see `signatureLambdas`).
   */
  private lambdaParameters(param: Node, type: Node): void {
    let fnType: Node | null = type;
    while (fnType && (fnType.type === "nullable_type" || fnType.type === "parenthesized_type"))
      fnType = fnType.namedChild(0);
    if (fnType?.type !== "function_type" || param.parent?.type !== "function_value_parameters") return;
    const declaring = param.parent.parent;
    const paramName = param.namedChild(0);
    if (declaring && paramName?.type === "simple_identifier")
      this.callableParameters.push({
        start: declaring.startIndex,
        end: declaring.endIndex,
        name: this.b.text(paramName),
      });
    let i = 0;
    for (const c of param.parent.namedChildren) {
      if (c?.id === param.id) break;
      if (c?.type === "parameter") i++;
    }
    // `block: ModuleDefinitionBuilder.() -> Unit`: the lambda's receiver, written before the parameters.
    const receiver = fnType.namedChild(0);
    const receiverType = receiver && receiver.type !== "function_type_parameters" ? this.typeName(receiver) : null;
    if (receiverType) this.b.localType(param, `()${callbackPosition(i, "this")}`, receiverType);
    let j = 0;
    for (const t of childOfType(fnType, "function_type_parameters")?.namedChildren ?? []) {
      if (!t || COMMENTS.has(t.type)) continue;
      const typeNode = t.type === "parameter" ? t.namedChild(1) : t;
      const typeName = typeNode ? this.typeName(typeNode) : null;
      if (typeName) this.b.localType(param, `()${callbackPosition(i, j)}`, typeName);
      j++;
    }
  }

  /**
   * `each { it.save() }`, `pool.borrow("a") { lent, n -> .. }`, `each({ u -> .. })`: a lambda given as
   * an argument gets what the callee's signature says (see `lambdaParameters`); `it`, when it declares
   * no parameters, is the first.
   */
  private signatureLambdas(callee: string, suffix: Node): void {
    let i = 0;
    for (const c of suffix.namedChildren) {
      if (c?.type === "value_arguments") {
        for (const a of c.namedChildren) {
          if (a?.type !== "value_argument") continue;
          const value = a.namedChild(a.namedChildCount - 1);
          if (value?.type === "lambda_literal") this.bindLambda(value, callee, i);
          i++;
        }
      } else if (c?.type === "annotated_lambda") {
        const lambda = childOfType(c, "lambda_literal");
        if (lambda) this.bindLambda(lambda, callee, i);
        i++;
      }
    }
    // `borrow("a") { .. }` parses as a call of that call with the lambda.
    const call = suffix.parent;
    const outer = call?.parent;
    if (outer?.type === "call_expression" && outer.namedChild(0)?.id === call?.id) {
      const lambda = childOfType(
        childOfType(outer.namedChild(1) ?? outer, "annotated_lambda") ?? outer,
        "lambda_literal",
      );
      if (lambda) this.bindLambda(lambda, callee, i);
    }
  }

  /**
   * The lambda given as argument i: its parameters (or `it`) stand for positions `i:0`, `i:1`, ... of the
   * call, and its bare calls may be on its receiver, `i:this`, where the callee gives it one.
   */
  private bindLambda(lambda: Node, callee: string, i: number): void {
    const at = (j: number | "this") => `${callee}()${callbackPosition(i, j)}`;
    this.b.implicitReceiver(lambda.startIndex, lambda.endIndex, at("this"));
    // Each parameter holds a position, a destructured one (`(k, v)`) too.
    const declared = childOfType(lambda, "lambda_parameters")?.namedChildren.filter(
      (c) => c?.type === "variable_declaration" || c?.type === "multi_variable_declaration",
    );
    if (!declared?.length) return this.b.bindValue("it", lambda.startIndex, lambda.endIndex, at(0));
    declared.forEach((d, j) => {
      const name = d?.type === "variable_declaration" ? d.namedChild(0) : null;
      if (name?.type === "simple_identifier")
        this.b.bindValue(this.b.text(name), lambda.startIndex, lambda.endIndex, at(j));
    });
  }

  /** `items.forEach { it.price() }`, `items.map { x -> x.price() }`: in the lambda, `it` or x is an element of items. */
  private elementLambda(method: string, receiver: string, args: Node): void {
    if (receiver === "?" || !ELEMENT_LAMBDAS.has(method)) return;
    const lambda = childOfType(childOfType(args, "annotated_lambda") ?? args, "lambda_literal");
    if (!lambda) return;
    const params = childOfType(lambda, "lambda_parameters");
    const declared = params?.namedChildren.filter((c) => c?.type === "variable_declaration") ?? [];
    const first = declared[0]?.namedChild(0);
    if (declared.length > 1) return;
    const name = declared.length ? (first?.type === "simple_identifier" ? this.b.text(first) : null) : "it";
    if (name) this.b.bindElement(name, lambda.startIndex, lambda.endIndex, receiver);
  }

  /**
   * Receiver text: `x`, `this`, `super`, `a.b`, `A.B.C`, calls in a chain as `a.b()` (arguments
   * dropped), `a!!` and `a?.b` as `a` and `a.b`; anything else computed is `?`.
   */
  private receiver(node: Node): string {
    return this.chain(node, 0) ?? "?";
  }

  private chain(node: Node, depth: number): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case "simple_identifier":
        return this.b.text(node);
      case "this_expression":
        return this.thisLabel(node);
      case "super_expression":
        return "super";
      case "navigation_expression": {
        const left = node.namedChild(0);
        const suffix = node.namedChild(1);
        const right = suffix?.type === "navigation_suffix" ? suffix.namedChild(0) : null;
        if (!left || right?.type !== "simple_identifier") return null;
        const l = this.chain(left, depth + 1);
        return l ? `${l}.${this.b.text(right)}` : null;
      }
      case "call_expression": {
        const fn = node.namedChild(0);
        if (!fn) return null;
        // `foo<T>(x) { }`: the lambda is a second call suffix of the same call.
        if (fn.type === "call_expression") return this.chain(fn, depth + 1);
        const callee = this.chain(fn, depth + 1);
        return callee && !callee.endsWith(")") ? `${callee}()` : null;
      }
      case "as_expression": {
        // `(x as Repo).save()`, `(x as? Repo)?.save()`: a value of the type cast to, written as a made
        // one (`new a.Repo()` too: the resolver reads a `new` head whole).
        const type = node.namedChild(node.namedChildCount - 1);
        const name = type && TYPE_NODES.has(type.type) ? this.typeName(type) : null;
        return name ? valueOfType(name) : null;
      }
      case "indexing_expression": {
        // `items[0]`: an element of items.
        const inner = node.namedChild(0);
        const of = inner ? this.chain(inner, depth + 1) : null;
        return of ? `${of}${ELEMENT}` : null;
      }
      case "postfix_expression": {
        const inner = node.namedChild(0);
        return inner && this.b.source.endsWith("!!", node.endIndex) ? this.chain(inner, depth + 1) : null;
      }
      case "parenthesized_expression": {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** `this`, or `this@Outer` when Outer is the innermost enclosing type (any other label is unknown). */
  private thisLabel(node: Node): string | null {
    const label = childOfType(node, "type_identifier");
    if (!label) return "this";
    for (let p = node.parent; p; p = p.parent) {
      if (p.type === "class_declaration" || p.type === "object_declaration") {
        const name = p.namedChildren.find((c) => c?.type === "type_identifier" || c?.type === "simple_identifier");
        return name && this.b.text(name) === this.b.text(label) ? "this" : null;
      }
      if (p.type === "object_literal" || p.type === "companion_object") return null;
    }
    return null;
  }

  /**
   * `import a.b.C` brings one name (a type, a top-level function, or a member of an object), `import
   * a.b.C as D` under another name, `import a.b.*` every name of a package (or of an object or enum).
   */
  private importHeader(decl: Node): void {
    const path = childOfType(decl, "identifier");
    if (!path) return;
    const dotted = this.b.text(path).replace(/\s+/g, "");
    const line = decl.startPosition.row + 1;
    const wildcard = childOfType(decl, "wildcard_import");
    const aliasNode = childOfType(decl, "import_alias");
    // The header without the comments the grammar hangs on its end.
    const span = spanOf(decl, aliasNode ?? wildcard ?? path);
    if (wildcard) {
      this.b.import({ local: "*", imported: "*", specifier: dotted, line, reexport: false });
      this.b.symbol("import", span, null, { name: dotted });
      return;
    }
    const aliasName = aliasNode ? aliasNode.namedChild(0) : null;
    const { receiver, name } = splitLast(dotted);
    const local = aliasName ? this.b.text(aliasName) : name;
    this.b.import({ local, imported: name, specifier: receiver ?? "", line, reexport: false });
    this.b.symbol("import", span, null, { name: local });
  }
}

/** What a bare constant read may name in Kotlin: a `const val` or a property (a companion's). */
const CONSTANT_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "property"]);

export const kotlinExtractor: LanguageExtractor = {
  id: "kotlin",
  grammar: "tree-sitter-kotlin.wasm",
  prepare(_language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new KotlinFile(b);
      for (const m of query.matches(root)) file.handle(m);
      file.flushObjectFunctions();
      file.flushTypes();
      file.flushTypeUses();
      constantReads(b, root, { nameType: "simple_identifier", declaredKinds: CONSTANT_KINDS, separator: "." });
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
  /**
   * Constructs newer than the grammar, blanked to what it knows (same length): `fun interface` (a
   * SAM interface) as `interface`, and the open range `0..<n` as `0.. n`.
   */
  parseText(source: string): string {
    if (!source.includes("fun interface") && !source.includes("..<")) return source;
    return source.replace(/\bfun(\s+interface\b)/g, "   $1").replace(/\.\.</g, ".. ");
  },
};
