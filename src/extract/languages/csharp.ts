import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import type { ExtractResult, ExtractedSymbol } from "../../core/extraction.js";
import {
  ELEMENT,
  EXTENSION_RECEIVER,
  NAMED_VALUE,
  GENERIC_RECEIVER,
  callbackPosition,
  valueOfType,
} from "../../core/extraction.js";
import { CSHARP_KEYWORD_TYPES } from "../../core/csharp-keyword-types.js";
import type { NodeKind } from "../../core/kinds.js";
import { fieldIds } from "../fields.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast } from "../ts-helpers.js";
import { captureFor, spanOf } from "../nodes.js";
import { isSlashOrBlockDoc } from "../source-text.js";
import { cSharpParseText, primaryParameters } from "./csharp-primary.js";
import { CSharpTypeUses } from "./csharp-type-uses.js";
import { csharpDelegateParameters } from "./functional-types.js";
import { constantReads, namedReads } from "./constant-reads.js";
import { isConstantName } from "../capitalised-reads.js";

/**
 * One flat query for the whole file; each pattern's index says what a match is (see `P`).
 *
 * Namespaces are not symbols: like Java's packages, a file's namespace is its `packageName`
 * (`namespace A.B { }` and the file-scoped `namespace A.B;` alike; nested blocks join their names),
 * and types are qualified inside the file (`Shape.Area`). Context patterns that end on a member
 * (interface members are public, field declarations hold their variables) are matched before the
 * member's own pattern, as tree-sitter finishes an enclosing pattern first.
 *
 * `base` is written as `super` in references, so the resolver treats `base.M()` and `: base(x)` as it
 * treats Java's `super`. An extension method (`static T M(this Foo x)`) records the type it extends as
 * the local type `EXTENSION_RECEIVER` of the method, for the resolver to match `foo.M()` against.
 *
 * Written types are `references` (see `CSharpTypeUses`): those of declarations are read from the
 * matches that already hold them, those of expressions and patterns from bare nodes (`@typeuse`),
 * whose fields are read in `handle` as the calls' are.
 */
const QUERY = `
(comment) @comment
(using_directive) @using
(namespace_declaration name: (_) @name) @ns
(file_scoped_namespace_declaration name: (_) @name) @ns
(class_declaration name: (identifier) @name) @def
(struct_declaration name: (identifier) @name) @def
(interface_declaration name: (identifier) @name) @def
(enum_declaration name: (identifier) @name) @def
(record_declaration name: (identifier) @name) @def
(record_struct_declaration name: (identifier) @name) @def
(delegate_declaration name: (identifier) @name) @def
(enum_member_declaration name: (identifier) @name) @def
(method_declaration name: (identifier) @name) @def
(constructor_declaration name: (identifier) @name) @def
(local_function_statement) @def
(destructor_declaration name: (identifier) @name) @def
(operator_declaration parameters: (_) @params) @def
(conversion_operator_declaration parameters: (_) @params) @def
(indexer_declaration) @def
(property_declaration name: (identifier) @name) @def
(event_declaration name: (identifier) @name) @def
(field_declaration (variable_declaration) @vars) @def
(event_field_declaration (variable_declaration) @vars) @def
(invocation_expression) @call
(object_creation_expression) @new
(constructor_initializer) @init
(variable_declaration type: (_) @type (variable_declarator . (identifier) @name)) @vars
(parameter type: (_) @type name: (identifier) @name) @param
(for_each_statement type: (_) @type left: (identifier) @name)
(catch_declaration type: (_) @type) @catch
(declaration_pattern type: (_) @type name: (identifier) @name)
(declaration_expression type: (_) @type name: (identifier) @name)
(type_parameter name: (identifier) @typeparam)
(interface_declaration body: (declaration_list (_) @member))
[(cast_expression) (as_expression) (is_expression) (type_of_expression) (default_expression) (size_of_expression) (array_creation_expression) (stack_alloc_array_creation_expression) (constant_pattern) (type_pattern) (recursive_pattern) (type_constraint)] @typeuse
[(assignment_expression right: [(identifier) (member_access_expression)] @value) (equals_value_clause [(identifier) (member_access_expression)] @value)]
`;

/** Collections whose one type argument is their elements' type. */
const COLLECTIONS = new Set([
  "List",
  "IList",
  "IEnumerable",
  "ICollection",
  "IReadOnlyList",
  "IReadOnlyCollection",
  "HashSet",
  "ISet",
  "SortedSet",
  "Queue",
  "Stack",
  "LinkedList",
  "Collection",
  "ReadOnlyCollection",
  "ObservableCollection",
  "IQueryable",
  "ImmutableArray",
  "ImmutableList",
  "IAsyncEnumerable",
  "ConcurrentBag",
]);
/** Dictionaries, whose values stand for their elements. */
const DICTIONARIES = new Set([
  "Dictionary",
  "IDictionary",
  "IReadOnlyDictionary",
  "SortedDictionary",
  "ConcurrentDictionary",
  "ImmutableDictionary",
]);

/** LINQ and `List` methods whose lambda gets an element. */
const ELEMENT_LAMBDAS = new Set([
  "ForEach",
  "Select",
  "SelectMany",
  "Where",
  "Any",
  "All",
  "First",
  "FirstOrDefault",
  "Last",
  "LastOrDefault",
  "Single",
  "SingleOrDefault",
  "Count",
  "Sum",
  "Min",
  "Max",
  "OrderBy",
  "OrderByDescending",
  "ThenBy",
  "GroupBy",
  "ToDictionary",
  "Find",
  "FindAll",
  "Exists",
  "TrueForAll",
  "RemoveAll",
]);

/** Pattern indices of `QUERY`, in order. */
const P = {
  Comment: 0,
  Using: 1,
  Namespace: 2,
  FileNamespace: 3,
  Class: 4,
  Struct: 5,
  Interface: 6,
  Enum: 7,
  Record: 8,
  RecordStruct: 9,
  Delegate: 10,
  EnumMember: 11,
  Method: 12,
  Constructor: 13,
  LocalFunction: 14,
  Destructor: 15,
  Operator: 16,
  Conversion: 17,
  Indexer: 18,
  Property: 19,
  Event: 20,
  Field: 21,
  EventField: 22,
  Call: 23,
  New: 24,
  ConstructorInitializer: 25,
  Variable: 26,
  Parameter: 27,
  ForEach: 28,
  Catch: 29,
  DeclarationPattern: 30,
  DeclarationExpression: 31,
  TypeParameter: 32,
  InterfaceMember: 33,
  TypeUse: 34,
  Value: 35,
} as const;

const TYPE_KIND: Partial<Record<number, NodeKind>> = {
  [P.Class]: "class",
  [P.Record]: "class",
  [P.Struct]: "struct",
  [P.RecordStruct]: "struct",
  [P.Interface]: "interface",
  [P.Enum]: "enum",
  [P.Delegate]: "type_alias",
};

/** Literals, by node type, and the System type of their value (numbers' suffixes aside, see `literalType`). */
const LITERALS: ReadonlyMap<string, string> = new Map([
  ["string_literal", "String"],
  ["verbatim_string_literal", "String"],
  ["raw_string_literal", "String"],
  ["interpolated_string_expression", "String"],
  ["character_literal", "Char"],
  ["boolean_literal", "Boolean"],
  ["integer_literal", "Int32"],
  ["real_literal", "Double"],
]);

/** Number suffixes and the type they make (`3L`, `3UL`, `1.5f`, `2m`): integers first, then reals. */
const INTEGER_SUFFIXES: [RegExp, string][] = [
  [/(ul|lu)$/i, "UInt64"],
  [/l$/i, "Int64"],
  [/u$/i, "UInt32"],
];
const REAL_SUFFIXES: [RegExp, string][] = [
  [/f$/i, "Single"],
  [/m$/i, "Decimal"],
];

/** Names invoked like methods that are operators or keywords of the language (also where broken code parses so). */
const NOT_CALLS = new Set(
  (
    "nameof typeof sizeof default checked unchecked stackalloc void bool byte sbyte char decimal double float " +
    "int uint long ulong short ushort object string var dynamic if while for foreach switch return new this base"
  ).split(" "),
);

type Visibility = ExtractedSymbol["visibility"];

const FIELD_NAMES = [
  "name",
  "body",
  "type",
  "parameters",
  "bases",
  "expression",
  "function",
  "arguments",
  "condition",
  "value",
  "right",
] as const;
type Fields = Record<(typeof FIELD_NAMES)[number], number>;

const capture = captureFor("c#");

interface Modifiers {
  visibility: Visibility;
  isStatic: boolean;
  isConst: boolean;
  /** First child that is not an attribute or a comment: where the signature starts. */
  start: Node;
}

class CSharpFile {
  /** The first namespace declared: the file's package. */
  private namespaceName: string | null = null;
  private readonly typeParams = new Set<string>();
  private readonly pendingTypes: { at: Node; name: string; typeName: string }[] = [];
  /** Node ids of interface members: public unless marked otherwise. */
  private readonly interfaceMembers = new Set<number>();
  /** Node ids of the variable declarations of fields and events: members, not locals. */
  private readonly memberVariables = new Set<number>();
  /** Node ids of a record's positional parameters: properties, not locals. */
  private readonly recordParams = new Set<number>();
  private readonly types: CSharpTypeUses;

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly f: Fields,
  ) {
    this.types = new CSharpTypeUses(b, f.type, (n) => this.dotted(n));
  }

  /** The file's namespace; "" for the global one. */
  get packageName(): string {
    return this.namespaceName ?? "";
  }

  handle(m: QueryMatch): void {
    const p = m.patternIndex;
    switch (p) {
      case P.Comment: {
        const node = m.captures[0]!.node;
        if (isSlashOrBlockDoc(this.b.source, node.startIndex)) this.b.comment(node);
        return;
      }
      case P.Using:
        return this.using(m.captures[0]!.node);
      case P.Namespace:
      case P.FileNamespace:
        return this.namespace(capture(m, "ns"), capture(m, "name"));
      case P.Class:
      case P.Struct:
      case P.Interface:
      case P.Enum:
      case P.Record:
      case P.RecordStruct:
      case P.Delegate:
        return this.typeDeclaration(p, capture(m, "def"), capture(m, "name"));
      case P.EnumMember: {
        const def = capture(m, "def");
        this.b.symbol("enum_member", def, capture(m, "name"), {
          visibility: "public",
          exported: true,
          isStatic: true,
          signatureEnd: def.endIndex,
        });
        return;
      }
      case P.Method:
      case P.Constructor:
      case P.Destructor:
        return this.callable(p, capture(m, "def"), capture(m, "name"));
      case P.LocalFunction: {
        // Its name read here: `name: (identifier)` in the pattern was a tenth of the query's compile time.
        const def = m.captures[0]!.node;
        const name = def.childForFieldId(this.f.name);
        return name?.type === "identifier" ? this.callable(p, def, name) : undefined;
      }
      case P.Operator:
      case P.Conversion:
        return this.operator(capture(m, "def"), capture(m, "params"));
      case P.Indexer:
        return this.indexer(m.captures[0]!.node);
      case P.Property:
      case P.Event:
        return this.property(capture(m, "def"), capture(m, "name"));
      case P.Field:
      case P.EventField:
        return this.field(capture(m, "def"), capture(m, "vars"));
      case P.Call: {
        // Fields read here: in the pattern, `function: (_)` was a third of this query's compile time.
        const call = m.captures[0]!.node;
        const fn = call.childForFieldId(this.f.function);
        const args = call.childForFieldId(this.f.arguments);
        if (fn && args?.type === "argument_list") this.call(fn, args);
        return;
      }
      case P.New: {
        // Its type read here: `type: (_)` in the pattern was a fifth of the query's compile time.
        const made = m.captures[0]!.node;
        const type = made.childForFieldId(this.f.type);
        return type ? this.instantiation(made, type) : undefined;
      }
      case P.ConstructorInitializer: {
        const init = m.captures[0]!.node;
        // `: base(x)` calls the base type's constructor, `: this(x)` another of this type's.
        const receiver = /^:\s*base\b/.test(this.b.text(init)) ? "super" : "this";
        const args = init.namedChildren.find((c) => c?.type === "argument_list") ?? null;
        return this.b.ref("calls", init, "constructor", receiver, args ? this.readArguments(args) : 0);
      }
      case P.Variable: {
        const name = capture(m, "name");
        const type = capture(m, "type");
        if (!this.memberVariables.has(capture(m, "vars").id)) this.localType(name, type);
        // `Foo x = new(1)`, a field's or a local's: the declared type is what is made.
        const made = targetTypedNew(name.parent);
        if (made) this.instantiation(made, type);
        else this.types.use(type);
        return;
      }
      case P.Parameter:
        this.types.use(capture(m, "type"));
        if (this.recordParams.has(capture(m, "param").id)) return;
        this.lambdaParameters(capture(m, "param"), capture(m, "type"));
        return this.localType(capture(m, "name"), capture(m, "type"));
      case P.Catch: {
        // `catch (IOException)` names no variable.
        const type = capture(m, "type");
        this.types.use(type);
        const name = capture(m, "catch").childForFieldId(this.f.name);
        return name?.type === "identifier" ? this.localType(name, type) : undefined;
      }
      case P.ForEach:
      case P.DeclarationPattern:
      case P.DeclarationExpression:
        this.types.use(capture(m, "type"));
        return this.localType(capture(m, "name"), capture(m, "type"));
      case P.TypeParameter:
        this.typeParams.add(this.b.text(m.captures[0]!.node));
        return;
      case P.InterfaceMember:
        this.interfaceMembers.add(m.captures[0]!.node.id);
        return;
      case P.TypeUse:
        return this.types.inExpression(m.captures[0]!.node, this.f.right);
      case P.Value:
        // `button.Click += OnClick`, `handler = Handle`, `Action a = Handle;`.
        return this.methodGroup(m.captures[0]!.node);
    }
  }

  /**
   * A method group (a method named as a value: `list.ForEach(Handle)`, `Click += OnClick`,
   * `Run(this.Work)`) is a use of the method (`NAMED_VALUE`). Bare, only a name in PascalCase, as
   * methods are named and locals are not; the resolver keeps only a method it reaches.
   */
  private methodGroup(value: Node): void {
    if (value.type === "identifier") {
      const name = this.b.text(value);
      const first = name.charCodeAt(0);
      if (first >= 0x41 && first <= 0x5a) this.b.ref("references", value, name, NAMED_VALUE);
      return;
    }
    if (value.type !== "member_access_expression") return;
    if (value.childForFieldId(this.f.expression)?.type !== "this_expression") return;
    const name = value.childForFieldId(this.f.name);
    if (name?.type === "identifier") this.b.ref("references", name, this.b.text(name), `${NAMED_VALUE}this`);
  }

  /**
   * Hand the collected variable types and written types' uses to the builder, minus those typed by a
   * type parameter.
   */
  flushTypes(): void {
    this.types.flush(this.typeParams);
    for (const t of this.pendingTypes) {
      if (t.name === EXTENSION_RECEIVER) {
        this.b.localType(t.at, t.name, this.typeParams.has(t.typeName) ? GENERIC_RECEIVER : t.typeName);
        continue;
      }
      const head = t.typeName.split(".")[0]!.replace(/\(\)$/, "");
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
    }
  }

  /**
   * The first namespace of a file is its package. One declared inside it (`namespace A { namespace
   * B { } }`) is a namespace symbol, so its types are `B.X` within package A; so is a second
   * namespace beside the first, which is rare enough to leave under the first's package.
   */
  private namespace(def: Node, nameNode: Node): void {
    const name = this.dotted(nameNode);
    if (!name) return;
    if (this.namespaceName === null) {
      this.namespaceName = name;
      return;
    }
    const body = def.childForFieldId(this.f.body);
    this.b.symbol("namespace", def, nameNode, { name, signatureEnd: body ? body.startIndex : nameNode.endIndex });
  }

  /** Modifiers of a declaration, read from its `modifier` children; attributes and comments are skipped. */
  private modifiersOf(def: Node): Modifiers {
    let visibility: Visibility = null;
    let isStatic = false;
    let isConst = false;
    let start: Node | null = null;
    let attributes: Node[] | null = null;
    const src = this.b.source;
    for (let i = 0; ; i++) {
      const c = def.child(i);
      if (!c) break;
      const t = c.type;
      if (t === "attribute_list") (attributes ??= []).push(c);
      if (t === "attribute_list" || t === "comment") continue;
      start ??= c;
      if (t !== "modifier") break;
      const word = src.slice(c.startIndex, c.endIndex);
      if (word === "public") visibility = "public";
      else if (word === "protected") visibility = visibility === "public" ? visibility : "protected";
      else if (word === "internal") visibility = visibility ?? "internal";
      else if (word === "private")
        visibility = visibility === null || visibility === "internal" ? "private" : visibility;
      else if (word === "static") isStatic = true;
      else if (word === "const") isConst = true;
    }
    if (attributes) this.types.attributes(attributes, (start ?? def).startIndex, this.f.name);
    return { visibility, isStatic, isConst, start: start ?? def };
  }

  private visibilityOf(def: Node, mods: Modifiers): Visibility {
    return mods.visibility ?? (this.interfaceMembers.has(def.id) ? "public" : null);
  }

  private typeDeclaration(p: number, def: Node, name: Node): void {
    const mods = this.modifiersOf(def);
    const visibility = this.visibilityOf(def, mods);
    const body = def.childForFieldId(this.f.body);
    this.b.symbol(TYPE_KIND[p]!, spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: body ? body.startIndex : this.withoutSemicolon(def.endIndex),
      paramCount: p === P.Delegate ? this.paramCount(def.childForFieldId(this.f.parameters)) : null,
    });
    if (p === P.Record || p === P.RecordStruct) this.recordParameters(def);
    // A primary constructor's parameters are in scope in every member, as fields are.
    else if (p === P.Class || p === P.Struct)
      for (const param of primaryParameters(this.b.source, name.endIndex)) {
        if (param.valueType) this.addType(name, `this.${param.name}`, param.valueType);
        if (param.typeName) this.types.named(name, param.typeName);
      }
    if (p === P.Delegate) {
      const type = def.childForFieldId(this.f.type);
      this.types.use(type);
      const typeName = type ? this.valueTypeName(type) : null;
      if (typeName) this.addType(name, "()", typeName);
    }
    // Read here: a pattern per kind of declaration reaching into its `bases` cost 3-4 ms of compile
    // time each.
    const bases = def.childForFieldId(this.f.bases);
    if (bases?.type === "base_list" && p !== P.Enum && p !== P.Delegate)
      for (const base of bases.namedChildren) if (base) this.heritage(p, base, this.b.text(name));
  }

  /** `record Point(int X, int Y)`: each positional parameter is a public property. */
  private recordParameters(def: Node): void {
    const params = def.childForFieldId(this.f.parameters);
    if (!params) return;
    for (const p of params.namedChildren) {
      if (p?.type !== "parameter") continue;
      this.recordParams.add(p.id);
      const name = p.childForFieldId(this.f.name);
      if (!name) continue;
      this.b.symbol("property", p, name, { visibility: "public", exported: true, docNode: p });
      this.addWrittenType(p, `this.${this.b.text(name)}`, p.childForFieldId(this.f.type));
    }
  }

  /** Methods, constructors and local functions. */
  private callable(p: number, def: Node, name: Node): void {
    const mods = this.modifiersOf(def);
    const visibility = p === P.LocalFunction ? null : this.visibilityOf(def, mods);
    const body = def.childForFieldId(this.f.body);
    const end = body ? body.startIndex : this.withoutSemicolon(def.endIndex);
    const params = def.childForFieldId(this.f.parameters);
    const kind: NodeKind = p === P.Constructor ? "constructor" : p === P.LocalFunction ? "function" : "method";
    const paramCount = this.paramCount(params);
    if (paramCount === null && params) this.paramsArray(params);
    this.b.symbol(kind, spanOf(mods.start, def), name, {
      // A finalizer is named as written: `~Shape`.
      name: p === P.Destructor ? `~${this.b.text(name)}` : this.b.text(name),
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: end,
      paramCount,
    });
    if (p !== P.Constructor && p !== P.Destructor) {
      const type = def.childForFieldId(this.f.type);
      this.types.use(type);
      this.addWrittenType(name, "()", type);
    }
    if (p === P.Method && mods.isStatic && params) this.extension(name, params);
  }

  /**
   * `operator +`, `implicit operator int`: methods named by their operator, so the calls in their
   * bodies have a home. Nothing calls them by name, so they get no call edges.
   */
  private operator(def: Node, params: Node): void {
    const mods = this.modifiersOf(def);
    const head = this.b.source.slice(def.startIndex, params.startIndex);
    const m = /\boperator\s*([^\s(]+(?:\s*<[^(]*>)?)\s*$/.exec(head);
    if (!m) return;
    this.types.use(def.childForFieldId(this.f.type));
    const body = def.childForFieldId(this.f.body);
    this.b.symbol("method", spanOf(mods.start, def), null, {
      name: `operator ${m[1]!.replace(/\s+/g, "")}`,
      docNode: def,
      visibility: mods.visibility,
      exported: mods.visibility === "public",
      isStatic: true,
      signatureEnd: body ? body.startIndex : this.withoutSemicolon(def.endIndex),
      paramCount: this.paramCount(params),
    });
  }

  /** `this[int i]`: a property named `this[]`. */
  private indexer(def: Node): void {
    const mods = this.modifiersOf(def);
    const visibility = this.visibilityOf(def, mods);
    const params = def.childForFieldId(this.f.parameters);
    this.types.use(def.childForFieldId(this.f.type));
    this.b.symbol("property", spanOf(mods.start, def), null, {
      name: "this[]",
      docNode: def,
      visibility,
      exported: visibility === "public",
      signatureEnd: params ? params.endIndex : def.endIndex,
      paramCount: this.paramCount(params),
    });
  }

  private withoutSemicolon(end: number): number {
    return this.b.source.endsWith(";", end) ? end - 1 : end;
  }

  /** `static R M(this Foo x, ...)`: an extension method of Foo. */
  private extension(name: Node, params: Node): void {
    const first = params.namedChild(0);
    if (first?.type !== "parameter") return;
    const mod = first.namedChild(0);
    if (mod?.type !== "parameter_modifier" || this.b.text(mod) !== "this") return;
    const type = first.childForFieldId(this.f.type);
    const typeName = type ? this.valueTypeName(type) : null;
    this.addType(name, EXTENSION_RECEIVER, typeName ?? GENERIC_RECEIVER);
  }

  /** Properties and events with accessors. */
  private property(def: Node, name: Node): void {
    const mods = this.modifiersOf(def);
    const visibility = this.visibilityOf(def, mods);
    const nameText = this.b.text(name);
    this.b.symbol("property", spanOf(mods.start, def), name, {
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: name.endIndex,
    });
    const type = def.childForFieldId(this.f.type);
    this.types.use(type);
    this.addWrittenType(name, `this.${nameText}`, type);
  }

  /** One property per declarator: `int a = 1, b;` gives `a` and `b`. Constants are static. */
  private field(def: Node, vars: Node): void {
    this.memberVariables.add(vars.id);
    const mods = this.modifiersOf(def);
    const visibility = this.visibilityOf(def, mods);
    const type = vars.childForFieldId(this.f.type);
    const declarators = vars.namedChildren.filter((d): d is Node => d?.type === "variable_declarator");
    declarators.forEach((d, i) => {
      const name = d.namedChild(0);
      if (name?.type !== "identifier") return;
      const nameText = this.b.text(name);
      const node = i === 0 ? spanOf(mods.start, declarators.length === 1 ? def : d) : d;
      this.b.symbol("property", node, name, {
        docNode: def,
        visibility,
        exported: visibility === "public",
        isStatic: mods.isStatic || mods.isConst,
        signatureEnd: d.endIndex,
      });
      this.addWrittenType(d, `this.${nameText}`, type);
    });
  }

  /** `new Foo()`, `new A.B.Foo<T>(x)`, `new Foo { X = 1 }`. */
  private instantiation(expr: Node, type: Node): void {
    this.types.argumentsOf(type);
    const dotted = this.typeName(type);
    if (!dotted) return;
    const args =
      expr.childForFieldId(this.f.arguments) ?? expr.namedChildren.find((c) => c?.type === "argument_list") ?? null;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("instantiates", type, name, receiver, args ? this.readArguments(args) : 0);
  }

  /**
   * A base in the base list of a declaration (`p`, its pattern). A class's first base is its base
   * class unless named like an interface (`IDisposable`), the rest are interfaces; structs implement,
   * interfaces extend. The resolver turns an `extends` from a class to an interface into `implements`.
   */
  private heritage(p: number, node: Node, declared: string): void {
    let target = node;
    // `record B(int X) : A(X)`: the base with the arguments of its constructor.
    if (node.type === "primary_constructor_base_type") target = node.namedChild(0) ?? node;
    // `: Repo<Order>` uses Order; `: IEquatable<Size>` in Size is the type itself.
    this.types.argumentsOf(target, declared);
    const dotted = this.typeName(target);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    let kind: "extends" | "implements";
    if (p === P.Interface) kind = "extends";
    else if (p === P.Struct || p === P.RecordStruct) kind = "implements";
    else {
      const first = node.parent?.namedChild(0);
      kind = first?.id === node.id && !/^I[A-Z]/.test(name) ? "extends" : "implements";
    }
    this.b.ref(kind, target, name, receiver);
  }

  private localType(name: Node, type: Node): void {
    const nameText = this.b.text(name);
    if (type.type !== "implicit_type") return this.addWrittenType(name, nameText, type);
    const declarator = name.parent;
    if (declarator?.type === "for_each_statement") {
      // `foreach (var o in orders)`: in the body, o is an element of orders.
      const of = declarator.childForFieldName("right");
      const body = declarator.childForFieldName("body");
      const chain = of ? this.chain(of, 0) : null;
      if (chain && body) this.b.bindElement(nameText, body.startIndex, body.endIndex, chain);
      return;
    }
    // `var x = new Foo()`, `var x = Make()`, `var x = xs[0]`: what the value is.
    const clause = declarator?.type === "variable_declarator" ? declarator.namedChild(1) : null;
    const value = clause?.type === "equals_value_clause" ? clause.namedChild(0) : null;
    const typeName = value ? this.valueType(value) : null;
    if (typeName) this.addType(name, nameText, typeName);
  }

  /** The type of an initialiser the resolver can follow: a cast, a construction, a call chain, a member. */
  private valueType(value: Node): string | null {
    // `var r = x as Repo`, `var r = (Repo)x`: the type cast to.
    if (value.type === "as_expression" || value.type === "cast_expression") {
      const t = value.childForFieldName(value.type === "as_expression" ? "right" : "type");
      return t ? this.valueTypeName(t) : null;
    }
    if (value.type === "object_creation_expression") {
      const t = value.childForFieldId(this.f.type);
      return t ? this.typeName(t) : null;
    }
    // `var repo = this.repo`, `var orders = shop.Orders`: of the member's type.
    if (
      value.type === "invocation_expression" ||
      value.type === "element_access_expression" ||
      value.type === "member_access_expression"
    ) {
      const r = this.receiver(value);
      return r === "?" ? null : r;
    }
    // `var s = "abc"`: of the literal's type.
    return this.literalType(value);
  }

  private addType(at: Node, name: string, typeName: string): void {
    this.pendingTypes.push({ at, name, typeName });
  }

  /**
   * A name's written type, and its elements' as the type of `name[0]` (`List<Order>`, `Order[]`:
   * `orders[0]` is an Order, see ELEMENT). The name keeps the collection's type, which extension
   * methods of it are matched by.
   */
  private addWrittenType(at: Node, name: string, type: Node | null): void {
    if (!type) return;
    const typeName = this.valueTypeName(type);
    if (typeName) this.addType(at, name, typeName);
    const element = this.elementType(type);
    if (element) this.addType(at, `${name}${ELEMENT}`, element);
  }

  /** The elements' type of a written collection or array type: `List<Order>`, `Order[]` → `Order`. */
  private elementType(type: Node): string | null {
    const t = type.type === "nullable_type" ? type.namedChild(0) : type;
    if (t?.type === "array_type") {
      const inner = t.childForFieldName("type");
      return inner ? this.valueTypeName(inner) : null;
    }
    if (t?.type !== "generic_name") return null;
    const head = t.namedChild(0);
    const args = t.namedChild(1)?.namedChildren;
    const collection = head ? this.b.text(head) : "";
    if (args?.length === 1 && COLLECTIONS.has(collection)) return this.valueTypeName(args[0]!);
    // A dictionary's values stand for its elements: `byId[key]`, `byId.Values`.
    if (args?.length === 2 && DICTIONARIES.has(collection)) return this.valueTypeName(args[1]!);
    return null;
  }

  /**
   * `params Foo[] xs`, which parses beside the list's parameters, not as one: looked for only where
   * `paramCount` gave up, as a query pattern for it cost a quarter of the query's compile time.
   */
  private paramsArray(params: Node): void {
    for (const p of params.namedChildren) if (p?.type === "array_type") this.types.use(p);
  }

  /** Parameters in a list; null when the count a call passes may differ (`params`, defaults). */
  private paramCount(params: Node | null): number | null {
    if (!params) return null;
    let n = 0;
    for (const p of params.namedChildren) {
      if (!p || p.type === "comment") continue;
      if (p.type !== "parameter") return null; // `params T[] xs` parses outside a parameter node
      for (const c of p.namedChildren) if (c?.type === "equals_value_clause") return null;
      n++;
    }
    return n;
  }

  /** Counts the arguments written in a call, and records the method groups among them (see `methodGroup`). */
  private readArguments(args: Node): number {
    let n = 0;
    for (const a of args.namedChildren) {
      if (a?.type !== "argument") continue;
      n++;
      const value = a.lastNamedChild;
      if (value && (value.type === "identifier" || value.type === "member_access_expression")) this.methodGroup(value);
    }
    return n;
  }

  /**
   * The dotted name of a type with generics stripped: `Foo`, `A.B.Foo`, `List<T>` → `List`, `Foo?` →
   * `Foo`, `global::A.Foo` → `A.Foo`. Null for predefined types, arrays, tuples and pointers.
   */
  private typeName(type: Node): string | null {
    switch (type.type) {
      case "identifier":
        return this.b.text(type);
      case "generic_name": {
        const inner = type.namedChild(0);
        return inner ? this.b.text(inner) : null;
      }
      case "nullable_type": {
        const inner = type.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case "qualified_name":
      case "alias_qualified_name":
        return this.dotted(type);
      default:
        return null;
    }
  }

  /**
   * The type of a value declared with `type`, as extension methods are matched: `typeName`, or the
   * System type a keyword type is (`string` and `string?` → `String`, see CSHARP_KEYWORD_TYPES).
   * Only values' types: `new object()` and `enum E : byte` make no reference to `Object` or `Byte`.
   */
  private valueTypeName(type: Node): string | null {
    const t = type.type === "nullable_type" ? (type.namedChild(0) ?? type) : type;
    if (t.type === "predefined_type") return CSHARP_KEYWORD_TYPES.get(this.b.text(t)) ?? null;
    return this.typeName(type);
  }

  /** The System type of a literal's value (`"a"` → `String`, `3L` → `Int64`, `1.5f` → `Single`), else null. */
  private literalType(node: Node): string | null {
    const type = LITERALS.get(node.type);
    if (!type) return null;
    const suffixes =
      node.type === "integer_literal" ? INTEGER_SUFFIXES : node.type === "real_literal" ? REAL_SUFFIXES : null;
    if (!suffixes) return type;
    // Hexadecimal digits (`0xFFul`) hold no L or U, the suffixes an integer may have.
    const text = this.b.text(node);
    return suffixes.find(([suffix]) => suffix.test(text))?.[1] ?? type;
  }

  /**
   * A call, by the shape of what is called: `f(x)`, `f<T>(x)`, `recv.f(x)`, `recv?.f(x)`. One query
   * pattern per shape would cost about 50 ms each to compile (expressions fit in many parse states of
   * this grammar); this one pattern costs about 30 ms for all of them.
   */
  private call(fn: Node, args: Node): void {
    let callee: Node | null = null;
    let recv: Node | null = null;
    switch (fn.type) {
      case "identifier":
        callee = fn;
        break;
      case "generic_name":
        callee = fn;
        break;
      case "member_access_expression":
        recv = fn.childForFieldId(this.f.expression);
        callee = fn.childForFieldId(this.f.name);
        break;
      case "conditional_access_expression": {
        recv = fn.childForFieldId(this.f.condition);
        const binding = fn.namedChildren.find((c) => c?.type === "member_binding_expression");
        callee = binding?.childForFieldId(this.f.name) ?? null;
        break;
      }
    }
    // `Get<Order>()`, `x.As<Item>()`: the type arguments are used.
    if (callee?.type === "generic_name") {
      this.types.argumentsOf(callee);
      callee = callee.namedChild(0);
    }
    if (callee?.type !== "identifier") return;
    const name = this.b.text(callee);
    if (!recv) {
      if (NOT_CALLS.has(name)) return;
      this.b.ref("calls", callee, name, null, this.readArguments(args));
      return this.signatureLambdas(name, args);
    }
    const receiver = this.receiver(recv);
    if (NOT_CALLS.has(receiver.split(".")[0]!.replace(/\(\)$/, "")) && receiver !== "this" && receiver !== "super")
      return;
    this.b.ref("calls", callee, name, receiver, this.readArguments(args));
    if (receiver === "?") return;
    if (ELEMENT_LAMBDAS.has(name)) this.elementLambda(receiver, args);
    else this.signatureLambdas(`${receiver}.${name}`, args);
  }

  /**
   * `void Each(Action<Order> action)`: what a lambda given as argument i gets as its parameter j,
   * recorded as `()#i:j` in the method's scope (a position of the call, as TUPLE's are), for
   * `Each(o => o.Save())` (see `signatureLambdas`). The library's delegates only (`Action`, `Func`, ...).
   */
  private lambdaParameters(param: Node, type: Node): void {
    const list = param.parent;
    const typeArgs = type.type === "generic_name" ? type.namedChild(1) : null;
    if (list?.type !== "parameter_list" || typeArgs?.type !== "type_argument_list") return;
    const args = typeArgs.namedChildren;
    const positions = csharpDelegateParameters(this.b.text(type.namedChild(0)!), args.length);
    if (!positions) return;
    const i = list.namedChildren.filter((c) => c?.type === "parameter").findIndex((c) => c!.id === param.id);
    positions.forEach((k, j) => {
      const typeName = args[k] ? this.valueTypeName(args[k]) : null;
      if (typeName) this.addType(param, `()${callbackPosition(i, j)}`, typeName);
    });
  }

  /**
   * `Each(o => o.Save())`, `shop.Pair("a", (id, o) => ..)`: a lambda's parameters stand for what the
   * callee's signature says they get (see `lambdaParameters`), positions `i:0`, `i:1` of the call.
   * Named arguments are left out: their position is the parameter's, not theirs.
   */
  private signatureLambdas(callee: string, args: Node): void {
    if (!this.b.source.slice(args.startIndex, args.endIndex).includes("=>")) return;
    args.namedChildren.forEach((arg, i) => {
      const lambda = arg?.type === "argument" ? arg.lastNamedChild : null;
      if (lambda?.type !== "lambda_expression" || arg!.namedChildCount !== 1) return;
      this.lambdaParameterNames(lambda).forEach((name, j) => {
        if (name)
          this.b.bindValue(
            this.b.text(name),
            lambda.startIndex,
            lambda.endIndex,
            `${callee}()${callbackPosition(i, j)}`,
          );
      });
    });
  }

  /** `orders.Where(o => o.IsOpen())`, `orders.ForEach((o) => ...)`: in the lambda, o is an element of orders. */
  private elementLambda(receiver: string, args: Node): void {
    const lambda = args.namedChild(0)?.namedChild(0);
    if (lambda?.type !== "lambda_expression") return;
    const names = this.lambdaParameterNames(lambda);
    const name = names.length === 1 ? names[0] : null;
    if (name) this.b.bindElement(this.b.text(name), lambda.startIndex, lambda.endIndex, receiver);
  }

  /** A lambda's parameters' names in order (`o => ..`, `(a, b) => ..`, `(Order o) => ..`); null for one without. */
  private lambdaParameterNames(lambda: Node): (Node | null)[] {
    const list = lambda.childForFieldName("parameters");
    const params = list ? list.namedChildren.filter((c) => c?.type === "parameter") : [lambda.namedChild(0)];
    return params.map((param) => {
      const name = param?.type === "identifier" ? param : param?.childForFieldId(this.f.name);
      return name?.type === "identifier" ? name : null;
    });
  }

  /**
   * Receiver text: `x`, `this`, `super` (for `base`), `a.b`, `A.B.C`, and calls in a chain as
   * `a.b()` (arguments dropped); anything else computed is `?`.
   */
  private receiver(node: Node): string {
    return this.chain(node, 0) ?? "?";
  }

  private chain(node: Node, depth: number): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case "this_expression":
        return "this";
      case "base_expression":
        return "super";
      case "identifier":
        return this.b.text(node);
      case "generic_name": {
        const inner = node.namedChild(0);
        return inner ? this.b.text(inner) : null;
      }
      case "member_access_expression": {
        const left = node.childForFieldId(this.f.expression);
        const right = node.childForFieldId(this.f.name);
        if (!left || !right) return null;
        const l = this.chain(left, depth + 1);
        const r = this.chain(right, depth + 1);
        return l && r ? `${l}.${r}` : null;
      }
      case "conditional_access_expression": {
        // `a?.b`: the condition, then the member bound to it.
        const left = node.childForFieldId(this.f.condition);
        const binding = node.namedChild(node.namedChildCount - 1);
        const right = binding?.type === "member_binding_expression" ? binding.childForFieldId(this.f.name) : null;
        if (!left || !right) return null;
        const l = this.chain(left, depth + 1);
        const r = this.chain(right, depth + 1);
        return l && r ? `${l}.${r}` : null;
      }
      case "invocation_expression": {
        const fn = node.childForFieldId(this.f.function);
        const callee = fn ? this.chain(fn, depth + 1) : null;
        return callee ? `${callee}()` : null;
      }
      case "parenthesized_expression": {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      case "cast_expression":
      case "as_expression":
      case "object_creation_expression": {
        // `((Repo)x).Save()`, `(x as Repo).Save()`, `new Repo().Save()`: a value of that type, written as
        // a made one (`new Shop.Repo()` too: the resolver reads a `new` head whole).
        const type =
          node.type === "as_expression" ? node.namedChild(node.namedChildCount - 1) : node.childForFieldId(this.f.type);
        const name = type ? this.dotted(type) : null;
        return name ? valueOfType(name) : null;
      }
      case "element_access_expression": {
        // `orders[0]`: an element of orders.
        const of = node.childForFieldId(this.f.expression);
        const l = of ? this.chain(of, depth + 1) : null;
        return l ? `${l}${ELEMENT}` : null;
      }
      case "qualified_name":
      case "alias_qualified_name":
        return this.dotted(node);
      default: {
        // `"abc".Slug()`, `3.Twice()`: a made value of the literal's type.
        const type = this.literalType(node);
        return type ? valueOfType(type) : null;
      }
    }
  }

  /** `A.B.C` from a qualified name, generics stripped; `global::` dropped. */
  private dotted(node: Node, depth = 0): string | null {
    if (depth > 12) return null;
    switch (node.type) {
      case "identifier":
        return this.b.text(node);
      case "generic_name": {
        const inner = node.namedChild(0);
        return inner ? this.b.text(inner) : null;
      }
      case "qualified_name": {
        const left = node.namedChild(0);
        const right = node.namedChild(node.namedChildCount - 1);
        if (!left || !right || left.id === right.id) return null;
        const l = this.dotted(left, depth + 1);
        const r = this.dotted(right, depth + 1);
        return l && r ? `${l}.${r}` : null;
      }
      case "alias_qualified_name": {
        // `global::A`: the alias names the root; `alias::A` an extern alias we cannot follow.
        const right = node.namedChild(node.namedChildCount - 1);
        if (!right || !this.b.source.startsWith("global", node.startIndex)) return null;
        return this.dotted(right, depth + 1);
      }
      default:
        return null;
    }
  }

  /**
   * `using A.B;` brings a namespace's types (a wildcard import), `using X = A.B.C;` one name,
   * `using static A.B.C;` a type's static members (a wildcard on the type). `global using` is read
   * as a using of this file.
   */
  private using(decl: Node): void {
    const text = this.b.text(decl);
    const isStatic = /^(?:global\s+)?using\s+static\b/.test(text);
    let alias: string | null = null;
    let path: Node | null = null;
    for (const k of decl.namedChildren) {
      if (!k) continue;
      if (k.type === "name_equals") {
        const id = k.namedChild(0);
        alias = id ? this.b.text(id) : null;
      } else if (k.type === "identifier" || k.type === "qualified_name" || k.type === "alias_qualified_name") path = k;
    }
    if (!path) return;
    const dotted = this.dotted(path);
    if (!dotted) return;
    const line = decl.startPosition.row + 1;
    if (alias !== null) {
      const { receiver, name } = splitLast(dotted);
      // `using X = Foo;` names a type of the global namespace.
      this.b.import({ local: alias, imported: name, specifier: receiver ?? "", line, reexport: false });
      this.b.symbol("import", decl, null, { name: alias });
      return;
    }
    this.b.import({ local: "*", imported: "*", specifier: dotted, line, reexport: false });
    this.b.symbol("import", decl, null, { name: isStatic ? `static ${dotted}` : dotted });
  }
}

/** What `= new(..)` makes in a variable declarator, when that is its value. */
function targetTypedNew(declarator: Node | null): Node | null {
  for (const part of declarator?.namedChildren ?? []) {
    if (part?.type !== "equals_value_clause") continue;
    for (const value of part.namedChildren) if (value?.type === "implicit_object_creation_expression") return value;
  }
  return null;
}

/** What a bare name in capitals read in a C# file may be declared as there (`const int MAX_SIZE`). */
const CONSTANT_KINDS: ReadonlySet<NodeKind> = new Set(["property", "enum_member"]);

/**
 * Where a C# name stands for a value read (its parent node): an operand, an argument, a returned or
 * assigned value, a condition, a case, an index, an interpolation.
 */
const VALUE_PLACES: ReadonlySet<string> = new Set([
  "binary_expression",
  "argument",
  "return_statement",
  "equals_value_clause",
  "assignment_expression",
  "conditional_expression",
  "prefix_unary_expression",
  "postfix_unary_expression",
  "parenthesized_expression",
  "interpolation",
  "initializer_expression",
  "array_rank_specifier",
  "arrow_expression_clause",
  "case_switch_label",
  "constant_pattern",
  "if_statement",
  "while_statement",
]);

const STATIC_VALUE_KINDS: ReadonlySet<NodeKind> = new Set(["property"]);
const TYPE_NAME_KINDS: ReadonlySet<NodeKind> = new Set(["class", "struct", "interface", "enum", "type_alias"]);

/**
 * The file's static fields and properties named as types are (`MaxSides`, `Instance`), which its
 * own code reads bare; not one named as a type of the file is (a `Color Color` reads either way).
 * Names in capitals are `constantReads`' already.
 */
function staticPascalNames(b: ExtractionBuilder): string[] {
  const types = b.namesOf(TYPE_NAME_KINDS);
  return [...b.namesOf(STATIC_VALUE_KINDS, true)].filter(
    (n) => /^[A-Z]\w*$/.test(n) && !isConstantName(n) && !types.has(n),
  );
}

/** A `using` directive's or a namespace's line: its dotted names are namespaces, not reads. */
const USING_OR_NAMESPACE = /^\s*(?:global\s+)?(?:using|namespace)\b/;

export const csharpExtractor: LanguageExtractor = {
  id: "csharp",
  grammar: "tree-sitter-c_sharp.wasm",
  parseText: cSharpParseText,
  prepare(language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    const fields: Fields = fieldIds(language, "tree-sitter-c_sharp", FIELD_NAMES);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new CSharpFile(b, fields);
      for (const m of query.matches(root)) file.handle(m);
      file.flushTypes();
      // Enum members and static members are PascalCase (`Level.High`, `Limits.MaxSize`).
      constantReads(b, root, {
        nameType: "identifier",
        declaredKinds: CONSTANT_KINDS,
        separator: ".",
        anyCaseMembers: true,
        importLine: USING_OR_NAMESPACE,
        memberExpression: "member_access_expression",
      });
      namedReads(b, root, staticPascalNames(b), "identifier", VALUE_PLACES);
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
};
