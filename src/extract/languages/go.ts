import { Query, type Language, type Node, type QueryMatch, type Tree } from "web-tree-sitter";
import type { ExtractResult } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast, unquote } from "../ts-helpers.js";

/**
 * One flat query for the whole file. One capture per pattern (listed in MATCH_KINDS) says what the
 * match is; the others are its parts.
 * Fields, method specs and embeddings are matched only directly under a named type, so anonymous
 * `struct{...}` / `interface{...}` types inside functions or other types add no members.
 */
const QUERY = `
(comment) @comment
(package_clause (package_identifier) @package)
(function_declaration name: (identifier) @name) @def.function
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (_) @type) @def.type
(type_alias name: (type_identifier) @name) @def.alias
(type_spec type: (struct_type (field_declaration_list (field_declaration) @field)))
(type_spec type: (interface_type (method_spec name: (field_identifier) @name) @def.method_spec))
(type_spec type: (interface_type (constraint_elem . [(type_identifier) (qualified_type) (generic_type)] @embed .)))
(const_spec) @const
(var_spec) @var
(import_spec path: (_) @path) @import
(call_expression function: (_) @callee arguments: (argument_list) @args) @call
(composite_literal type: (_) @type) @composite
(short_var_declaration left: (expression_list) @left right: (expression_list) @right) @short
(func_literal parameters: (parameter_list) @params) @closure
`;

/** Predeclared types: a variable of one of these has no methods worth resolving. */
const PREDECLARED = new Set([
  "any",
  "bool",
  "byte",
  "comparable",
  "complex64",
  "complex128",
  "error",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uintptr",
]);

/** The capture that names what a match is; the others are its parts. */
const MATCH_KINDS = new Set([
  "comment",
  "package",
  "def.function",
  "def.method",
  "def.type",
  "def.alias",
  "field",
  "def.method_spec",
  "embed",
  "const",
  "var",
  "import",
  "call",
  "composite",
  "short",
  "closure",
]);

const DECLARATIONS = new Set(["function_declaration", "method_declaration", "type_spec"]);

function capturesOf(m: QueryMatch): Map<string, Node> {
  const map = new Map<string, Node>();
  for (const c of m.captures) map.set(c.name, c.node);
  return map;
}

function named(node: Node | null): Node[] {
  return node ? node.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment") : [];
}

/** Children in a field, without the commas some grammar rules put in the field too (`a, b int`). */
function fieldNodes(node: Node, field: string): Node[] {
  return node.childrenForFieldName(field).filter((n): n is Node => n !== null && n.isNamed);
}

/** Go's export rule: the name starts with an upper-case letter. */
function isExported(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** Declared parameters: `a, b int` counts 2, `(int, string)` counts 2; null when variadic. */
function paramCount(params: Node | null): number | null {
  if (!params) return null;
  let n = 0;
  for (const p of named(params)) {
    if (p.type === "variadic_parameter_declaration") return null;
    if (p.type !== "parameter_declaration") continue;
    n += Math.max(1, fieldNodes(p, "name").length);
  }
  return n;
}

/**
 * The local package name a Go import path binds by default: its last segment, skipping a `/v2`
 * major-version segment and trimming `go-` / `-go` / `.go` / `.v3` decorations (`gopkg.in/yaml.v3` → `yaml`).
 */
export function goPackageNameFromPath(path: string): string {
  const segments = path.split("/").filter(Boolean);
  let seg = segments[segments.length - 1] ?? path;
  if (/^v\d+$/.test(seg) && segments.length > 1) seg = segments[segments.length - 2]!;
  seg = seg
    .replace(/\.v\d+$/, "")
    .replace(/^go-/, "")
    .replace(/[.-]go$/, "");
  const cut = Math.max(seg.lastIndexOf("-"), seg.lastIndexOf("."));
  return cut >= 0 && cut < seg.length - 1 ? seg.slice(cut + 1) : seg;
}

class GoFile {
  packageName: string | null = null;
  /** Type parameter names per generic declaration, keyed by node id. */
  private readonly typeParamCache = new Map<number, ReadonlySet<string>>();

  constructor(private readonly b: ExtractionBuilder) {}

  private text = (n: Node): string => this.b.text(n);

  handle(m: QueryMatch): void {
    const first = m.captures.find((x) => MATCH_KINDS.has(x.name));
    if (!first) return;
    const c = capturesOf(m);
    switch (first.name) {
      case "comment":
        return this.b.comment(first.node);
      case "package":
        this.packageName ??= this.text(first.node);
        return;
      case "def.function":
        return this.func(first.node, c);
      case "def.method":
        return this.method(first.node, c);
      case "def.type":
        return this.typeSpec(first.node, c);
      case "def.alias":
        return this.typeSymbol("type_alias", first.node, c.get("name")!, null);
      case "field":
        return this.field(first.node);
      case "def.method_spec":
        return this.methodSpec(first.node, c.get("name")!);
      case "embed":
        return this.embed(first.node);
      case "const":
        return this.valueSpec("constant", first.node);
      case "var":
        return this.valueSpec("variable", first.node);
      case "import":
        return this.importSpec(first.node, c.get("path")!);
      case "call":
        return this.call(c.get("callee")!, c.get("args")!);
      case "composite":
        return this.composite(c.get("type")!);
      case "short":
        return this.assign(c.get("left")!, c.get("right")!);
      case "closure":
        return this.params(c.get("params")!);
    }
  }

  // ---- declarations ----

  private func(def: Node, c: Map<string, Node>): void {
    const params = def.childForFieldName("parameters");
    this.b.symbol("function", def, c.get("name") ?? null, {
      signatureEnd: def.childForFieldName("body")?.startIndex,
      exported: isExported(this.text(c.get("name")!)),
      paramCount: paramCount(params),
    });
    if (params) this.params(params);
  }

  private method(def: Node, c: Map<string, Node>): void {
    const receiver = c.get("receiver")!;
    const recvDecl = named(receiver).find((n) => n.type === "parameter_declaration");
    const recvType = recvDecl?.childForFieldName("type") ?? null;
    const owner = recvType ? this.receiverTypeName(recvType) : null;
    const name = c.get("name")!;
    const params = def.childForFieldName("parameters");
    this.b.symbol("method", def, name, {
      signatureEnd: def.childForFieldName("body")?.startIndex,
      exported: isExported(this.text(name)),
      paramCount: paramCount(params),
      ...(owner ? { owner } : {}),
    });
    const recvName = recvDecl?.childForFieldName("name");
    if (recvName && owner && this.text(recvName) !== "_") this.b.localType(recvName, this.text(recvName), owner);
    if (params) this.params(params);
  }

  /** `Server`, `*Server`, `Server[T]`, `*Server[T]` → `Server`. */
  private receiverTypeName(t: Node): string | null {
    for (let i = 0; i < 4; i++) {
      if (t.type === "type_identifier") return this.text(t);
      const inner: Node | null =
        t.type === "pointer_type" || t.type === "parenthesized_type"
          ? t.namedChild(0)
          : t.type === "generic_type"
            ? t.childForFieldName("type")
            : null;
      if (!inner) return null;
      t = inner;
    }
    return null;
  }

  private typeSpec(spec: Node, c: Map<string, Node>): void {
    const type = c.get("type")!;
    const kind: NodeKind =
      type.type === "struct_type" ? "struct" : type.type === "interface_type" ? "interface" : "type_alias";
    let bodyStart: number | null = null;
    if (type.type === "struct_type") {
      bodyStart = named(type).find((n) => n.type === "field_declaration_list")?.startIndex ?? null;
    } else if (type.type === "interface_type") {
      const brace = this.b.source.indexOf("{", type.startIndex);
      bodyStart = brace >= 0 && brace < type.endIndex ? brace : null;
    }
    this.typeSymbol(kind, spec, c.get("name")!, bodyStart);
  }

  private typeSymbol(kind: NodeKind, spec: Node, name: Node, bodyStart: number | null): void {
    const node = this.soleDeclaration(spec);
    this.b.symbol(kind, node, name, {
      exported: isExported(this.text(name)),
      ...(bodyStart !== null ? { signatureEnd: bodyStart } : {}),
    });
  }

  /**
   * A spec written alone (`type T struct{}`, `var x = 1`) is represented by its whole declaration, so
   * the signature starts at the keyword and the comment above it is its doc; a spec inside a group
   * `var ( ... )` stands for itself.
   */
  private soleDeclaration(spec: Node): Node {
    const decl = spec.parent;
    if (!decl) return spec;
    if (decl.type !== "type_declaration" && decl.type !== "var_declaration" && decl.type !== "const_declaration") {
      return spec;
    }
    if (decl.child(1)?.type === "(") return spec;
    return decl;
  }

  private field(decl: Node): void {
    const names = fieldNodes(decl, "name");
    const type = decl.childForFieldName("type");
    if (names.length === 0) {
      // Embedded field: `B`, `*B`, `pkg.C`, `List[T]`. Its implicit field name is the type's name.
      if (!type) return;
      const dotted = this.typeName(type, decl);
      if (!dotted) return;
      const { receiver, name } = splitLast(dotted);
      this.b.ref("extends", type, name, receiver);
      this.b.localType(type, `this.${name}`, dotted);
      return;
    }
    const typeName = type ? this.typeName(type, decl) : null;
    for (const n of names) {
      const name = this.text(n);
      this.b.symbol("property", names.length === 1 ? decl : n, n, {
        exported: isExported(name),
        signatureEnd: decl.endIndex,
        docNode: decl,
      });
      if (typeName && name !== "_") this.b.localType(n, `this.${name}`, typeName);
    }
  }

  private methodSpec(spec: Node, name: Node): void {
    this.b.symbol("method", spec, name, {
      exported: isExported(this.text(name)),
      paramCount: paramCount(spec.childForFieldName("parameters")),
    });
  }

  private embed(type: Node): void {
    const dotted = this.typeName(type, null);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("extends", type, name, receiver);
  }

  /** `const`/`var` specs: symbols at the top level only; typed or literal-valued vars give local types anywhere. */
  private valueSpec(kind: "constant" | "variable", spec: Node): void {
    const names = fieldNodes(spec, "name");
    const topLevel = spec.parent?.parent?.type === "source_file";
    if (topLevel) {
      const single = names.length === 1;
      const docNode = this.soleDeclaration(spec);
      for (const n of names) {
        this.b.symbol(kind, single ? docNode : n, n, {
          exported: isExported(this.text(n)),
          signatureEnd: spec.endIndex,
          docNode,
        });
      }
    }
    if (kind !== "variable") return;
    const type = spec.childForFieldName("type");
    if (type) {
      const typeName = this.typeName(type, spec);
      if (typeName) for (const n of names) this.local(n, typeName);
      return;
    }
    const values = named(spec.childForFieldName("value"));
    if (values.length !== names.length) return;
    names.forEach((n, i) => this.localFromValue(n, values[i]!));
  }

  // ---- imports ----

  private importSpec(spec: Node, pathNode: Node): void {
    const specifier = unquote(this.text(pathNode));
    const alias = spec.childForFieldName("name");
    const line = spec.startPosition.row + 1;
    let local: string;
    let imported: string | null = "*";
    if (!alias) local = goPackageNameFromPath(specifier);
    else if (alias.type === "dot") local = "*";
    else if (alias.type === "blank_identifier") {
      local = "";
      imported = null;
    } else local = this.text(alias);
    this.b.import({ local, imported, specifier, line, reexport: false });
    this.b.symbol("import", spec, null, { name: local });
  }

  // ---- references ----

  private call(callee: Node, args: Node): void {
    let name: Node | null = null;
    let receiver: string | null = null;
    if (callee.type === "identifier") name = callee;
    else if (callee.type === "selector_expression") {
      name = callee.childForFieldName("field");
      const operand = callee.childForFieldName("operand");
      receiver = (operand && this.dotted(operand)) ?? "?";
    }
    if (!name) return;
    this.b.ref("calls", name, this.text(name), receiver, named(args).length);
  }

  private composite(type: Node): void {
    const dotted = this.typeName(type, null);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("instantiates", type, name, receiver);
  }

  // ---- local types ----

  private params(params: Node): void {
    for (const p of named(params)) {
      if (p.type !== "parameter_declaration") continue;
      const type = p.childForFieldName("type");
      const typeName = type ? this.typeName(type, p) : null;
      if (!typeName) continue;
      for (const n of fieldNodes(p, "name")) this.local(n, typeName);
    }
  }

  private assign(left: Node, right: Node): void {
    const names = named(left);
    const values = named(right);
    if (names.length !== values.length) return;
    names.forEach((n, i) => {
      if (n.type === "identifier") this.localFromValue(n, values[i]!);
    });
  }

  /** `T{}`, `&T{}`, `new(T)` → `T`; anything else says nothing. */
  private localFromValue(name: Node, value: Node): void {
    let v: Node | null = value;
    if (v.type === "unary_expression" && this.b.source.startsWith("&", v.startIndex))
      v = v.childForFieldName("operand");
    if (!v) return;
    let type: Node | null = null;
    if (v.type === "composite_literal") type = v.childForFieldName("type");
    else if (v.type === "call_expression") {
      const fn = v.childForFieldName("function");
      const args = named(v.childForFieldName("arguments"));
      if (fn?.type === "identifier" && this.text(fn) === "new" && args.length === 1) type = args[0]!;
    }
    const typeName = type ? this.typeName(type, name) : null;
    if (typeName) this.local(name, typeName);
  }

  private local(name: Node, typeName: string): void {
    const text = this.text(name);
    if (text !== "_") this.b.localType(name, text, typeName);
  }

  /**
   * The resolvable name of a type: `T`, `*T`, `pkg.T`, `T[int]` → `T` / `pkg.T`. Null for slices, maps,
   * channels, function and literal types, predeclared types, and the type parameters in scope at `scope`.
   */
  private typeName(t: Node, scope: Node | null): string | null {
    for (let i = 0; i < 6; i++) {
      switch (t.type) {
        case "type_identifier":
        case "identifier": {
          const name = this.text(t);
          if (PREDECLARED.has(name)) return null;
          if (scope && this.typeParamsAround(scope).has(name)) return null;
          return name;
        }
        case "qualified_type":
        case "selector_expression":
          return this.dotted(t);
        case "pointer_type":
        case "parenthesized_type": {
          const inner = t.namedChild(0);
          if (!inner) return null;
          t = inner;
          continue;
        }
        case "generic_type": {
          const inner = t.childForFieldName("type");
          if (!inner) return null;
          t = inner;
          continue;
        }
        default:
          return null;
      }
    }
    return null;
  }

  /** `a`, `a.b`, `pkg.T`: identifiers joined by selectors; null for calls, indexing, parentheses. */
  private dotted(n: Node, depth = 0): string | null {
    if (depth > 8) return null;
    switch (n.type) {
      case "identifier":
      case "type_identifier":
      case "field_identifier":
      case "package_identifier":
        return this.text(n);
      case "selector_expression":
      case "qualified_type": {
        const left = n.childForFieldName("operand") ?? n.childForFieldName("package");
        const right = n.childForFieldName("field") ?? n.childForFieldName("name");
        if (!left || !right) return null;
        const l = this.dotted(left, depth + 1);
        return l ? `${l}.${this.text(right)}` : null;
      }
      default:
        return null;
    }
  }

  /** Type parameter names of the generic function, method receiver or type declaration around `n`. */
  private typeParamsAround(n: Node): ReadonlySet<string> {
    let decl: Node | null = n;
    while (decl && !DECLARATIONS.has(decl.type)) decl = decl.parent;
    if (!decl) return EMPTY;
    const cached = this.typeParamCache.get(decl.id);
    if (cached) return cached;
    const out = new Set<string>();
    const list = decl.childForFieldName("type_parameters");
    for (const p of named(list)) for (const id of fieldNodes(p, "name")) out.add(this.text(id));
    if (decl.type === "method_declaration") {
      // `func (l *List[T]) ...`: T is bound by the receiver.
      let t = named(decl.childForFieldName("receiver"))[0]?.childForFieldName("type") ?? null;
      if (t?.type === "pointer_type") t = t.namedChild(0);
      if (t?.type === "generic_type") {
        for (const a of named(t.childForFieldName("type_arguments")))
          if (a.type === "type_identifier") out.add(this.text(a));
      }
    }
    this.typeParamCache.set(decl.id, out);
    return out;
  }
}

const EMPTY: ReadonlySet<string> = new Set<string>();

export const goExtractor: LanguageExtractor = {
  id: "go",
  extensions: [".go"],
  grammar: "tree-sitter-go.wasm",
  prepare(language: Language) {
    const query = new Query(language, QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const file = new GoFile(b);
      const root = tree.rootNode;
      for (const m of query.matches(root)) file.handle(m);
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
};
