import { Query, type Language, type Node, type QueryMatch, type Tree } from "web-tree-sitter";
import type { ExtractResult } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { dottedName, splitLast } from "../ts-helpers.js";

/** Patterns for one pass over the tree. Capture names say what a match is; the rest are its parts. */
const QUERY = `
(comment) @comment
(class_definition name: (identifier) @name body: (block) @body) @def.class
(function_definition name: (identifier) @name parameters: (parameters) @params body: (block) @body) @def.function
(type_alias_statement . (type (identifier) @name)) @def.type_alias
(assignment left: (_) @left) @assign
(call function: (identifier) @callee arguments: (_) @args) @call
(call function: (attribute object: (_) @recv attribute: (identifier) @callee) arguments: (_) @args) @call
(type) @type
(import_statement) @import
(import_from_statement) @import.from
`;

/** Builtin types: never a project class, so neither a local type nor a reference worth recording. */
const BUILTIN_TYPES = new Set([
  "int",
  "str",
  "float",
  "bool",
  "bytes",
  "bytearray",
  "complex",
  "object",
  "list",
  "dict",
  "set",
  "frozenset",
  "tuple",
  "type",
  "None",
]);

/** Builtin decorators: they only set flags (`isStatic`), never point at project code; nor do `@x.setter` and kin. */
const BUILTIN_DECORATORS = new Set(["staticmethod", "classmethod", "property"]);

/** The longest docstring kept, as the builder caps comment docs. */
const MAX_DOC = 2000;

/** Where a definition or assignment lives: the nearest enclosing def or class, or the module. */
type Scope = { kind: "module" } | { kind: "class"; node: Node } | { kind: "function"; node: Node };

function capturesOf(m: QueryMatch): Map<string, Node> {
  const map = new Map<string, Node>();
  for (const c of m.captures) map.set(c.name, c.node);
  return map;
}

function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith("__") && name.endsWith("__");
}

function visibilityOf(name: string): "private" | null {
  return name.startsWith("_") && !isDunder(name) ? "private" : null;
}

/** `"""text"""`, `r'x'`, `f"..."` → the text between the quotes. */
function stringContent(literal: string): string {
  const m = /^[rRuUbBfF]*("""|'''|"|')/.exec(literal);
  if (!m) return literal;
  const q = m[1]!;
  const body = literal.slice(m[0].length);
  return body.endsWith(q) ? body.slice(0, body.length - q.length) : body;
}

/** PEP 257 `inspect.cleandoc`: strip the first line, dedent the rest by their common indent, trim blank edges. */
function cleanDoc(raw: string): string | null {
  const lines = raw.replace(/\r\n?/g, "\n").split("\n");
  let indent = Infinity;
  for (const l of lines.slice(1)) {
    const stripped = l.trimStart();
    if (stripped) indent = Math.min(indent, l.length - stripped.length);
  }
  const out = lines.map((l, i) => (i === 0 ? l.trim() : indent === Infinity ? l.trim() : l.slice(indent).trimEnd()));
  while (out.length && !out[0]) out.shift();
  while (out.length && !out[out.length - 1]) out.pop();
  const doc = out.join("\n");
  if (!doc) return null;
  return doc.length > MAX_DOC ? `${doc.slice(0, MAX_DOC)}…` : doc;
}

/** Arguments at a call site (positional and keyword); null when `*xs`/`**kw` make it unknowable. */
function argCount(args: Node | undefined, source: string): number | null {
  if (!args) return null;
  if (args.type === "generator_expression") return 1;
  // Most argument lists hold neither splats nor comments: count without copying the children out.
  const text = source.slice(args.startIndex, args.endIndex);
  if (!text.includes("*") && !text.includes("#")) return args.namedChildCount;
  let n = 0;
  for (const a of args.namedChildren) {
    if (!a || a.type === "comment") continue;
    if (a.type === "list_splat" || a.type === "dictionary_splat") return null;
    n++;
  }
  return n;
}

/** The name a parameter binds, or null for separators and splats. */
function paramName(p: Node): Node | null {
  switch (p.type) {
    case "identifier":
      return p;
    case "typed_parameter": {
      const first = p.namedChild(0);
      return first?.type === "identifier" ? first : null;
    }
    case "default_parameter":
    case "typed_default_parameter":
      return p.childForFieldName("name");
    default:
      return null;
  }
}

function isSplat(p: Node): boolean {
  if (p.type === "list_splat_pattern" || p.type === "dictionary_splat_pattern") return true;
  if (p.type === "typed_parameter") {
    const first = p.namedChild(0);
    return first?.type === "list_splat_pattern" || first?.type === "dictionary_splat_pattern";
  }
  return false;
}

/** Statements a comment block right above can document. */
const DOCUMENTABLE = new Set([
  "function_definition",
  "class_definition",
  "decorated_definition",
  "expression_statement",
  "type_alias_statement",
]);

const SEPARATORS = new Set(["positional_separator", "keyword_separator", "comment"]);

class PyFile {
  /** Typed parameters per function node, for `self.repo = repo`. */
  private readonly paramTypeCache = new Map<number, Map<string, string>>();

  /** Scope of each block already climbed through, so siblings do not climb again. */
  private readonly blockScopes = new Map<number, Scope>();

  constructor(private readonly b: ExtractionBuilder) {}

  private readonly text = (n: Node): string => this.b.text(n);

  private scopeOf(node: Node): Scope {
    const climbed: number[] = [];
    let scope: Scope = { kind: "module" };
    for (let p = node.parent; p; p = p.parent) {
      const t = p.type;
      if (t === "class_definition") {
        scope = { kind: "class", node: p };
        break;
      }
      if (t === "function_definition") {
        scope = { kind: "function", node: p };
        break;
      }
      if (t === "block") {
        const known = this.blockScopes.get(p.id);
        if (known) {
          scope = known;
          break;
        }
        climbed.push(p.id);
      }
    }
    for (const id of climbed) this.blockScopes.set(id, scope);
    return scope;
  }

  handle(m: QueryMatch): void {
    const first = m.captures[0];
    if (!first) return;
    const c = capturesOf(m);
    if (first.name === "comment") return this.comment(first.node);
    if (c.has("def.class")) return this.classDef(c.get("def.class")!, c);
    if (c.has("def.function")) return this.functionDef(c.get("def.function")!, c);
    if (c.has("def.type_alias")) return this.typeAlias(c.get("def.type_alias")!, c.get("name")!);
    if (c.has("assign")) return this.assignment(c.get("assign")!, c.get("left")!);
    if (c.has("call")) return this.call(c);
    if (c.has("type")) return this.typeRef(c.get("type")!);
    if (c.has("import")) return this.importStatement(c.get("import")!);
    if (c.has("import.from")) return this.importFrom(c.get("import.from")!);
  }

  /**
   * `#` lines right above a definition document it when it has no docstring. Only comments alone on
   * their line and followed by a declaration, so neither a trailing `x = 1  # note` nor a file's
   * header above its imports becomes a doc.
   */
  private comment(node: Node): void {
    const lineStart = this.b.source.lastIndexOf("\n", node.startIndex - 1) + 1;
    if (this.b.source.slice(lineStart, node.startIndex).trim() !== "") return;
    let next = node.nextNamedSibling;
    while (next?.type === "comment") next = next.nextNamedSibling;
    if (next && DOCUMENTABLE.has(next.type)) this.b.comment(node);
  }

  /** The first statement of a body when it is a string literal. */
  private docstring(body: Node | undefined): string | null {
    if (!body) return null;
    for (const stmt of body.namedChildren) {
      if (!stmt || stmt.type === "comment") continue;
      if (stmt.type !== "expression_statement" || stmt.namedChildCount !== 1) return null;
      const s = stmt.namedChild(0);
      if (s?.type !== "string") return null;
      return cleanDoc(stringContent(this.text(s)));
    }
    return null;
  }

  private decorators(def: Node): Node[] {
    const parent = def.parent;
    if (parent?.type !== "decorated_definition") return [];
    return parent.namedChildren.filter((n): n is Node => n?.type === "decorator");
  }

  /** `@foo`, `@foo(...)`, `@a.b` → a reference from the decorated definition, placed at its name. */
  private decoratorRefs(decorators: Node[], at: Node): void {
    for (const d of decorators) {
      let expr = d.namedChild(0);
      if (expr?.type === "call") expr = expr.childForFieldName("function");
      if (!expr) continue;
      const dotted = dottedName(expr, this.text);
      if (!dotted || BUILTIN_DECORATORS.has(dotted) || /\.(setter|getter|deleter)$/.test(dotted)) continue;
      const { receiver, name } = splitLast(dotted);
      this.b.ref("references", at, name, receiver);
    }
  }

  private classDef(def: Node, c: Map<string, Node>): void {
    const name = c.get("name")!;
    const body = c.get("body");
    const nameText = this.text(name);
    const decorators = this.decorators(def);
    const topLevel = this.scopeOf(def).kind === "module";
    this.b.symbol("class", def, name, {
      signatureEnd: body?.startIndex,
      exported: topLevel && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      docstring: this.docstring(body),
      docNode: def.parent?.type === "decorated_definition" ? def.parent : def,
    });
    this.decoratorRefs(decorators, name);
    const bases = def.childForFieldName("superclasses");
    if (!bases) return;
    for (const base of bases.namedChildren) {
      if (!base || base.type === "keyword_argument" || base.type === "comment") continue;
      // `Base[T]` extends `Base`.
      const target = base.type === "subscript" ? base.childForFieldName("value") : base;
      const dotted = target ? dottedName(target, this.text) : null;
      if (!dotted) continue;
      const { receiver, name: baseName } = splitLast(dotted);
      this.b.ref("extends", base, baseName, receiver);
    }
  }

  private functionDef(def: Node, c: Map<string, Node>): void {
    const name = c.get("name")!;
    const body = c.get("body");
    const params = c.get("params")!;
    const nameText = this.text(name);
    const scope = this.scopeOf(def);
    const decorators = this.decorators(def);
    const decoratorNames = decorators.map((d) => this.text(d).replace(/^@\s*/, ""));
    const isStatic = decoratorNames.includes("staticmethod");
    const isStaticLike = isStatic || decoratorNames.includes("classmethod");
    let kind: NodeKind = "function";
    if (scope.kind === "class") kind = nameText === "__init__" ? "constructor" : "method";

    let count: number | null = 0;
    let firstParam = true;
    for (const p of params.namedChildren) {
      if (!p || SEPARATORS.has(p.type)) continue;
      if (isSplat(p)) {
        count = null;
        break;
      }
      const pname = paramName(p);
      const skipReceiver =
        firstParam && kind !== "function" && !isStatic && pname !== null && /^(self|cls)$/.test(this.text(pname));
      firstParam = false;
      if (!skipReceiver) count++;
    }

    this.b.symbol(kind, def, name, {
      signatureEnd: body?.startIndex,
      exported: scope.kind === "module" && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      paramCount: count,
      isStatic: kind !== "function" && isStaticLike,
      docstring: this.docstring(body),
      docNode: def.parent?.type === "decorated_definition" ? def.parent : def,
    });
    this.decoratorRefs(decorators, name);
    for (const [pname, { node, typeName }] of this.typedParams(params)) this.b.localType(node, pname, typeName);
  }

  /** `def f(x: Foo, y: Optional[Bar] = None)` → x: Foo, y: Bar. */
  private typedParams(params: Node): Map<string, { node: Node; typeName: string }> {
    const out = new Map<string, { node: Node; typeName: string }>();
    for (const p of params.namedChildren) {
      if (!p || (p.type !== "typed_parameter" && p.type !== "typed_default_parameter")) continue;
      const pname = paramName(p);
      const type = p.childForFieldName("type");
      if (!pname || !type) continue;
      const typeName = this.typeName(type);
      if (typeName) out.set(this.text(pname), { node: pname, typeName });
    }
    return out;
  }

  private paramTypes(fn: Node): Map<string, string> {
    let cached = this.paramTypeCache.get(fn.id);
    if (!cached) {
      cached = new Map();
      const params = fn.childForFieldName("parameters");
      if (params) for (const [k, v] of this.typedParams(params)) cached.set(k, v.typeName);
      this.paramTypeCache.set(fn.id, cached);
    }
    return cached;
  }

  /** PEP 695 `type Alias = ...` at module level. */
  private typeAlias(stmt: Node, name: Node): void {
    const nameText = this.text(name);
    const topLevel = this.scopeOf(stmt).kind === "module";
    this.b.symbol("type_alias", stmt, name, {
      exported: topLevel && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
    });
  }

  private assignment(assign: Node, left: Node): void {
    const scope = this.scopeOf(assign);
    const type = assign.childForFieldName("type");
    const right = assign.childForFieldName("right");
    // `a = b = 1` and `a, b = ...`: each name gets its own range, or one would nest inside the other.
    const chained = right?.type === "assignment" || assign.parent?.type === "assignment";
    const statementEnd = (assign.parent?.type === "expression_statement" ? assign.parent : assign).endIndex;

    if (left.type === "identifier") {
      const name = this.text(left);
      if (scope.kind === "module" || scope.kind === "class") {
        const kind: NodeKind =
          scope.kind === "class" ? "property" : /^_*[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
        this.b.symbol(kind, chained ? left : assign, left, {
          signatureEnd: chained ? statementEnd : undefined,
          exported: scope.kind === "module" && !name.startsWith("_"),
          visibility: visibilityOf(name),
        });
      }
      const typeName = type ? this.typeName(type) : right ? this.constructed(right) : null;
      if (typeName) this.b.localType(left, scope.kind === "class" ? `this.${name}` : name, typeName);
      return;
    }

    if (left.type === "pattern_list" || left.type === "tuple_pattern" || left.type === "list_pattern") {
      if (scope.kind === "function") return;
      for (const id of left.namedChildren) {
        if (id?.type !== "identifier") continue;
        const name = this.text(id);
        const kind: NodeKind =
          scope.kind === "class" ? "property" : /^_*[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
        this.b.symbol(kind, id, id, {
          signatureEnd: statementEnd,
          exported: scope.kind === "module" && !name.startsWith("_"),
          visibility: visibilityOf(name),
        });
      }
      return;
    }

    // `self.x = Foo()`, `self.x: Foo = ...`, `self.repo = repo` with `repo: Repo` a parameter.
    if (left.type === "attribute" && scope.kind === "function") {
      const obj = left.childForFieldName("object");
      const attr = left.childForFieldName("attribute");
      if (obj?.type !== "identifier" || this.text(obj) !== "self" || !attr) return;
      let typeName = type ? this.typeName(type) : right ? this.constructed(right) : null;
      if (!typeName && right?.type === "identifier")
        typeName = this.paramTypes(scope.node).get(this.text(right)) ?? null;
      if (typeName) this.b.localType(left, `this.${this.text(attr)}`, typeName);
    }
  }

  /** `Foo(...)` / `mod.Foo(...)` → the callee's dotted name; the resolver checks it is a class. */
  private constructed(value: Node): string | null {
    // `repo or Repo()`: the fallback names the type.
    if (value.type === "boolean_operator" && this.text(value.child(1) ?? value) === "or") {
      const r = value.childForFieldName("right");
      return r ? this.constructed(r) : null;
    }
    if (value.type !== "call") return null;
    const fn = value.childForFieldName("function");
    if (!fn || (fn.type !== "identifier" && fn.type !== "attribute")) return null;
    const dotted = dottedName(fn, this.text);
    return dotted && !BUILTIN_TYPES.has(dotted) ? dotted : null;
  }

  /** The class an annotation names: `Foo`, `mod.Foo`, `"Foo"`, `Optional[Foo]`, `Foo | None`; null otherwise. */
  private typeName(node: Node, depth = 0): string | null {
    if (depth > 4) return null;
    const t = node.type === "type" ? node.namedChild(0) : node;
    if (!t) return null;
    switch (t.type) {
      case "identifier":
      case "attribute": {
        const dotted = dottedName(t, this.text);
        return dotted && !BUILTIN_TYPES.has(dotted) ? dotted : null;
      }
      case "string":
        return typeNameFromText(stringContent(this.text(t)));
      case "generic_type": {
        const head = t.namedChild(0);
        const params = t.namedChild(1);
        const inner = params?.namedChild(0);
        if (head && inner && params?.namedChildCount === 1 && isOptional(this.text(head))) {
          return this.typeName(inner, depth + 1);
        }
        return null;
      }
      case "subscript": {
        const value = t.childForFieldName("value");
        const inner = t.childForFieldName("subscript");
        if (value && inner && isOptional(this.text(value))) return this.typeName(inner, depth + 1);
        return null;
      }
      case "binary_operator": {
        const l = t.childForFieldName("left");
        const r = t.childForFieldName("right");
        if (l && r && this.text(t.child(1) ?? t).trim() === "|") {
          if (r.type === "none") return this.typeName(l, depth + 1);
          if (l.type === "none") return this.typeName(r, depth + 1);
        }
        return null;
      }
      default:
        return null;
    }
  }

  /** References to the names an annotation uses: `Dict[str, Foo]` → Dict, Foo (nested `type`s match on their own). */
  private typeRef(node: Node): void {
    const parent = node.parent;
    // Declarations, not uses: `type Alias = ...`'s name and `class A[T]`'s type parameters.
    if (parent?.type === "type_alias_statement" && parent.namedChild(0)?.equals(node)) return;
    if (parent?.type === "type_parameter" && parent.parent?.type !== "generic_type") return;
    const inner = node.namedChild(0);
    if (inner) this.typeRefsIn(inner, 0);
  }

  private typeRefsIn(t: Node, depth: number): void {
    if (depth > 6) return;
    switch (t.type) {
      case "identifier":
      case "attribute": {
        const dotted = dottedName(t, this.text);
        if (dotted && !BUILTIN_TYPES.has(dotted)) {
          const { receiver, name } = splitLast(dotted);
          this.b.ref("references", t, name, receiver);
        }
        return;
      }
      case "string": {
        const content = stringContent(this.text(t)).trim();
        if (/^[A-Za-z_][\w.]*$/.test(content) && !BUILTIN_TYPES.has(content)) {
          const { receiver, name } = splitLast(content);
          this.b.ref("references", t, name, receiver);
        }
        return;
      }
      case "generic_type": {
        const head = t.namedChild(0);
        if (head) this.typeRefsIn(head, depth + 1);
        return;
      }
      case "subscript": {
        const value = t.childForFieldName("value");
        if (value) this.typeRefsIn(value, depth + 1);
        for (const s of t.childrenForFieldName("subscript")) if (s) this.typeRefsIn(s, depth + 1);
        return;
      }
      case "binary_operator": {
        const l = t.childForFieldName("left");
        const r = t.childForFieldName("right");
        if (l) this.typeRefsIn(l, depth + 1);
        if (r) this.typeRefsIn(r, depth + 1);
        return;
      }
      case "tuple":
      case "list":
        for (const s of t.namedChildren) if (s) this.typeRefsIn(s, depth + 1);
        return;
      default:
        return;
    }
  }

  private call(c: Map<string, Node>): void {
    const site = c.get("call")!;
    // `@foo(...)` is a decorator reference, recorded with the definition.
    if (site.parent?.type === "decorator") return;
    const callee = c.get("callee")!;
    const recv = c.get("recv");
    const name = this.text(callee);
    if (!recv && name === "super") return;
    let receiver: string | null = null;
    if (recv) {
      const superCall =
        recv.type === "call" &&
        recv.childForFieldName("function")?.type === "identifier" &&
        this.text(recv.childForFieldName("function")!) === "super";
      receiver = superCall ? "super" : (dottedName(recv, this.text) ?? "?");
    }
    this.b.ref("calls", callee, name, receiver, argCount(c.get("args"), this.b.source));
  }

  private binding(at: Node, local: string, imported: string, specifier: string): void {
    this.b.import({
      local,
      imported,
      specifier,
      line: at.startPosition.row + 1,
      reexport: false,
    });
    if (local !== "*") this.b.symbol("import", at, null, { name: local });
  }

  /** `import a.b.c` binds `a.b.c`; `import a.b as x` binds `x`. Both are the whole module. */
  private importStatement(stmt: Node): void {
    for (const part of stmt.childrenForFieldName("name")) {
      if (!part) continue;
      if (part.type === "dotted_name") {
        const dotted = compact(this.text(part));
        this.binding(part, dotted, "*", dotted);
      } else if (part.type === "aliased_import") {
        const mod = part.childForFieldName("name");
        const alias = part.childForFieldName("alias");
        if (mod && alias) this.binding(part, this.text(alias), "*", compact(this.text(mod)));
      }
    }
  }

  /** `from a.b import c as d`, `from . import c`, `from ..x import *`. */
  private importFrom(stmt: Node): void {
    const module = stmt.childForFieldName("module_name");
    if (!module) return;
    const specifier = compact(this.text(module));
    for (const part of stmt.namedChildren) {
      if (!part || part.equals(module)) continue;
      if (part.type === "wildcard_import") {
        this.binding(part, "*", "*", specifier);
      } else if (part.type === "dotted_name") {
        const name = compact(this.text(part));
        this.binding(part, name, name, specifier);
      } else if (part.type === "aliased_import") {
        const name = part.childForFieldName("name");
        const alias = part.childForFieldName("alias");
        if (name && alias) this.binding(part, this.text(alias), compact(this.text(name)), specifier);
      }
    }
  }
}

function compact(s: string): string {
  return s.replace(/\s+/g, "");
}

function isOptional(head: string): boolean {
  return head === "Optional" || head === "typing.Optional" || head === "t.Optional";
}

/** A string annotation: `"Foo"`, `"mod.Foo"`, `"Optional[Foo]"`, `"Foo | None"`. */
function typeNameFromText(raw: string): string | null {
  let s = raw.trim();
  const opt = /^(?:typing\.)?Optional\[\s*(.+?)\s*\]$/.exec(s);
  if (opt) s = opt[1]!;
  const union = /^(.+?)\s*\|\s*None$/.exec(s) ?? /^None\s*\|\s*(.+)$/.exec(s);
  if (union) s = union[1]!;
  if (!/^[A-Za-z_][\w.]*$/.test(s) || BUILTIN_TYPES.has(s)) return null;
  return s;
}

export const pythonExtractor: LanguageExtractor = {
  id: "python",
  extensions: [".py", ".pyi"],
  grammar: "tree-sitter-python.wasm",
  prepare(language: Language) {
    const query = new Query(language, QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const file = new PyFile(b);
      const root = tree.rootNode;
      for (const m of query.matches(root)) file.handle(m);
      return b.finish(null, countSyntaxErrors(root));
    };
  },
};
