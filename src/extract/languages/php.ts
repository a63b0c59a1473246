import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { type ExtractResult, valueOfType } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";

/**
 * PHP. A file's namespace is its package (dotted: `App.Service`; "" for the global namespace), as
 * C#'s; types are qualified inside the file (`OrderService.place`).
 *
 * PHP resolves every class name at compile time from the file's namespace and its `use` clauses, so
 * the extractor does it: a name written bare (`Order`) is left bare, for the resolver to find among the
 * file's `use` bindings and its namespace; a qualified name (`Sub\Thing`, `Alias\Thing`, `\A\B`) is
 * made absolute here and written as `\A\B\Thing`, with an import binding of that very name
 * (`local` `\A\B\Thing`, `imported` `Thing`, `specifier` `A.B.Thing`). Every `use A\B\C as D` is a
 * binding `D` → `C` of specifier `A.B.C`: the specifier names the declaration itself, so the file's
 * `imports` edge goes to the file that declares it (see `resolve/languages/php.ts`).
 *
 * Receivers: `$this`, `self::` and `static::` are `this`, `parent::` is `super`, `$x` is `x`,
 * `$this->repo` is `this.repo`, `$a->b()` is `a.b()`, `Foo::make()` is `Foo.make()`. Types of
 * parameters, properties (declared, promoted, or `@var` in their docblock), `$x = new Foo`,
 * `$this->x = $typedParam`, `$x = $a->make()` (the callee's return type) and return types feed typed
 * receivers.
 */
const QUERY = `
(comment) @comment
(namespace_definition name: (namespace_name) @name) @ns
(namespace_use_declaration) @use
(class_declaration name: (name) @name) @def
(interface_declaration name: (name) @name) @def
(trait_declaration name: (name) @name) @def
(enum_declaration name: (name) @name) @def
(enum_case name: (name) @name) @def
(method_declaration name: (name) @name parameters: (formal_parameters) @params) @def
(function_definition name: (name) @name parameters: (formal_parameters) @params) @def
(property_declaration) @def
(property_promotion_parameter name: (variable_name) @name) @def
(const_declaration) @def
(class_declaration (base_clause) @extends)
(interface_declaration (base_clause) @extends)
(class_interface_clause) @implements
(use_declaration) @traits
(function_call_expression function: (_) @fn arguments: (arguments) @args) @call
(member_call_expression object: (_) @obj name: (name) @name arguments: (arguments) @args) @call
(nullsafe_member_call_expression object: (_) @obj name: (name) @name arguments: (arguments) @args) @call
(scoped_call_expression scope: (_) @scope name: (name) @name arguments: (arguments) @args) @call
(object_creation_expression) @new
(class_constant_access_expression . (_) @scope . (name) @name) @access
(simple_parameter type: (_) @type name: (variable_name) @var) @param
(assignment_expression left: (_) @left right: (_) @right) @assign
(named_type) @type
"instanceof" @test
(require_expression) @require
(require_once_expression) @require
(include_expression) @require
(include_once_expression) @require
(array_creation_expression . (array_element_initializer [(variable_name) (class_constant_access_expression)] @obj) . (array_element_initializer [(string) (encapsed_string)] @method) .)
`;

const P = {
  comment: 0,
  namespace: 1,
  use: 2,
  class: 3,
  interface: 4,
  trait: 5,
  enum: 6,
  enumCase: 7,
  method: 8,
  function: 9,
  property: 10,
  promoted: 11,
  const: 12,
  classExtends: 13,
  interfaceExtends: 14,
  implements: 15,
  traits: 16,
  functionCall: 17,
  memberCall: 18,
  nullsafeCall: 19,
  scopedCall: 20,
  new: 21,
  access: 22,
  param: 23,
  assign: 24,
  type: 25,
  instanceof: 26,
  require: 27,
  requireOnce: 28,
  include: 29,
  includeOnce: 30,
  callable: 31,
} as const;

const CALLS = new Set(["member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"]);

const TYPE_KIND: Partial<Record<number, NodeKind>> = {
  [P.class]: "class",
  [P.interface]: "interface",
  [P.trait]: "trait",
  [P.enum]: "enum",
};

/** Type names that are no class: a reference to them is no edge. */
const BUILTIN_TYPES = new Set([
  "array",
  "bool",
  "boolean",
  "callable",
  "false",
  "float",
  "double",
  "int",
  "integer",
  "iterable",
  "mixed",
  "never",
  "null",
  "object",
  "resource",
  "string",
  "true",
  "void",
  "parent",
]);

interface Range {
  start: number;
  end: number;
}

class PhpFile {
  private namespace = "";
  private namespaceSeen = false;
  /** `use` aliases (lower case, as PHP compares them) → the absolute name, backslashed. */
  private readonly classAliases = new Map<string, string>();
  private readonly functionAliases = new Map<string, string>();
  /** Absolute names already given a binding. */
  private readonly bound = new Set<string>();
  /** Classes, traits, interfaces, enums by range, with their names: `self` and `static` in them. */
  private readonly types: (Range & { name: string })[] = [];
  /** Functions and methods by range, with their typed parameters. */
  private readonly callables: (Range & { params: Map<string, string> })[] = [];
  /** Heritage is emitted last, traits first: a trait's method hides the parent class's. */
  private readonly heritage: { kind: "extends" | "implements"; at: Node; name: string; order: number }[] = [];

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly source: string,
  ) {}

  private text(n: Node): string {
    return this.source.slice(n.startIndex, n.endIndex);
  }

  /** The file's namespace, dotted (`App.Service`); "" for the global namespace. */
  packageName(): string {
    return this.namespace.split("\\").filter(Boolean).join(".");
  }

  run(matches: QueryMatch[]): void {
    for (const m of matches) this.collect(m);
    this.types.sort((a, b) => a.start - b.start);
    this.callables.sort((a, b) => a.start - b.start);
    for (const m of matches) this.emit(m);
    this.heritage.sort((a, b) => a.order - b.order);
    for (const h of this.heritage) this.b.ref(h.kind, h.at, h.name, null);
  }

  /** Namespace, `use` clauses, type and callable ranges, typed parameters: what the second pass reads. */
  private collect(m: QueryMatch): void {
    switch (m.patternIndex) {
      case P.namespace:
        // One package per file: the first namespace (files with several are rare).
        if (!this.namespaceSeen) {
          this.namespace = this.text(cap(m, "name")).replace(/\s+/g, "");
          this.namespaceSeen = true;
        }
        return;
      case P.use:
        this.useDeclaration(cap(m, "use"));
        return;
      case P.class:
      case P.interface:
      case P.trait:
      case P.enum: {
        const def = cap(m, "def");
        this.types.push({ start: def.startIndex, end: def.endIndex, name: this.text(cap(m, "name")) });
        return;
      }
      case P.method:
      case P.function: {
        const def = cap(m, "def");
        this.callables.push({ start: def.startIndex, end: def.endIndex, params: new Map() });
        return;
      }
      default:
        return;
    }
  }

  private emit(m: QueryMatch): void {
    switch (m.patternIndex) {
      case P.comment:
        this.b.comment(cap(m, "comment"));
        return;
      case P.use:
        this.useBindings(cap(m, "use"));
        return;
      case P.class:
      case P.interface:
      case P.trait:
      case P.enum:
        this.typeDecl(cap(m, "def"), cap(m, "name"), TYPE_KIND[m.patternIndex]!);
        return;
      case P.enumCase:
        this.b.symbol("enum_member", cap(m, "def"), cap(m, "name"), { exported: true, isStatic: true });
        return;
      case P.method:
      case P.function:
        this.callable(cap(m, "def"), cap(m, "name"), cap(m, "params"), m.patternIndex === P.method);
        return;
      case P.property:
        this.property(cap(m, "def"));
        return;
      case P.promoted:
        this.promoted(cap(m, "def"), cap(m, "name"));
        return;
      case P.const:
        this.constants(cap(m, "def"));
        return;
      case P.classExtends:
      case P.interfaceExtends:
        for (const n of cap(m, "extends").namedChildren) if (n) this.heritageRef("extends", n, 1);
        return;
      case P.implements:
        for (const n of cap(m, "implements").namedChildren) if (n) this.heritageRef("implements", n, 2);
        return;
      case P.traits:
        for (const n of cap(m, "traits").namedChildren)
          if (n && (n.type === "name" || n.type === "qualified_name")) this.heritageRef("implements", n, 0);
        return;
      case P.functionCall:
        this.functionCall(cap(m, "fn"), cap(m, "args"));
        return;
      case P.memberCall:
      case P.nullsafeCall: {
        const receiver = this.receiver(cap(m, "obj"));
        const name = cap(m, "name");
        this.b.ref("calls", name, this.text(name), receiver ?? "?", argCount(cap(m, "args")));
        return;
      }
      case P.callable:
        this.callableArray(cap(m, "obj"), cap(m, "method"));
        return;
      case P.scopedCall: {
        const name = cap(m, "name");
        const receiver = this.scope(cap(m, "scope"));
        this.b.ref("calls", name, this.text(name), receiver ?? "?", argCount(cap(m, "args")));
        return;
      }
      case P.new:
        this.creation(cap(m, "new"));
        return;
      case P.access:
        this.access(cap(m, "scope"), cap(m, "name"));
        return;
      case P.param:
        this.param(cap(m, "param"), cap(m, "type"), cap(m, "var"));
        return;
      case P.assign:
        this.assign(cap(m, "left"), cap(m, "right"));
        return;
      case P.type:
        this.typeRef(cap(m, "type"));
        return;
      case P.instanceof: {
        // The keyword alone is matched: a pattern for the whole test was a third of the time this
        // query took to compile, which every sync of a PHP file pays.
        const test = cap(m, "test").parent;
        const left = test?.type === "binary_expression" ? test.childForFieldName("left") : null;
        const n = left?.isNamed ? test!.childForFieldName("right") : null;
        if (n?.type !== "name" && n?.type !== "qualified_name") return;
        const name = this.className(n);
        if (name) this.b.ref("references", n, name, null);
        if (name) this.narrowed(test!, left!, name);
        return;
      }
      case P.require:
      case P.requireOnce:
      case P.include:
      case P.includeOnce:
        this.require(cap(m, "require"));
        return;
      default:
        return;
    }
  }

  /** `use A\B\C;`, `use A\B\{C, D as E};`, `use function A\f;`: aliases, read before any name is. */
  private useDeclaration(decl: Node): void {
    const text = this.text(decl).replace(/\s+/g, " ");
    const kind = /^use\s+function\b/i.test(text) ? "function" : /^use\s+const\b/i.test(text) ? "const" : "class";
    for (const { alias, absolute } of useClauses(text)) {
      const map = kind === "function" ? this.functionAliases : kind === "class" ? this.classAliases : null;
      map?.set(alias.toLowerCase(), absolute);
    }
  }

  private useBindings(decl: Node): void {
    const text = this.text(decl).replace(/\s+/g, " ");
    const line = decl.startPosition.row + 1;
    for (const { alias, absolute } of useClauses(text)) {
      const segments = absolute.split("\\");
      this.b.import({
        local: alias,
        imported: segments[segments.length - 1]!,
        specifier: segments.join("."),
        line,
        reexport: false,
      });
      this.b.symbol("import", decl, null, { name: alias });
    }
  }

  /** The enclosing class, trait, interface or enum of a position. */
  private typeAt(at: number): (Range & { name: string }) | null {
    let found: (Range & { name: string }) | null = null;
    for (const t of this.types) {
      if (t.start > at) break;
      if (t.end > at) found = t;
    }
    return found;
  }

  private callableAt(at: number): (Range & { params: Map<string, string> }) | null {
    let found: (Range & { params: Map<string, string> }) | null = null;
    for (const c of this.callables) {
      if (c.start > at) break;
      if (c.end > at) found = c;
    }
    return found;
  }

  /**
   * A class name as the resolver reads it: bare when written bare (a `use` alias or a name of the
   * namespace), else absolute (`\A\B\C`, given a binding of that name); the enclosing class for
   * `self` and `static`; null for `parent`, builtins and anything computed.
   */
  private className(n: Node): string | null {
    if (n.type !== "name" && n.type !== "qualified_name") return null;
    const written = this.text(n).replace(/\s+/g, "");
    const lower = written.toLowerCase();
    if (lower === "self" || lower === "static") return this.typeAt(n.startIndex)?.name ?? null;
    if (BUILTIN_TYPES.has(lower)) return null;
    return this.qualify(written, this.classAliases, n);
  }

  /** `Foo` stays `Foo`; `\A\B`, `Alias\B`, `Sub\B` become `\A\B` with a binding. */
  private qualify(written: string, aliases: Map<string, string>, at: Node): string {
    if (!written.includes("\\")) return written;
    let absolute: string;
    if (written.startsWith("\\")) absolute = written.slice(1);
    else {
      const slash = written.indexOf("\\");
      const head = written.slice(0, slash);
      const alias = head.toLowerCase() === "namespace" ? this.namespace : aliases.get(head.toLowerCase());
      if (alias !== undefined) absolute = alias ? `${alias}${written.slice(slash)}` : written.slice(slash + 1);
      else absolute = this.namespace ? `${this.namespace}\\${written}` : written;
    }
    const local = `\\${absolute}`;
    if (!this.bound.has(local)) {
      this.bound.add(local);
      const segments = absolute.split("\\");
      this.b.import({
        local,
        imported: segments[segments.length - 1]!,
        specifier: segments.join("."),
        line: at.startPosition.row + 1,
        reexport: false,
      });
    }
    return local;
  }

  private typeDecl(def: Node, name: Node, kind: NodeKind): void {
    const body = def.childForFieldName("body");
    this.b.symbol(kind, def, name, {
      signatureEnd: body?.startIndex,
      exported: true,
      visibility: "public",
    });
  }

  private heritageRef(kind: "extends" | "implements", n: Node, rank: number): void {
    const name = this.className(n);
    if (name) this.heritage.push({ kind, at: n, name, order: rank * 1e9 + n.startIndex });
  }

  private callable(def: Node, name: Node, params: Node, isMethod: boolean): void {
    const mods = modifiers(def, this.source);
    const nameText = this.text(name);
    const kind: NodeKind = !isMethod ? "function" : nameText.toLowerCase() === "__construct" ? "constructor" : "method";
    const body = def.childForFieldName("body");
    const visibility = isMethod ? (mods.visibility ?? "public") : null;
    this.b.symbol(kind, def, name, {
      signatureEnd: body ? body.startIndex : def.endIndex,
      exported: isMethod ? visibility === "public" : true,
      visibility,
      paramCount: paramCount(params),
      isStatic: mods.isStatic,
    });
    const ret = def.childForFieldName("return_type");
    const type = ret ? this.typeName(ret) : null;
    if (type) this.b.localType(ret!, "()", type);
    this.docTypes(def, name, params, ret !== null);
  }

  /**
   * `@param Foo $x` and `@return Foo` in the docblock above a function, for what its signature leaves
   * untyped: older code and `{@inheritdoc}`-free libraries write their types only there.
   */
  private docTypes(def: Node, name: Node, params: Node, returnTyped: boolean): void {
    const doc = docBlockBefore(this.source, def.startIndex);
    if (!doc || !doc.includes("@")) return;
    const callable = this.callableAt(def.startIndex);
    const tags = docTags(doc);
    for (const p of params.namedChildren) {
      if (p?.type !== "simple_parameter" || p.childForFieldName("type")) continue;
      const v = p.childForFieldName("name");
      const paramName = v ? this.text(v).replace(/^\$/, "") : "";
      const written = paramName ? oneClass(tags.params.get(paramName)) : null;
      const type = written ? this.qualifyText(written, def) : null;
      if (!v || !type) continue;
      this.b.localType(v, paramName, type);
      callable?.params.set(paramName, type);
    }
    if (returnTyped) return;
    const written = oneClass(tags.returns);
    const type = written ? this.qualifyText(written, def) : null;
    // Anchored inside the function (its name), so that the type is its own.
    if (type) this.b.localType(name, "()", type);
  }

  /** A declared type as a class name: `Foo`, `?Foo`, `self`; null for unions, builtins and arrays. */
  private typeName(t: Node): string | null {
    let n: Node | null = t;
    if (n.type === "optional_type") n = n.namedChild(0);
    if (n?.type === "named_type") n = n.namedChild(0);
    return n ? this.className(n) : null;
  }

  private property(decl: Node): void {
    const mods = modifiers(decl, this.source);
    const typeNode = decl.childForFieldName("type");
    let type = typeNode ? this.typeName(typeNode) : null;
    // `/** @var Foo */` above an untyped property.
    if (!type) {
      const doc = docBlockBefore(this.source, decl.startIndex);
      const m = doc ? /@var\s+\??(\\?[A-Za-z_][\w\\]*)/.exec(doc) : null;
      if (m && !BUILTIN_TYPES.has(m[1]!.toLowerCase())) type = this.qualifyText(m[1]!, decl);
    }
    const elements = decl.namedChildren.filter((el) => el?.type === "property_element");
    for (const el of elements) {
      const v = el?.namedChild(0);
      if (!el || !v) continue;
      const name = this.text(v).replace(/^\$/, "");
      // One property: the whole declaration, with its type. Several share it, so each is its element.
      this.b.symbol("property", elements.length === 1 ? decl : el, null, {
        name,
        signatureEnd: el.endIndex,
        exported: (mods.visibility ?? "public") === "public",
        visibility: mods.visibility ?? "public",
        isStatic: mods.isStatic,
        docNode: decl,
      });
      if (type) this.b.localType(el, `this.${name}`, type);
    }
  }

  private qualifyText(written: string, at: Node): string | null {
    const lower = written.toLowerCase();
    if (lower === "self" || lower === "static") return this.typeAt(at.startIndex)?.name ?? null;
    return this.qualify(written, this.classAliases, at);
  }

  /** `__construct(private Repo $repo)`: a property of the class. */
  private promoted(param: Node, name: Node): void {
    const vis = param.childForFieldName("visibility");
    const visibility = vis ? (this.text(vis) as "public") : "public";
    const propName = this.text(name).replace(/^\$/, "");
    // A property of the class: the builder nests it under the constructor, so it is named by owner.
    const owner = this.typeAt(param.startIndex);
    this.b.symbol("property", param, null, {
      name: propName,
      exported: visibility === "public",
      visibility,
      owner: owner?.name,
    });
    const typeNode = param.childForFieldName("type");
    const type = typeNode ? this.typeName(typeNode) : null;
    if (type) {
      this.b.localType(param, `this.${propName}`, type);
      this.callableAt(param.startIndex)?.params.set(propName, type);
      this.b.localType(name, propName, type);
    }
  }

  private constants(decl: Node): void {
    const inType = this.typeAt(decl.startIndex) !== null;
    const mods = modifiers(decl, this.source);
    for (const el of decl.namedChildren) {
      if (el?.type !== "const_element") continue;
      const name = el.namedChild(0);
      if (!name) continue;
      this.b.symbol("constant", el, name, {
        signatureEnd: el.endIndex,
        exported: true,
        visibility: inType ? (mods.visibility ?? "public") : null,
        isStatic: inType,
        docNode: decl,
      });
    }
  }

  /**
   * Where a test `$x instanceof Foo` makes $x a Foo (a value of it, `new Foo()`), whatever it is
   * elsewhere: in the block of `if ($x instanceof Foo)` (or `elseif`); after `assert($x instanceof Foo);`;
   * and after a guard clause, `if (! $x instanceof Foo) { throw ..; }` (or return, continue, break)
   * with no `else`, to the end of the block holding either. Only the whole condition narrows, and
   * only a variable.
   */
  private narrowed(test: Node, left: Node, className: string): void {
    if (left.type !== "variable_name") return;
    const name = this.text(left).replace(/^\$/, "");
    const value = valueOfType(className);
    const around = test.parent;
    const negation = around?.type === "parenthesized_expression" ? around.parent : around;
    const asserting =
      around?.type === "argument"
        ? this.assertion(around)
        : negation?.type === "unary_op_expression" && negation.child(0)?.type === "!"
          ? this.guard(negation)
          : null;
    if (asserting) {
      if (asserting.parent) this.b.narrow(name, asserting.endIndex, asserting.parent.endIndex, value);
      return;
    }
    const statement = around?.type === "parenthesized_expression" ? around.parent : null;
    if (statement?.type !== "if_statement" && statement?.type !== "else_if_clause") return;
    const body = statement.childForFieldName("body");
    if (body) this.b.narrow(name, body.startIndex, body.endIndex, value);
  }

  /** The statement `assert(<argument>);`, when the argument is its only one. */
  private assertion(argument: Node): Node | null {
    const args = argument.parent;
    const call = args?.parent;
    if (args?.namedChildCount !== 1 || call?.type !== "function_call_expression") return null;
    const fn = call.childForFieldName("function");
    if (fn?.type !== "name" || this.text(fn).toLowerCase() !== "assert") return null;
    return call.parent?.type === "expression_statement" ? call.parent : null;
  }

  /**
   * The `if` statement whose whole condition is `negation` and which leaves its block whenever it is
   * taken: no `else` or `elseif`, a block ending in `return`, `throw`, `continue` or `break`.
   */
  private guard(negation: Node): Node | null {
    const condition = negation.parent;
    const statement = condition?.parent;
    if (condition?.type !== "parenthesized_expression" || statement?.type !== "if_statement") return null;
    if (statement.childForFieldName("condition")?.id !== condition.id) return null;
    if (statement.childForFieldName("alternative")) return null;
    const body = statement.childForFieldName("body");
    const last = body?.type === "compound_statement" ? body.namedChild(body.namedChildCount - 1) : body;
    return last && leavesBlock(last) ? statement : null;
  }

  private param(param: Node, type: Node, v: Node): void {
    const typeName = this.typeName(type);
    if (!typeName) return;
    const name = this.text(v).replace(/^\$/, "");
    this.b.localType(v, name, typeName);
    this.callableAt(param.startIndex)?.params.set(name, typeName);
  }

  /** `$x = new Foo`, `$x = Foo::make()`, `$x = $this->repo`, `$this->x = new Foo`, `$this->x = $typedParam`. */
  private assign(left: Node, right: Node): void {
    let type: string | null = null;
    if (right.type === "object_creation_expression") type = this.createdClass(right);
    else if (CALLS.has(right.type)) {
      // `$order = Order::create()`, `$c = $this->customer()`: the callee's declared return type.
      type = left.type === "variable_name" ? this.receiver(right) : null;
    } else if (right.type === "member_access_expression" || right.type === "nullsafe_member_access_expression") {
      // `$repo = $this->repo`: of the property's type.
      type = left.type === "variable_name" ? this.receiver(right) : null;
    } else if (right.type === "variable_name" && left.type === "member_access_expression") {
      type = this.callableAt(right.startIndex)?.params.get(this.text(right).replace(/^\$/, "")) ?? null;
    }
    if (!type) return;
    if (left.type === "variable_name") {
      this.b.localType(left, this.text(left).replace(/^\$/, ""), type);
    } else if (left.type === "member_access_expression") {
      const obj = left.childForFieldName("object");
      const name = left.childForFieldName("name");
      if (obj && name?.type === "name" && this.text(obj) === "$this")
        this.b.localType(left, `this.${this.text(name)}`, type);
    }
  }

  private createdClass(creation: Node): string | null {
    const first = creation.namedChild(0);
    if (!first || (first.type !== "name" && first.type !== "qualified_name")) return null;
    return this.className(first);
  }

  /** `new Foo(...)`, `new \A\Foo`, `new static`: an instantiation of the class. */
  private creation(creation: Node): void {
    const first = creation.namedChild(0);
    if (!first || (first.type !== "name" && first.type !== "qualified_name")) return;
    const name = this.className(first);
    if (!name) return;
    const args = creation.namedChildren.find((c) => c?.type === "arguments") ?? null;
    this.b.ref("instantiates", first, name, null, args ? argCount(args) : 0);
  }

  /** `Foo::BAR` references the constant, `Foo::class` the class. */
  private access(scope: Node, name: Node): void {
    const member = this.text(name);
    if (member.toLowerCase() === "class") {
      const cls = this.className(scope);
      if (cls) this.b.ref("references", scope, cls, null);
      return;
    }
    const receiver = this.scope(scope);
    if (receiver) this.b.ref("references", name, member, receiver);
  }

  private typeRef(type: Node): void {
    const n = type.namedChild(0);
    if (!n) return;
    const name = this.className(n);
    // `self` and `static` name the enclosing class: no reference worth an edge.
    const written = this.text(n).toLowerCase();
    if (name && written !== "self" && written !== "static") this.b.ref("references", n, name, null);
  }

  private functionCall(fn: Node, args: Node): void {
    if (fn.type !== "name" && fn.type !== "qualified_name") return;
    const written = this.text(fn).replace(/\s+/g, "");
    let name = written;
    if (written.includes("\\")) name = this.qualify(written, this.classAliases, fn);
    else {
      const alias = this.functionAliases.get(written.toLowerCase());
      // `use function A\f as g;`: the binding is named `g`; the alias map only tells it is one.
      if (alias === undefined) name = written;
    }
    this.b.ref("calls", fn, name, null, argCount(args));
  }

  /** The receiver of `Scope::m()`: a class name, `this` for self/static, `super` for parent. */
  private scope(scope: Node): string | null {
    if (scope.type === "relative_scope") {
      const word = this.text(scope).toLowerCase();
      return word === "parent" ? "super" : "this";
    }
    if (scope.type === "name" || scope.type === "qualified_name") {
      const lower = this.text(scope).toLowerCase();
      if (lower === "self" || lower === "static") return "this";
      if (lower === "parent") return "super";
      return this.className(scope);
    }
    if (scope.type === "variable_name") return this.text(scope).replace(/^\$/, "");
    return null;
  }

  /** `$this` → this, `$x` → x, `$this->a` → this.a, `$a->b()` → a.b(), `Foo::m()` → Foo.m(); null otherwise. */
  private receiver(obj: Node, depth = 0): string | null {
    if (depth > 6) return null;
    switch (obj.type) {
      case "variable_name":
        return this.text(obj).replace(/^\$/, "");
      case "member_access_expression":
      case "nullsafe_member_access_expression": {
        const inner = obj.childForFieldName("object");
        const name = obj.childForFieldName("name");
        const head = inner ? this.receiver(inner, depth + 1) : null;
        return head && name?.type === "name" ? `${head}.${this.text(name)}` : null;
      }
      case "member_call_expression":
      case "nullsafe_member_call_expression": {
        const inner = obj.childForFieldName("object");
        const name = obj.childForFieldName("name");
        const head = inner ? this.receiver(inner, depth + 1) : null;
        return head && name?.type === "name" ? `${head}.${this.text(name)}()` : null;
      }
      case "scoped_call_expression": {
        const scope = obj.childForFieldName("scope");
        const name = obj.childForFieldName("name");
        const head = scope ? this.scope(scope) : null;
        return head && head !== "super" && name?.type === "name" ? `${head}.${this.text(name)}()` : null;
      }
      case "parenthesized_expression": {
        // `(new Foo)->m()`
        const inner = obj.namedChild(0);
        return inner?.type === "object_creation_expression" ? this.createdClass(inner) : null;
      }
      default:
        return null;
    }
  }

  /**
   * A callable array, `[$this, 'isLocked']` or `[self::class, 'compare']` (what `array_map`, `usort`
   * and `call_user_func` take): a call of that method on that receiver, of unknown arity.
   */
  private callableArray(obj: Node, method: Node): void {
    const name = /^(['"])([A-Za-z_]\w*)\1$/.exec(this.text(method))?.[2];
    if (!name) return;
    let receiver: string | null = null;
    if (obj.type === "variable_name") receiver = this.receiver(obj);
    else {
      const scope = obj.namedChild(0);
      const constant = obj.namedChild(1);
      if (scope && constant && this.text(constant) === "class") receiver = this.scope(scope);
    }
    if (receiver && receiver !== "super") this.b.ref("calls", method, name, receiver, null);
  }

  /** `require __DIR__ . '/x.php'`, `include 'lib/x.php'`, `require dirname(__DIR__) . '/x.php'`. */
  private require(expr: Node): void {
    const arg = expr.namedChild(0);
    if (!arg) return;
    const spec = requirePath(this.text(arg));
    if (!spec) return;
    this.b.import({ local: "", imported: null, specifier: spec, line: expr.startPosition.row + 1, reexport: false });
  }
}

/** A statement that leaves the block it is in (a guard clause's last). */
function leavesBlock(statement: Node): boolean {
  switch (statement.type) {
    case "return_statement":
    case "continue_statement":
    case "break_statement":
      return true;
    case "expression_statement":
      return statement.namedChild(0)?.type === "throw_expression";
    default:
      return false;
  }
}

/** The node captured under `name` (every pattern's captures are fixed, so it is there). */
function cap(m: QueryMatch, name: string): Node {
  for (const c of m.captures) if (c.name === name) return c.node;
  throw new Error(`php query: no capture ${name} in pattern ${m.patternIndex}`);
}

/** The clauses of a `use` declaration's text: each alias and the absolute name it stands for. */
export function useClauses(text: string): { alias: string; absolute: string }[] {
  const body = text
    .replace(/^use\s+(function\s+|const\s+)?/i, "")
    .replace(/;\s*$/, "")
    .trim();
  const out: { alias: string; absolute: string }[] = [];
  const clause = (raw: string, prefix: string) => {
    const m = /^\s*(?:function\s+|const\s+)?\\?([\w\\]+?)\s*(?:\s+as\s+(\w+))?\s*$/i.exec(raw);
    if (!m) return;
    const absolute = (prefix ? `${prefix}\\${m[1]}` : m[1]!).replace(/\\+/g, "\\").replace(/^\\/, "");
    out.push({ alias: m[2] ?? absolute.slice(absolute.lastIndexOf("\\") + 1), absolute });
  };
  const group = /^\\?([\w\\]*?)\\?\s*\{([^}]*)\}/.exec(body);
  if (group) {
    for (const part of group[2]!.split(",")) if (part.trim()) clause(part, group[1]!);
  } else {
    for (const part of body.split(",")) if (part.trim()) clause(part, "");
  }
  return out;
}

/** The path a require/include names, when its text says: `'x.php'`, `__DIR__ . '/x.php'`, `dirname(__DIR__) . '/x'`. */
export function requirePath(text: string): string | null {
  const t = text.replace(/\s+/g, "");
  let m = /^(['"])([^'"$]+)\1$/.exec(t);
  if (m) return m[2]!;
  m = /^__DIR__\.(['"])\/([^'"$]+)\1$/.exec(t);
  if (m) return `./${m[2]}`;
  m = /^dirname\(__DIR__(?:,(\d))?\)\.(['"])\/([^'"$]+)\2$/.exec(t);
  if (m) return `${"../".repeat(Number(m[1] ?? "1"))}${m[3]}`;
  m = /^dirname\(__FILE__\)\.(['"])\/([^'"$]+)\1$/.exec(t);
  if (m) return `./${m[2]}`;
  return null;
}

/** Visibility and `static` of a declaration, from its modifier children. */
function modifiers(
  decl: Node,
  source: string,
): { visibility: "public" | "private" | "protected" | null; isStatic: boolean } {
  let visibility: "public" | "private" | "protected" | null = null;
  let isStatic = false;
  for (const c of decl.namedChildren) {
    if (!c) continue;
    if (c.type === "visibility_modifier") visibility = source.slice(c.startIndex, c.endIndex).toLowerCase() as "public";
    else if (c.type === "static_modifier") isStatic = true;
    else if (c.type === "property_element" || c.type === "const_element" || c.type === "name") break;
  }
  return { visibility, isStatic };
}

/**
 * A docblock's tags that type a function: `@param Foo $x` by parameter name and `@return Foo`, the
 * first of each, read in one pass. Matching each parameter's tag with a pattern of its own made a
 * regular expression per parameter, compiled and first run by V8's regexp interpreter: 25 ms of each
 * pass over doctrine's 450 files (CPU profile, warm), against 5 ms now.
 */
function docTags(doc: string): { params: Map<string, string>; returns: string | undefined } {
  const params = new Map<string, string>();
  let returns: string | undefined;
  for (const m of doc.matchAll(DOC_TAG)) {
    if (m[1] === "return") returns ??= m[2];
    else if (m[3] !== undefined && !params.has(m[3])) params.set(m[3], m[2]!);
  }
  return { params, returns };
}

/** `@param Type $name` (a variadic's `...$name` too) or `@return Type`. */
const DOC_TAG = /@(param|return)\s+(\S+)(?:\s+(?:\.\.\.)?\$([\w\u0080-\uffff]+))?/g;

/**
 * The one class a docblock's type names (`Foo|null`, `?Foo` and `$this` for one): unions with `null`
 * or `false` are that class, other unions, builtins, arrays and generics name none.
 */
function oneClass(written: string | undefined): string | null {
  if (written === undefined) return null;
  const classes = (written === "$this" ? "static" : written)
    .replace(/^\?/, "")
    .split("|")
    .filter((t) => !NULLISH.has(t.toLowerCase()));
  const only = classes.length === 1 ? classes[0]! : null;
  return only && /^\\?[A-Za-z_][\w\\]*$/.test(only) && !BUILTIN_TYPES.has(only.toLowerCase()) ? only : null;
}

const NULLISH = new Set(["null", "false", "void"]);

/** The `/** ... *\/` block right above a position, if any. */
function docBlockBefore(source: string, at: number): string | null {
  const before = source.slice(Math.max(0, at - 600), at);
  const m = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(before);
  return m ? m[1]! : null;
}

/** Parameters; null with defaults or a variadic, so arity never rules out the right callee. */
function paramCount(params: Node): number | null {
  let count = 0;
  for (const p of params.namedChildren) {
    if (!p || p.type === "comment") continue;
    if (p.type === "variadic_parameter") return null;
    if (p.childForFieldName("default_value")) return null;
    count++;
  }
  return count;
}

/** Arguments at a call site; null with a spread (`...$args`) or a first-class callable (`f(...)`). */
function argCount(args: Node): number | null {
  let count = 0;
  for (const a of args.namedChildren) {
    if (!a || a.type === "comment") continue;
    if (a.type === "variadic_placeholder") return null;
    if (a.type === "argument" && a.firstChild?.type === "...") return null;
    count++;
  }
  return count;
}

export const phpExtractor: LanguageExtractor = {
  id: "php",
  grammar: "tree-sitter-php.wasm",
  prepare(_language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new PhpFile(b, source);
      file.run(query.matches(root));
      return b.finish(file.packageName(), countSyntaxErrors(root));
    };
  },
};
