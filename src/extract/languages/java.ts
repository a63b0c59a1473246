import { Query, type Language, type Node, type QueryMatch, type Tree } from "web-tree-sitter";
import type { ExtractResult, ExtractedSymbol } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { dottedName, splitLast } from "../ts-helpers.js";

/** Capture names say what a match is; `@name`/`@body` are its parts. */
const QUERY = `
(block_comment) @comment
(package_declaration) @package
(import_declaration) @import
(class_declaration name: (identifier) @name body: (_) @body) @def.class
(record_declaration name: (identifier) @name body: (_) @body) @def.record
(interface_declaration name: (identifier) @name body: (_) @body) @def.interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @def.interface
(enum_declaration name: (identifier) @name body: (_) @body) @def.enum
(enum_constant name: (identifier) @name) @def.enum_member
(method_declaration name: (identifier) @name) @def.method
(annotation_type_element_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name body: (_) @body) @def.constructor
(compact_constructor_declaration name: (identifier) @name body: (_) @body) @def.compact
(field_declaration) @def.field
(constant_declaration) @def.field
(method_invocation !object name: (identifier) @callee arguments: (argument_list) @args) @call
(method_invocation object: (_) @recv name: (identifier) @callee arguments: (argument_list) @args) @call
(object_creation_expression type: (_) @type arguments: (argument_list) @args) @new
(explicit_constructor_invocation constructor: (_) @ctor arguments: (argument_list) @args) @ctorcall
(method_reference) @methodref
(superclass (_) @extends)
(super_interfaces (type_list (_) @implements))
(extends_interfaces (type_list (_) @extends))
(local_variable_declaration type: (_) @lt.type declarator: (variable_declarator name: (identifier) @lt.name))
(formal_parameter type: (_) @lt.type name: (identifier) @lt.name)
(catch_formal_parameter (catch_type . (_) @lt.type .) name: (identifier) @lt.name)
(enhanced_for_statement type: (_) @lt.type name: (identifier) @lt.name)
(resource type: (_) @lt.type name: (identifier) @lt.name)
(instanceof_expression right: (_) @lt.type name: (identifier) @lt.name)
(type_parameter . (type_identifier) @typeparam)
`;

const ANNOTATIONS = new Set(["marker_annotation", "annotation"]);
const COMMENTS = new Set(["line_comment", "block_comment"]);
/** Bodies whose members are implicitly public (and, for fields and member types, static). */
const INTERFACE_BODIES = new Set(["interface_body", "annotation_type_body"]);
/** Containers of member declarations: a declaration whose parent is one of these is a member. */
const MEMBER_BODIES = new Set(["class_body", "interface_body", "annotation_type_body", "enum_body_declarations"]);
/** Kinds that are implicitly static when declared as a member of another type. */
const IMPLICITLY_STATIC_MEMBER_TYPES = new Set([
  "record_declaration",
  "interface_declaration",
  "annotation_type_declaration",
  "enum_declaration",
]);

type Visibility = ExtractedSymbol["visibility"];

/** Options every member declaration shares. */
interface Common {
  docNode: Node;
  visibility: Visibility;
  exported: boolean;
  isStatic: boolean;
}

interface Modifiers {
  visibility: Visibility;
  isStatic: boolean;
  /** First node of the declaration that is not an annotation: where its signature starts. */
  start: Node;
}

function capturesOf(m: QueryMatch): Map<string, Node> {
  const map = new Map<string, Node>();
  for (const c of m.captures) map.set(c.name, c.node);
  return map;
}

/** A node-shaped range from the start of one node to the end of another, for the builder's spans. */
function spanOf(start: Node, end: Node): Node {
  if (start.startIndex === end.startIndex && start.endIndex === end.endIndex) return end;
  const span: Pick<Node, "startIndex" | "endIndex" | "startPosition" | "endPosition"> = {
    startIndex: start.startIndex,
    endIndex: end.endIndex,
    startPosition: start.startPosition,
    endPosition: end.endPosition,
  };
  return span as Node;
}

/** Named children that are not comments. */
function namedKids(node: Node): Node[] {
  const out: Node[] = [];
  for (const c of node.namedChildren) if (c && !COMMENTS.has(c.type)) out.push(c);
  return out;
}

/** Modifier keywords of a declaration (a small walk over its `modifiers` node), and where its head starts. */
function modifiersOf(def: Node): Modifiers {
  let visibility: Visibility = null;
  let isStatic = false;
  let start: Node = def;
  const mods = def.namedChild(0);
  if (mods?.type === "modifiers") {
    let sawKeyword = false;
    for (const m of mods.children) {
      if (!m) continue;
      const t = m.type;
      if (ANNOTATIONS.has(t) || COMMENTS.has(t)) continue;
      if (!sawKeyword) {
        start = m;
        sawKeyword = true;
      }
      if (t === "public" || t === "private" || t === "protected") visibility = t;
      else if (t === "static") isStatic = true;
    }
    if (!sawKeyword) {
      // Only annotations: the head starts at the next token after them.
      let next = mods.nextSibling;
      while (next && COMMENTS.has(next.type)) next = next.nextSibling;
      if (next) start = next;
    }
  }
  return { visibility, isStatic, start };
}

/** Formal parameter count; null for varargs. The receiver parameter `Foo this` does not count. */
function paramCount(params: Node | null): number | null {
  if (!params) return null;
  let n = 0;
  for (const p of namedKids(params)) {
    if (p.type === "spread_parameter") return null;
    if (p.type === "receiver_parameter") continue;
    if (p.type === "formal_parameter" && p.childForFieldName("name")?.type === "this") continue;
    n++;
  }
  return n;
}

function argCount(args: Node | undefined | null): number | null {
  return args ? namedKids(args).length : null;
}

/** True for a member of an anonymous class body (`new Foo() { ... }`, an enum constant's body): not indexed. */
function inAnonymousBody(def: Node): boolean {
  const parent = def.parent;
  if (parent?.type !== "class_body") return false;
  const owner = parent.parent?.type;
  return owner === "object_creation_expression" || owner === "enum_constant";
}

/** A node-shaped position on no line, so the builder finds no comment above it. */
const NO_DOC = { startPosition: { row: -2, column: 0 } } as Node;

class JavaFile {
  packageName: string | null = null;
  /** Names declared as type parameters (`<T>`) anywhere in the file: not classes a variable can be typed with. */
  private readonly typeParams = new Set<string>();
  private readonly pendingTypes: { at: Node; name: string; typeName: string }[] = [];

  constructor(private readonly b: ExtractionBuilder) {}

  private readonly textOf = (n: Node): string => this.b.text(n);

  handle(m: QueryMatch): void {
    const first = m.captures[0]!;
    if (first.name === "comment") {
      if (this.b.source.startsWith("/**", first.node.startIndex)) this.b.comment(first.node);
      return;
    }
    const c = capturesOf(m);
    for (const [name, node] of c) {
      if (name.startsWith("def.")) return this.definition(name.slice(4), node, c);
    }
    if (c.has("call")) return this.call(c);
    if (c.has("new")) return this.instantiation(c);
    if (c.has("ctorcall")) {
      const ctor = c.get("ctor")!;
      return this.b.ref("calls", ctor, "constructor", this.b.text(ctor), argCount(c.get("args")));
    }
    if (c.has("methodref")) return this.methodReference(c.get("methodref")!);
    if (c.has("extends")) return this.heritage("extends", c.get("extends")!);
    if (c.has("implements")) return this.heritage("implements", c.get("implements")!);
    if (c.has("lt.type")) return this.localType(c.get("lt.name")!, c.get("lt.type")!);
    if (c.has("import")) return this.importDeclaration(c.get("import")!);
    if (c.has("package")) return this.packageDeclaration(c.get("package")!);
    if (c.has("typeparam")) this.typeParams.add(this.b.text(c.get("typeparam")!));
  }

  /** Hand the collected variable types to the builder, minus those typed by a type parameter. */
  flushTypes(): void {
    for (const t of this.pendingTypes) {
      const head = t.typeName.split(".")[0]!;
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
    }
  }

  private definition(kind: string, def: Node, c: Map<string, Node>): void {
    if (inAnonymousBody(def)) return;
    const b = this.b;
    const name = c.get("name") ?? null;
    const body = c.get("body") ?? def.childForFieldName("body");
    const mods = modifiersOf(def);
    const parentType = def.parent?.type ?? "";
    const inInterface = INTERFACE_BODIES.has(parentType);
    // Interface members are implicitly public unless declared private.
    const visibility: Visibility = mods.visibility ?? (inInterface ? "public" : null);
    const common: Common = { docNode: def, visibility, exported: visibility === "public", isStatic: mods.isStatic };
    const node = spanOf(mods.start, def);
    switch (kind) {
      case "class":
      case "record":
      case "interface":
      case "enum": {
        const nodeKind: NodeKind = kind === "record" ? "class" : kind;
        const member = MEMBER_BODIES.has(parentType);
        const isStatic = common.isStatic || (member && (inInterface || IMPLICITLY_STATIC_MEMBER_TYPES.has(def.type)));
        b.symbol(nodeKind, node, name, { ...common, isStatic, signatureEnd: body?.startIndex });
        if (kind === "record") this.recordComponents(def);
        return;
      }
      case "enum_member": {
        // Enum constants are implicitly public static final.
        b.symbol("enum_member", node, name, {
          ...common,
          visibility: "public",
          exported: true,
          isStatic: true,
          signatureEnd: body?.startIndex,
        });
        return;
      }
      case "method": {
        const end = body
          ? body.startIndex
          : this.b.source.endsWith(";", def.endIndex)
            ? def.endIndex - 1
            : def.endIndex;
        b.symbol("method", node, name, {
          ...common,
          signatureEnd: end,
          paramCount:
            def.type === "annotation_type_element_declaration" ? 0 : paramCount(def.childForFieldName("parameters")),
        });
        return;
      }
      case "constructor":
        b.symbol("constructor", node, name, {
          ...common,
          signatureEnd: body?.startIndex,
          paramCount: paramCount(def.childForFieldName("parameters")),
        });
        return;
      case "compact": {
        // `record R(int x) { R { ... } }`: the canonical constructor, taking every component.
        const record = def.parent?.parent;
        const params = record?.type === "record_declaration" ? record.childForFieldName("parameters") : null;
        b.symbol("constructor", node, name, {
          ...common,
          signatureEnd: body?.startIndex,
          paramCount: paramCount(params),
        });
        return;
      }
      case "field":
        return this.field(def, mods, common);
    }
  }

  /** One property per declarator: `int a = 1, b;` gives `a` and `b`, with non-overlapping spans. */
  private field(def: Node, mods: Modifiers, common: Common): void {
    const declarators = def.childrenForFieldName("declarator").filter((d): d is Node => d !== null);
    const type = def.childForFieldName("type");
    const typeName = type ? this.typeName(type) : null;
    // Interface fields are constants: implicitly public static final.
    const isStatic =
      common.isStatic || def.type === "constant_declaration" || INTERFACE_BODIES.has(def.parent?.type ?? "");
    declarators.forEach((d, i) => {
      const name = d.childForFieldName("name");
      if (!name) return;
      const node = i === 0 ? spanOf(mods.start, declarators.length === 1 ? def : d) : d;
      this.b.symbol("property", node, name, { ...common, isStatic, signatureEnd: d.endIndex });
      // Array declarators (`Foo xs[]`) hold arrays, not a Foo.
      if (typeName && !d.childForFieldName("dimensions")) this.addType(d, `this.${this.b.text(name)}`, typeName);
    });
  }

  /** `record R(Repo repo)`: each component is a private final field of the record. */
  private recordComponents(record: Node): void {
    const params = record.childForFieldName("parameters");
    if (!params) return;
    for (const p of namedKids(params)) {
      const name =
        p.childForFieldName("name") ??
        (p.type === "spread_parameter" ? p.lastNamedChild?.childForFieldName("name") : null);
      if (!name) continue;
      // The record's own doc comment sits above the header these components are written on.
      this.b.symbol("property", p, name, { visibility: "private", docNode: NO_DOC });
      const type = p.childForFieldName("type");
      const typeName = type && p.type === "formal_parameter" ? this.typeName(type) : null;
      if (typeName) this.addType(p, `this.${this.b.text(name)}`, typeName);
    }
  }

  private call(c: Map<string, Node>): void {
    const callee = c.get("callee")!;
    const recv = c.get("recv");
    this.b.ref("calls", callee, this.b.text(callee), recv ? this.receiver(recv) : null, argCount(c.get("args")));
  }

  /** `new Foo()`, `new a.b.Foo<>()`, `new Foo() { ... }`, `outer.new Inner()`. */
  private instantiation(c: Map<string, Node>): void {
    const type = c.get("type")!;
    const dotted = this.typeName(type);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("instantiates", type, name, receiver, argCount(c.get("args")));
  }

  /** `Foo::bar` references `Foo.bar`; `Foo::new` instantiates `Foo`. */
  private methodReference(node: Node): void {
    const target = node.namedChild(0);
    const last = node.child(node.childCount - 1);
    if (!target || !last) return;
    if (last.type === "new") {
      const dotted = this.typeName(target);
      if (!dotted) return;
      const { receiver, name } = splitLast(dotted);
      this.b.ref("instantiates", target, name, receiver, null);
      return;
    }
    if (last.type !== "identifier" || last.equals(target)) return;
    this.b.ref("references", last, this.b.text(last), this.receiver(target));
  }

  private heritage(kind: "extends" | "implements", node: Node): void {
    const dotted = this.typeName(node);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref(kind, node, name, receiver);
  }

  private localType(name: Node, type: Node): void {
    const nameText = this.b.text(name);
    if (nameText === "this") return;
    // Record components are fields (`this.x`, recorded with the record), not locals.
    if (name.parent?.parent?.parent?.type === "record_declaration") return;
    let typeName = this.typeName(type);
    if (typeName === "var") {
      // `var x = new Foo()`: the type is whatever is constructed.
      const value = name.parent?.childForFieldName("value");
      const created = value?.type === "object_creation_expression" ? value.childForFieldName("type") : null;
      typeName = created ? this.typeName(created) : null;
    }
    // `Foo xs[]` declares an array.
    if (!typeName || name.parent?.childForFieldName("dimensions")) return;
    this.addType(name, nameText, typeName);
  }

  private addType(at: Node, name: string, typeName: string): void {
    this.pendingTypes.push({ at, name, typeName });
  }

  /**
   * The dotted name of a class type with generics stripped: `Foo`, `a.b.Foo`, `Map<K, V>` → `Map`,
   * `Outer<T>.Inner` → `Outer.Inner`. Null for primitives, arrays and wildcards.
   */
  private typeName(type: Node): string | null {
    switch (type.type) {
      case "type_identifier":
      case "identifier":
        return this.b.text(type);
      case "annotated_type": {
        const inner = type.lastNamedChild;
        return inner ? this.typeName(inner) : null;
      }
      case "generic_type": {
        const inner = type.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case "scoped_type_identifier":
      case "scoped_identifier":
      case "field_access": {
        const kids = namedKids(type).filter((k) => !ANNOTATIONS.has(k.type));
        const left = kids[0];
        const right = kids[kids.length - 1];
        if (!left || !right || kids.length < 2) return null;
        const l = this.typeName(left);
        return l ? `${l}.${this.b.text(right)}` : null;
      }
      default:
        return null;
    }
  }

  /** Receiver text: `x`, `this`, `super`, `a.b`, `this.repo`; `Outer.this` is `Outer`; anything computed is `?`. */
  private receiver(node: Node): string {
    const dotted = dottedName(node, this.textOf);
    if (!dotted) return "?";
    const m = /^(.+)\.(this|super)$/.exec(dotted);
    return m ? m[1]! : dotted;
  }

  private importDeclaration(decl: Node): void {
    let path: Node | null = null;
    let wildcard = false;
    for (const k of namedKids(decl)) {
      if (k.type === "asterisk") wildcard = true;
      else if (k.type === "scoped_identifier" || k.type === "identifier") path = k;
    }
    if (!path) return;
    const dotted = dottedName(path, this.textOf);
    if (!dotted) return;
    const line = decl.startPosition.row + 1;
    let local: string;
    let specifier: string;
    if (wildcard) {
      local = "*";
      specifier = dotted;
    } else {
      const { receiver, name } = splitLast(dotted);
      // `import Foo;` names a class of the unnamed package, which nothing can import.
      if (receiver === null) return;
      local = name;
      specifier = receiver;
    }
    this.b.import({ local, imported: local, specifier, line, reexport: false });
    this.b.symbol("import", decl, null, { name: local });
  }

  private packageDeclaration(decl: Node): void {
    const path = namedKids(decl).find((k) => k.type === "scoped_identifier" || k.type === "identifier");
    if (path) this.packageName = dottedName(path, this.textOf);
  }
}

export const javaExtractor: LanguageExtractor = {
  id: "java",
  extensions: [".java"],
  grammar: "tree-sitter-java.wasm",
  prepare(language: Language) {
    const query = new Query(language, QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const file = new JavaFile(b);
      const root = tree.rootNode;
      for (const m of query.matches(root)) file.handle(m);
      file.flushTypes();
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
};
