import type { Language, Node, Query, QueryMatch } from "web-tree-sitter";
import { ALIAS_OF, USING_NAME, USING_NAMESPACE, valueOfType } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder, SymbolOptions } from "../builder.js";
import { fieldIds } from "../fields.js";
import type { LanguageExtractor } from "../language.js";
import {
  CFamilyFile,
  C_PATTERNS,
  blankExportMacros,
  blankSplitHeads,
  cFamilyExtract,
  capture,
  type CFamilyFields,
  type FnDef,
  type Pattern,
} from "./c-family.js";
import { blankDecltypeCommas, blankMemberMacros, isMacroName } from "./cpp-text.js";

/**
 * C++ adds namespaces, classes, templates, `using` and qualified names to what it shares with C.
 *
 * Conventions the resolver (`resolve/cpp.ts`) relies on:
 * - Qualified names join with dots, as in every other language: `ns::Shape::area` is `ns.Shape.area`.
 *   A namespace block is a `namespace` symbol (one per block and file; `namespace a::b {` is `b` with
 *   qualified name `a.b`); an anonymous namespace is no symbol, and what it declares has internal
 *   linkage (not exported).
 * - A template is its one symbol (`template <class T> class Box` is `Box`; a specialisation
 *   `Box<int>` is `Box` again), and `Box<int>` written anywhere refers to `Box`.
 * - An out-of-line definition (`void Shape::area() {}`) is the member `Shape.area` wherever it is
 *   written (its qualified name comes from the enclosing namespaces and its qualifier); the
 *   declaration inside the class is the same function for the resolver's linkage step. When its file
 *   also defines it out of line, the in-class declaration is dropped, as C drops a header prototype
 *   its header defines.
 * - References: `a::b::f()` is a call of `f` with receiver `a.b` (`::f()`: receiver `::`), `p->f()`
 *   and `p.f()` receiver `p`, `this->f()` receiver `this`, `new T()` instantiates T, bases are
 *   `extends`. Operators (`a + b`, `a[i]`, `f()` on a functor variable) make no call.
 */

const CPP_PATTERNS: readonly Pattern[] = [
  ["namespace", "(namespace_definition body: (declaration_list) @body) @def"],
  ["class", "(class_specifier name: (_) @name body: (field_declaration_list) @body) @def"],
  ["using", "(using_declaration) @def"],
  ["alias", "(alias_declaration name: (type_identifier) @name) @def"],
  ["new", "(new_expression type: (_) @type) @def"],
  // Members declared without a type (constructors, destructors) or defined as `= default`/`= delete`.
  ["member", "(declaration !type declarator: (function_declarator) @decl) @def"],
  ["member", "(function_definition !body declarator: (function_declarator) @decl) @def"],
  // Written types C has no place for (see C's `typeUse`): defaulted and pack parameters, `for (T x : xs)`.
  [
    "typeUse",
    "[(optional_parameter_declaration type: (_) @type) (variadic_parameter_declaration type: (_) @type) (for_range_loop type: (_) @type)]",
  ],
  // A template's type parameters: within the template, `T` is no type of the project's.
  [
    "typeParam",
    "(template_declaration parameters: (template_parameter_list [(type_parameter_declaration (type_identifier) @name) (optional_type_parameter_declaration name: (_) @name) (variadic_type_parameter_declaration (type_identifier) @name) (template_template_parameter_declaration (type_parameter_declaration (type_identifier) @name))])) @def",
  ],
];

const CPP_FIELD_NAMES = ["scope", "name", "arguments", "body"] as const;
type CppFields = Record<(typeof CPP_FIELD_NAMES)[number], number>;

/** Pointer types whose object is what calls go to: `std::unique_ptr<Shape> p; p->area()`. */
/** Values an `auto` local's type is read from (besides a construction): a call, a member, a name. */
const AUTO_FROM = new Set(["call_expression", "field_expression", "identifier"]);
const SMART_POINTERS = new Set(["unique_ptr", "shared_ptr", "weak_ptr", "auto_ptr", "optional"]);

/** The casts written as template calls; what they give is a value of their type argument. */
const CASTS = new Set(["static_cast", "dynamic_cast", "reinterpret_cast", "const_cast"]);

const CLASS_SPECIFIERS = new Set(["class_specifier", "struct_specifier", "union_specifier"]);

/** Where a declaration sits: its enclosing namespaces and classes, innermost class, anonymous namespace. */
interface Context {
  path: string[];
  cls: Node | null;
  internal: boolean;
}

export class CppFile extends CFamilyFile {
  protected override readonly scopeSeparator = "::";
  private readonly classes: { def: Node; name: string; body: Node; kind: NodeKind; owner: string | undefined }[] = [];
  /** Qualifiers of declarator names: `Shape::area` → `Shape` for the name node `area`. */
  private readonly qualifiers = new Map<number, string[]>();
  /** Namespaces this file declares or uses: `a::f` with such an `a` is a function, not a method. */
  private readonly namespaces = new Set<string>();
  private readonly access = new Map<number, { at: number; vis: "public" | "private" | "protected" }[]>();
  private outOfLine: Set<string> | null = null;
  /** In-class declarations dropped for an out-of-line definition in the same file. */
  private readonly replaced = new Set<string>();
  private readonly outOfLineMethods: { name: Node; qname: string }[] = [];
  /** Template type parameters by name, with the template declarations they are in scope in. */
  private readonly typeParams = new Map<string, { start: number; end: number }[]>();

  constructor(
    b: ExtractionBuilder,
    fields: CFamilyFields,
    path: string,
    private readonly cf: CppFields,
  ) {
    super(b, fields, path);
  }

  override handle(tag: string, m: QueryMatch): void {
    switch (tag) {
      case "namespace":
        return this.namespace(capture(m, "def"));
      case "class":
        return this.klass(capture(m, "def"), capture(m, "name"), capture(m, "body"), "class");
      case "struct": {
        const def = capture(m, "def");
        if (def.type === "struct_specifier") return this.klass(def, capture(m, "name"), capture(m, "body"), "struct");
        return super.handle(tag, m);
      }
      case "using":
        return this.using(capture(m, "def"));
      case "alias":
        return this.alias(capture(m, "def"), capture(m, "name"));
      case "member": {
        const def = capture(m, "def");
        const list = templateParent(def);
        if (list?.type !== "field_declaration_list") return;
        const d = this.declarator(capture(m, "decl"));
        if (!d?.params) return;
        // Its "parameters" are the macro's arguments, no types of the project's.
        if (this.isMacroCall(def, d.name, list)) {
          this.dropped.push({ start: def.startIndex, end: def.endIndex });
          return;
        }
        this.fns.push({ def, name: d.name, params: d.params, body: null, prototype: true });
        return;
      }
      case "typeParam": {
        const def = capture(m, "def");
        const name = this.text(capture(m, "name"));
        let list = this.typeParams.get(name);
        if (!list) this.typeParams.set(name, (list = []));
        list.push({ start: def.startIndex, end: def.endIndex });
        return;
      }
      case "new": {
        const t = this.typeRef(capture(m, "type"));
        if (t) this.b.ref("instantiates", t.at, t.name, t.receiver);
        return;
      }
      default:
        return super.handle(tag, m);
    }
  }

  override finish(root: Node): void {
    for (const c of this.classes) {
      if (this.named.has(c.def.id)) continue;
      this.b.symbol(c.kind, c.def, null, {
        name: c.name,
        owner: c.owner,
        exported: !this.context(c.def).internal,
        signatureEnd: c.body.startIndex,
        docNode: templateOf(c.def),
      });
    }
    super.finish(root);
    // The indexer derives `overrides` for methods declared in a class; these were defined outside it.
    for (const m of this.outOfLineMethods)
      if (this.replaced.has(m.qname)) this.b.ref("overrides", m.name, this.text(m.name), null);
  }

  // ---- declarations ----

  private namespace(def: Node): void {
    const nameNode = def.childForFieldId(this.cf.name);
    if (!nameNode) return; // anonymous: its declarations are the file's, with internal linkage
    const parts = this.text(nameNode)
      .split("::")
      .map((s) => s.trim())
      .filter(Boolean);
    const last = parts.pop();
    if (!last) return;
    const outer = this.context(def).path;
    for (const p of parts) this.namespaces.add(p);
    this.namespaces.add(last);
    const body = def.childForFieldId(this.cf.body);
    this.b.symbol("namespace", def, null, {
      name: last,
      owner: parts.length ? [...outer, ...parts].join(".") : undefined,
      exported: true,
      signatureEnd: body ? body.startIndex : def.endIndex,
    });
  }

  private klass(def: Node, nameNode: Node, body: Node, kind: NodeKind): void {
    // `struct TableBuilder::Rep { .. }`: a nested class defined outside its class.
    const parts = qualifiedText(this.text(nameNode)).split(".");
    const name = parts.pop();
    if (!name) return;
    const owner = parts.length ? [...this.context(def).path, ...parts].join(".") : undefined;
    this.classes.push({ def, name, body, kind, owner });
    // Access labels in source order, for members' visibility.
    const labels: { at: number; vis: "public" | "private" | "protected" }[] = [];
    for (const child of body.namedChildren) {
      if (child?.type !== "access_specifier") continue;
      const vis = this.text(child).trim();
      if (vis === "public" || vis === "private" || vis === "protected") labels.push({ at: child.startIndex, vis });
    }
    this.access.set(body.id, labels);
    for (const child of def.namedChildren) {
      if (child?.type !== "base_class_clause") continue;
      for (const base of child.namedChildren) {
        if (!base) continue;
        const t = this.typeRef(base);
        if (t) this.b.ref("extends", t.at, t.name, t.receiver);
      }
    }
  }

  private alias(def: Node, name: Node): void {
    this.b.symbol("type_alias", def, name, { exported: !this.context(def).internal });
    // Classes name their base `Super` (`using Super = Base;`) to call it as `Super::f()`: the resolver
    // follows the alias to the class whose members those are.
    const type = def.childForFieldId(this.f.type)?.childForFieldId(this.f.type);
    const target = type ? this.typeName(type) : null;
    if (target) this.b.localType(name, ALIAS_OF, target);
  }

  /**
   * `typedef Foo Bar;`, `typedef struct foo foo_t;`, `typedef Foo *FooPtr;`: the alias names Foo, as
   * `using Bar = Foo;` does (a call on a `Bar b` is one of Foo's). Not a function pointer's typedef,
   * whose written type is what the function returns.
   */
  protected override typedefOf(name: Node, type: Node, decl: Node): void {
    if (this.declaresFunction(decl)) return;
    const target = this.typeName(type);
    if (target) this.b.localType(name, ALIAS_OF, target);
  }

  /** Whether a declarator declares a function or a pointer to one (`(*make)(int)`), at any depth. */
  private declaresFunction(decl: Node): boolean {
    let cur: Node | null = decl;
    for (let depth = 0; cur && depth < 16; depth++) {
      if (cur.type === "function_declarator") return true;
      cur = cur.childForFieldId(this.f.declarator) ?? cur.namedChild(0);
    }
    return false;
  }

  /**
   * A macro used in a class with a `;` (`DECLARE_POD_PROPERTY(BlurAmount, float, 3.0f);`,
   * `MSO_NO_COPY_CTOR_AND_ASSIGNMENT(Host);`) reads as a member without a type: a constructor, but
   * named in upper case with a `_` and not after its class.
   */
  private isMacroCall(def: Node, name: Node, list: Node): boolean {
    if (def.type !== "declaration") return false;
    const text = this.text(name);
    const cls = list.parent?.childForFieldId(this.cf.name);
    return isMacroName(text) && (!cls || this.text(cls) !== text);
  }

  private using(def: Node): void {
    const text = this.text(def);
    const target = def.namedChildren.find((c) => c && (c.type === "identifier" || c.type === "qualified_identifier"));
    if (!target) return;
    const dotted = qualifiedText(this.text(target));
    if (!dotted) return;
    if (/^using\s+namespace\b/.test(text)) {
      this.b.localType(def, USING_NAMESPACE, dotted);
      this.namespaces.add(dotted.split(".")[0]!);
    } else this.b.localType(def, USING_NAME, dotted);
  }

  /** C's calls, and `f<T>(x)`, `a::f(x)`. */
  protected override call(fn: Node, args: Node): void {
    if (fn.type === "qualified_identifier") return this.qualifiedCall(fn, args);
    if (fn.type !== "template_function") return super.call(fn, args);
    const name = fn.childForFieldId(this.cf.name);
    if (name?.type === "identifier") this.calls.push({ name, args: this.argCount(args) });
  }

  /** C's `p->f`, and `p->template f<T>` (a template method, or a dependent name of one). */
  protected override memberName(field: Node | null): Node | null {
    const method = field?.type === "dependent_name" ? field.namedChild(0) : field;
    if (method?.type !== "template_method") return super.memberName(field);
    const name = method.childForFieldId(this.cf.name);
    return name?.type === "field_identifier" ? name : null;
  }

  /** `a::b::f(x)`: a call of `f` with receiver `a.b`; `::f(x)` has receiver `::`. */
  private qualifiedCall(q: Node, args: Node): void {
    const segments: string[] = [];
    let cur: Node | null = q;
    let global = false;
    for (let depth = 0; cur && cur.type === "qualified_identifier" && depth < 16; depth++) {
      const scope = cur.childForFieldId(this.cf.scope);
      if (!scope) global = segments.length === 0;
      else segments.push(bareName(this.text(scope)));
      cur = cur.childForFieldId(this.cf.name);
    }
    if (!cur) return;
    const nameNode = cur.type === "template_function" ? cur.childForFieldId(this.cf.name) : cur;
    if (!nameNode || nameNode.type !== "identifier") return; // operators, destructors
    const receiver = global && segments.length === 0 ? "::" : segments.join(".");
    if (!receiver) return;
    this.b.ref("calls", nameNode, this.text(nameNode), receiver, this.argCount(args));
  }

  /** A type as written (`Base`, `ns::Base<T>`): the name and its qualifier, template arguments dropped. */
  private typeRef(node: Node): { at: Node; name: string; receiver: string | null } | null {
    if (node.type === "template_type") {
      const n = node.childForFieldId(this.cf.name);
      return n ? this.typeRef(n) : null;
    }
    if (node.type === "type_identifier" || node.type === "identifier")
      return { at: node, name: this.text(node), receiver: null };
    if (node.type === "qualified_identifier") {
      const dotted = qualifiedText(this.text(node));
      const dot = dotted.lastIndexOf(".");
      if (dot <= 0) return dotted ? { at: node, name: dotted, receiver: null } : null;
      return { at: node, name: dotted.slice(dot + 1), receiver: dotted.slice(0, dot) };
    }
    return null;
  }

  /**
   * C's written types, and C++'s: `ns::Shape` (a ref of `Shape` with receiver `ns`), `Box<Item>` (Box,
   * then each type argument), `typename T::value`. The standard library's names (`std::vector`) are
   * not the project's, but their type arguments may be; a template's own parameters are no types.
   */
  protected override typeUse(t: Node, depth = 0): void {
    if (depth > 8) return;
    switch (t.type) {
      case "type_identifier":
        if (!this.isTypeParam(this.text(t), t.startIndex)) super.typeUse(t);
        return;
      case "template_type": {
        const name = t.childForFieldId(this.cf.name);
        if (name) this.typeUse(name, depth + 1);
        return this.typeArguments(t, depth);
      }
      case "qualified_identifier":
        return this.qualifiedType(t, depth);
      case "dependent_type": {
        const inner = t.namedChild(0);
        if (inner) this.typeUse(inner, depth + 1);
        return;
      }
      case "class_specifier":
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier": {
        // `class ns::Shape *p`: the name written after the keyword; with a body, declared here.
        if (t.childForFieldId(this.f.body)) return;
        const name = t.childForFieldId(this.f.name);
        if (name) this.typeUse(name, depth + 1);
        return;
      }
    }
  }

  /** The type arguments of `Box<A, B*>` (values such as `Array<int, 4>`'s 4 are no types). */
  private typeArguments(templateType: Node, depth: number): void {
    const args = templateType.childForFieldId(this.cf.arguments);
    if (!args) return;
    for (const a of args.namedChildren) {
      const type = a?.type === "type_descriptor" ? a.childForFieldId(this.f.type) : null;
      if (type) this.typeUse(type, depth + 1);
    }
  }

  /** `a::b::Shape`, `std::vector<Item>`, `Box<Item>::Iter`: the type, then the type arguments on the way. */
  private qualifiedType(q: Node, depth: number): void {
    const segments: string[] = [];
    let cur: Node | null = q;
    for (let i = 0; cur?.type === "qualified_identifier" && i < 16; i++) {
      const scope = cur.childForFieldId(this.cf.scope);
      if (scope) {
        if (scope.type === "template_type") this.typeArguments(scope, depth);
        segments.push(bareName(this.text(scope)));
      }
      cur = cur.childForFieldId(this.cf.name);
    }
    if (!cur) return;
    let name = cur;
    if (cur.type === "template_type") {
      this.typeArguments(cur, depth);
      name = cur.childForFieldId(this.cf.name) ?? cur;
    }
    if (name.type !== "type_identifier") return;
    const root = segments[0];
    // `std::string`, `T::value_type`: not the project's.
    if (root === "std" || (root !== undefined && this.isTypeParam(root, q.startIndex))) return;
    this.b.ref("references", q, this.text(name), segments.length ? segments.join(".") : null);
  }

  private isTypeParam(name: string, at: number): boolean {
    const scopes = this.typeParams.get(name);
    return scopes !== undefined && scopes.some((s) => s.start <= at && at < s.end);
  }

  protected override declaration(def: Node, type: Node, decl: Node, defined: Set<string>, shared: boolean): void {
    const parent = def.parent;
    if (parent?.type === "friend_declaration") return;
    if (this.inBody(def.startIndex)) {
      // `auto p = new Shape(..)`, `auto p = std::make_unique<Shape>(..)`: the object's type; `auto c =
      // make()`, `auto v = db->current()`: the call, which the resolver follows to what it returns;
      // `auto& r = this->repo`, `auto* s = shape`: the member or the value, of its type.
      if (type.type === "placeholder_type_specifier" && decl.type === "init_declarator") {
        const d = this.declarator(decl);
        const value = decl.childForFieldId(this.f.value);
        let t = value ? this.createdType(value) : null;
        if (!t && value && AUTO_FROM.has(value.type)) t = this.receiver(value);
        if (d && !d.params && t && d.name.type === "identifier") this.b.localType(d.name, this.text(d.name), t);
        return;
      }
      return super.declaration(def, type, decl, defined, shared);
    }
    const holder = templateParent(def);
    if (holder?.type !== "field_declaration_list") {
      // `int Shape::count = 0;`: the definition of a static member its class declares.
      const d = this.declarator(decl);
      if (d && this.qualifiers.has(d.name.id)) return;
    }
    if (holder?.type === "field_declaration_list") {
      // A member declared in its class: a constructor (`Shape(int);`), a destructor, a method.
      const d = this.declarator(decl);
      if (d?.params) this.fns.push({ def, name: d.name, params: d.params, body: null, prototype: true });
      return;
    }
    return super.declaration(def, type, decl, defined, shared);
  }

  protected override field(def: Node, type: Node, decl: Node, shared: boolean): void {
    if (def.parent?.type === "friend_declaration") return;
    const d = this.declarator(decl);
    if (d?.params) {
      this.fns.push({ def: shared ? decl : def, name: d.name, params: d.params, body: null, prototype: true });
      return;
    }
    if (!d) return;
    const head = this.b.source.slice(def.startIndex, type.startIndex);
    const isStatic = /\bstatic\b/.test(head);
    this.b.symbol(isStatic && /\bconst(expr)?\b/.test(head) ? "constant" : "property", shared ? decl : def, d.name, {
      exported: true,
      isStatic,
      visibility: this.visibility(def),
    });
    const typeName = this.typeName(type);
    if (typeName) this.b.localType(def, `this.${this.text(d.name)}`, typeName);
  }

  protected override function(fn: FnDef): void {
    const { def, name, params, body } = fn;
    const ctx = this.context(def);
    const qualifier = this.qualifiers.get(name.id);
    const nameText = this.text(name);
    const head = this.b.source.slice(def.startIndex, name.startIndex);
    const isStatic = /\bstatic\b/.test(head);
    let end = body ? body.startIndex : def.endIndex;
    if (!body && this.b.source.endsWith(";", end)) end--;
    const common = {
      paramCount: params ? this.paramCount(params) : null,
      signatureEnd: end,
      multilineSignature: true,
      docNode: templateOf(def),
    };
    const emit = (kind: NodeKind, options: SymbolOptions) => {
      this.b.symbol(kind, def, name, { ...common, ...options });
      // The return type, for calls on what a call returns: `versions_->current()->Ref()`.
      const returns = def.childForFieldId(this.f.type);
      const type = returns ? this.typeName(returns) : null;
      if (type) this.b.localType(name, "()", type);
    };
    if (qualifier?.length) {
      // `void Shape::area() {}`: the member of Shape, wherever it is written.
      const owner = qualifiedOwner(ctx.path, qualifier).join(".");
      const cls = qualifier[qualifier.length - 1]!;
      const kind: NodeKind =
        nameText === cls ? "constructor" : this.namespaces.has(cls) && !ctx.cls ? "function" : "method";
      emit(kind, { owner, exported: !ctx.internal });
      if (kind === "method") this.outOfLineMethods.push({ name, qname: `${owner}.${nameText}` });
      return;
    }
    if (ctx.cls) {
      const qname = [...ctx.path, nameText].join(".");
      if (fn.prototype && this.definedOutOfLine().has(qname)) {
        // The definition below stands for it; it overrides what the declaration would have.
        this.replaced.add(qname);
        return;
      }
      const clsName = ctx.path[ctx.path.length - 1];
      const kind: NodeKind = nameText === clsName ? "constructor" : "method";
      emit(kind, { exported: !ctx.internal, isStatic, visibility: this.visibility(def) });
      return;
    }
    if (fn.prototype && ctx.path.length && this.definedOutOfLine().has([...ctx.path, nameText].join("."))) return;
    emit("function", { exported: !isStatic && !ctx.internal });
  }

  /** Qualified names of the functions this file defines (in or out of their namespace and class). */
  private definedOutOfLine(): Set<string> {
    if (this.outOfLine) return this.outOfLine;
    const out = new Set<string>();
    for (const fn of this.fns) {
      if (fn.prototype) continue;
      const q = this.qualifiers.get(fn.name.id) ?? [];
      out.add([...qualifiedOwner(this.context(fn.def).path, q), this.text(fn.name)].join("."));
    }
    this.outOfLine = out;
    return out;
  }

  protected override internal(def: Node): boolean {
    return this.context(def).internal;
  }

  private visibility(def: Node): "public" | "private" | "protected" | null {
    const body = templateParent(def);
    if (!body || body.type !== "field_declaration_list") return null;
    const labels = this.access.get(body.id);
    if (!labels) return null;
    let vis: "public" | "private" | "protected" = body.parent?.type === "class_specifier" ? "private" : "public";
    for (const l of labels) {
      if (l.at > def.startIndex) break;
      vis = l.vis;
    }
    return vis;
  }

  /** Enclosing namespaces and classes of a node, outermost first. */
  private context(node: Node): Context {
    const path: string[] = [];
    let cls: Node | null = null;
    let internal = false;
    for (let cur = node.parent; cur; cur = cur.parent) {
      if (cur.type === "namespace_definition") {
        const n = cur.childForFieldId(this.cf.name);
        if (!n) internal = true;
        else path.unshift(...qualifiedText(this.text(n)).split("."));
      } else if (CLASS_SPECIFIERS.has(cur.type)) {
        const n = cur.childForFieldId(this.cf.name);
        if (n && cur.childForFieldId(this.cf.body)) {
          path.unshift(...qualifiedText(this.text(n)).split("."));
          cls ??= cur;
        }
      } else if (cur.type === "compound_statement") {
        // A local class's members are not named after the function around them here.
        break;
      }
    }
    return { path, cls, internal };
  }

  // ---- helpers ----

  /** C++ declarators also end in `Shape::area` (whose qualifier is kept), destructors, operators and templates. */
  protected override declaredName(node: Node, params: Node | null): { name: Node; params: Node | null } | null {
    const cast = this.misreadCast(node);
    if (cast) return { name: cast, params };
    if (node.type === "qualified_identifier") {
      // `Shape::area`, `ns::Box<T>::get`: the qualifier, then the name.
      const { qualifier, last: q } = this.qualified(node);
      if (!q || !this.isMemberName(q)) return null;
      const name = q.type === "template_function" ? q.childForFieldId(this.cf.name) : q;
      if (!name) return null;
      this.qualifiers.set(name.id, qualifier);
      return { name, params };
    }
    if (!this.isMemberName(node)) return null;
    const name = node.type === "template_function" ? node.childForFieldId(this.cf.name) : node;
    return name ? { name, params } : null;
  }

  /** The scopes of a qualified name (`ns::Box<T>::get`: `ns`, `Box`) and the node after the last `::`. */
  private qualified(node: Node): { qualifier: string[]; last: Node | null } {
    const qualifier: string[] = [];
    let last: Node | null = node;
    for (let i = 0; last && last.type === "qualified_identifier" && i < 16; i++) {
      const scope = last.childForFieldId(this.cf.scope);
      if (scope) qualifier.push(bareName(this.text(scope)));
      last = last.childForFieldId(this.cf.name);
    }
    return { qualifier, last };
  }

  /**
   * `inline Shape::operator bool() const {..}`: after a specifier the grammar reads `Shape::operator` as
   * the return type and the converted-to type as the function's name, which made functions named
   * `bool`, `int32_t` or `std.string` (that `std::string(s)` then called). The definition is the
   * class's member `operator`; its name node is the `operator` word.
   */
  private misreadCast(node: Node): Node | null {
    // `LIBLET_PUBLICAPI Token::operator bool()`: the word is an error inside the qualified name.
    if (node.type === "qualified_identifier") {
      const word = node.children.find((c) => c?.type === "ERROR" && this.text(c) === "operator");
      const scope = node.childForFieldId(this.cf.scope);
      if (word && scope) {
        this.qualifiers.set(word.id, [bareName(this.text(scope))]);
        return word;
      }
    }
    const decl = node.parent;
    const def = decl?.type === "function_declarator" ? decl.parent : null;
    if (def?.type !== "function_definition" || def.childForFieldId(this.f.declarator)?.id !== decl!.id) return null;
    const type = def.childForFieldId(this.f.type);
    if (!type || !/(^|::)\s*operator$/.test(this.text(type))) return null;
    const { qualifier, last: q } = this.qualified(type);
    if (!q || this.text(q) !== "operator") return null;
    this.qualifiers.set(q.id, qualifier);
    return q;
  }

  private isMemberName(n: Node): boolean {
    return (
      this.isName(n) || n.type === "destructor_name" || n.type === "operator_name" || n.type === "template_function"
    );
  }

  /** A receiver as the resolver reads it; C++ adds calls on the way (`a->b()->c()`: `a.b()`). */
  protected override receiver(node: Node, depth = 0): string | null {
    if (depth > 8) return null;
    if (node.type === "cast_expression") return this.castTo(node.childForFieldId(this.f.type));
    if (node.type === "call_expression") {
      const fn = node.namedChild(0);
      if (!fn) return null;
      if (fn.type === "template_function" && CASTS.has(this.text(fn.childForFieldId(this.cf.name) ?? fn)))
        return this.castTo(fn.childForFieldId(this.cf.arguments)?.namedChild(0) ?? null);
      if (fn.type === "identifier") return `${this.text(fn)}()`;
      if (fn.type === "field_expression") {
        const arg = fn.childForFieldId(this.f.argument);
        const field = fn.childForFieldId(this.f.field);
        if (!arg || !field || field.type !== "field_identifier") return null;
        const left = this.receiver(arg, depth + 1);
        return left ? `${left}.${this.text(field)}()` : null;
      }
      return null;
    }
    if (node.type === "field_expression") {
      const arg = node.childForFieldId(this.f.argument);
      const field = node.childForFieldId(this.f.field);
      if (!arg || !field || field.type !== "field_identifier") return null;
      const left = this.receiver(arg, depth + 1);
      return left ? `${left}.${this.text(field)}` : null;
    }
    return super.receiver(node, depth);
  }

  /**
   * `static_cast<Shape*>(p)->area()`, `((geo::Shape*)p)->area()`: a value of the type cast to (its
   * `type_descriptor`), written as a made one (`new geo.Shape()`, which C++'s resolver reads whole).
   */
  private castTo(descriptor: Node | null): string | null {
    const type = descriptor?.type === "type_descriptor" ? descriptor.childForFieldId(this.f.type) : null;
    const name = type ? this.typeName(type) : null;
    return name ? valueOfType(name) : null;
  }

  protected override paramCount(params: Node): number | null {
    for (const p of params.namedChildren) {
      // Defaults and parameter packs: the count of arguments varies.
      if (p && (p.type === "optional_parameter_declaration" || p.type === "variadic_parameter_declaration"))
        return null;
    }
    return super.paramCount(params);
  }

  protected override typeName(type: Node): string | null {
    switch (type.type) {
      case "template_type": {
        const name = type.childForFieldId(this.cf.name);
        if (!name) return null;
        const base = this.text(name);
        if (SMART_POINTERS.has(base)) return this.firstTypeArgument(type);
        return base;
      }
      case "qualified_identifier": {
        // `std::unique_ptr<Shape>` is a Shape to call; `geo::Shape` is written `geo.Shape`.
        let inner: Node | null = type;
        for (let i = 0; inner && inner.type === "qualified_identifier" && i < 16; i++)
          inner = inner.childForFieldId(this.cf.name);
        if (inner?.type === "template_type") {
          const n = inner.childForFieldId(this.cf.name);
          if (n && SMART_POINTERS.has(this.text(n))) return this.firstTypeArgument(inner);
        }
        return qualifiedText(this.text(type)) || null;
      }
      default:
        return super.typeName(type);
    }
  }

  private firstTypeArgument(templateType: Node): string | null {
    const args = templateType.childForFieldId(this.cf.arguments);
    const first = args?.namedChild(0);
    const t = first?.type === "type_descriptor" ? first.childForFieldId(this.f.type) : null;
    return t ? this.typeName(t) : null;
  }

  /** The type an initialiser creates: `new T(..)`, `T(..)`, `std::make_unique<T>(..)`. */
  private createdType(value: Node): string | null {
    if (value.type === "new_expression") {
      const t = value.childForFieldId(this.f.type);
      return t ? this.typeName(t) : null;
    }
    if (value.type === "call_expression") {
      const fn = value.namedChild(0);
      if (!fn) return null;
      let inner: Node | null = fn;
      for (let i = 0; inner && inner.type === "qualified_identifier" && i < 16; i++)
        inner = inner.childForFieldId(this.cf.name);
      if (inner?.type === "template_function") {
        const n = inner.childForFieldId(this.cf.name);
        if (n && /^make_(unique|shared)$/.test(this.text(n))) {
          const args = inner.childForFieldId(this.cf.arguments);
          const first = args?.namedChild(0);
          const t = first?.type === "type_descriptor" ? first.childForFieldId(this.f.type) : null;
          return t ? this.typeName(t) : null;
        }
      }
    }
    return null;
  }
}

/** `Box<int>` → `Box`; `~Box` stays. */
function bareName(text: string): string {
  const lt = text.indexOf("<");
  return (lt < 0 ? text : text.slice(0, lt)).trim();
}

/** `::a::Box<T>::b` → `a.Box.b`: our dotted form, template arguments dropped. */
function qualifiedText(text: string): string {
  let depth = 0;
  let out = "";
  for (const ch of text) {
    if (ch === "<") depth++;
    else if (ch === ">") depth--;
    else if (depth === 0 && !/\s/.test(ch)) out += ch;
  }
  return out
    .split("::")
    .filter((s) => s.length > 0)
    .join(".");
}

/** The node a declaration's comment sits above: its `template <...>` line when it has one. */
function templateOf(def: Node): Node | undefined {
  const p = def.parent;
  return p?.type === "template_declaration" ? p : undefined;
}

/** A declaration's container, through `template <...>` wrappers. */
function templateParent(def: Node): Node | null {
  let p = def.parent;
  while (p?.type === "template_declaration") p = p.parent;
  return p;
}

/**
 * Whether a header's text is C++ rather than C: a class, a namespace, a template, `using namespace`,
 * an access label, a qualified name at the start of a declaration (`void Shape::area(`), `extern "C++"`,
 * or a standard C++ header included (`<vector>`: C's all end in `.h`).
 */
const CPP_TEXT =
  /^[ \t]*(?:class[ \t]+[A-Za-z_]\w*[ \t]*[:{;]|class[ \t]+[A-Za-z_]\w*[ \t]*$|(?:inline[ \t]+)?namespace(?:[ \t]+[\w:]+)?[ \t]*\{|template[ \t]*<|using[ \t]+namespace[ \t]|(?:public|private|protected)[ \t]*:|#[ \t]*include[ \t]*<[a-z_]+>|extern[ \t]+"C\+\+")|^[A-Za-z_][\w \t*&<>,]*\b[A-Za-z_]\w*::~?[A-Za-z_]\w*[ \t]*\(/m;

export function looksLikeCpp(source: string): boolean {
  return CPP_TEXT.test(source);
}

export const cppExtractor: LanguageExtractor = {
  id: "cpp",
  grammar: "tree-sitter-cpp.wasm",
  parseText: (source: string) => blankExportMacros(blankSplitHeads(blankMemberMacros(blankDecltypeCommas(source)))),
  prepare(language: Language, compile: (source: string) => Query) {
    const cf = fieldIds(language, "tree-sitter-cpp", CPP_FIELD_NAMES);
    return cFamilyExtract(
      language,
      "tree-sitter-cpp",
      [...C_PATTERNS, ...CPP_PATTERNS],
      compile,
      (b, f, path) => new CppFile(b, f, path, cf),
    );
  },
};

/**
 * What a qualifier written inside namespaces names (`void a::b::X::f()` in `namespace a::b`): as
 * C++ looks its first name up, from the innermost enclosing namespace outward, so a definition
 * that spells its own namespace out is not nested in it twice.
 */
function qualifiedOwner(path: readonly string[], qualifier: readonly string[]): string[] {
  const at = path.lastIndexOf(qualifier[0]!);
  return at < 0 ? [...path, ...qualifier] : [...path.slice(0, at), ...qualifier];
}
