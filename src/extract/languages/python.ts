import { Query, type Language, type Node, type QueryMatch, type Tree } from "web-tree-sitter";
import type { ExtractResult } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { dottedName, splitLast } from "../ts-helpers.js";

/**
 * The query's patterns, by index. One pass over the tree yields every match; `PyFile` then reads the
 * matches twice. The first read files facts by node id or offset (where each def starts and ends,
 * its decorators and docstring, what an assignment's right side is, which comments sit above a
 * declaration); the second emits symbols and references in match order. That replaces `.parent` and
 * sibling walks, which this tree-sitter computes by descending from the root on every call, and
 * keeps captures to the shapes that are kept.
 *
 * Emitting patterns complete (match their last node) where one generic pattern per construct used
 * to, so references, imports and local types keep their order: definitions at their body,
 * assignments at their left side, calls at their arguments, imports at each imported name.
 * Captures come in pattern order, a parent's before its children's; `PyFile` reads them by position.
 */
const P = {
  // Emitting patterns.
  class: 0,
  function: 1,
  typeAlias: 2,
  assignName: 3,
  assignPattern: 4,
  assignAttr: 5,
  call: 6,
  callGen: 7,
  methodCall: 8,
  methodCallGen: 9,
  type: 10,
  import: 11,
  importAs: 12,
  from: 13,
  fromAs: 14,
  fromStar: 15,
  // Facts for the first pass.
  decorator: 16,
  decoratorCall: 17,
  classDoc: 18,
  functionDoc: 19,
  classCommentFirst: 20,
  functionCommentFirst: 21,
  typed: 22,
  constructed: 23,
  orElse: 24,
  fromName: 25,
  chained: 26,
  aliasName: 27,
  typeParam: 28,
  typeArg: 29,
  docComment: 30,
  commentRun: 31,
} as const;

const PATTERNS: Record<keyof typeof P, string> = {
  class: `(class_definition name: (identifier) @name body: (block) @body) @def`,
  function: `(function_definition name: (identifier) @name parameters: (parameters) @params body: (block) @body) @def`,
  typeAlias: `(type_alias_statement . (type (identifier) @name)) @def`,
  assignName: `(assignment left: (identifier) @left) @assign`,
  assignPattern: `(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] @left) @assign`,
  assignAttr: `(assignment left: (attribute object: (identifier) @object attribute: (identifier) @attr) @left)`,
  call: `(call function: (identifier) @callee arguments: (argument_list) @args)`,
  callGen: `(call function: (identifier) @callee arguments: (generator_expression) @args)`,
  methodCall: `(call function: (attribute object: (_) @recv attribute: (identifier) @callee) arguments: (argument_list) @args)`,
  methodCallGen: `(call function: (attribute object: (_) @recv attribute: (identifier) @callee) arguments: (generator_expression) @args)`,
  type: `(type) @type`,
  import: `(import_statement name: (dotted_name) @part)`,
  importAs: `(import_statement name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias) @part)`,
  from: `(import_from_statement module_name: (_) @module name: (dotted_name) @part)`,
  fromAs: `(import_from_statement module_name: (_) @module name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias) @part)`,
  fromStar: `(import_from_statement module_name: (_) @module (wildcard_import) @part)`,
  decorator: `(decorated_definition (decorator) @decorator definition: (_) @def) @outer`,
  decoratorCall: `(decorator (call arguments: (_) @args))`,
  classDoc: `(class_definition body: (block . (expression_statement . (string) @doc .)) @body)`,
  functionDoc: `(function_definition body: (block . (expression_statement . (string) @doc .)) @body)`,
  classCommentFirst: `(class_definition body: (block . (comment)) @body)`,
  functionCommentFirst: `(function_definition body: (block . (comment)) @body)`,
  typed: `(assignment left: (_) @left type: (type) @type)`,
  constructed: `(assignment left: (_) @left right: (call function: [(identifier) (attribute)] @fn))`,
  orElse: `(assignment left: (_) @left right: (boolean_operator) @right)`,
  fromName: `(assignment left: (attribute) @left right: (identifier) @right)`,
  chained: `(assignment left: (_) @left right: (assignment left: (_) @inner))`,
  aliasName: `(type_alias_statement . (type) @type)`,
  typeParam: `(type_parameter (type) @type)`,
  typeArg: `(generic_type (type_parameter (type) @type))`,
  docComment: `(_ (comment) @comment . [(function_definition) (class_definition) (decorated_definition) (expression_statement) (type_alias_statement)])`,
  commentRun: `(_ (comment) @comment . (comment) @next)`,
};

const QUERY = (Object.keys(P) as (keyof typeof P)[])
  .sort((a, b) => P[a] - P[b])
  .map((k) => PATTERNS[k])
  .join("\n");

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

/** An ASCII identifier at a position (sticky); tree-sitter's identifiers are maximal, so this is the node's text. */
const ASCII_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** `a.b.c.` before a method name: a receiver that is a plain dotted name. */
const DOTTED_RECEIVER = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.$/;

/** Words that parse as literals (`true`, `none`), not identifiers, so `None.x` has no dotted name. */
const LITERAL_NAMES = /(?:^|\.)(?:True|False|None)\./;

/** Argument or parameter text whose top-level commas are exactly its separators. */
const PLAIN_LIST = /^[^'"()[\]{}#*\\/:]*$/;

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
  if (!raw.includes("\n") && !raw.includes("\r")) {
    const line = raw.trim();
    if (!line) return null;
    return line.length > MAX_DOC ? `${line.slice(0, MAX_DOC)}…` : line;
  }
  const lines = raw.replace(/\r\n?/g, "\n").split("\n");
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
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

/**
 * The items of a plain `(a, b=1,)` list, counted from its text: with no brackets, strings, comments,
 * splats, separators, annotations or lambdas inside, each top-level comma separates two items.
 * Null when the text is not that plain.
 */
function plainItems(list: string): string[] | null {
  const inner = list.slice(1, -1);
  if (!PLAIN_LIST.test(inner) || inner.includes("lambda")) return null;
  const items = inner.split(",");
  if (!items[items.length - 1]!.trim()) items.pop();
  return items;
}

/** Arguments at a call site (positional and keyword); null when `*xs`/`**kw` make it unknowable. */
function argCount(args: Node, text: string): number | null {
  // Most argument lists hold neither splats nor comments: count without copying the children out.
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

const SEPARATORS = new Set(["positional_separator", "keyword_separator", "comment"]);

/** A class or function definition: a scope for what is declared inside it. */
interface Def {
  kind: "class" | "function";
  start: number;
  end: number;
  /** Index of the enclosing def, -1 at module level. */
  parent: number;
  params: Node | null;
  /** Typed parameters by name, for `self.repo = repo`; computed on first use. */
  paramTypes: Map<string, string> | null;
}

class PyFile {
  private readonly source: string;
  /**
   * No ERROR or MISSING nodes: identifiers, dotted names and argument lists can be read from the
   * source text, since every token there is what it looks like.
   */
  private readonly fast: boolean;

  /** Class and function definitions in source order. */
  private readonly defs: Def[] = [];
  /** Def node id → its decorators, and the `decorated_definition` around it. */
  private readonly decorators = new Map<number, Node[]>();
  private readonly decorated = new Map<number, Node>();
  /** Argument lists of calls that are a decorator (`@foo(...)`), recorded with the definition instead. */
  private readonly decoratorCalls = new Set<number>();
  /** Body id → the string literal that is its first statement; bodies starting with a comment are read directly. */
  private readonly docs = new Map<number, Node>();
  private readonly commentFirst = new Set<number>();
  /** Assignment left side id → its annotation, the callee of a call on the right, an `or` on the right, a name on the right. */
  private readonly annotations = new Map<number, Node>();
  private readonly constructors = new Map<number, Node>();
  private readonly orElses = new Map<number, Node>();
  private readonly rightNames = new Map<number, Node>();
  /** Left sides of `a = b = 1`, both of them. */
  private readonly chainedLefts = new Set<number>();
  /** `type` nodes that declare rather than use: a type alias's name, a class's or function's type parameters. */
  private readonly aliasNames = new Set<number>();
  private readonly typeParams = new Set<number>();
  private readonly typeArgs = new Set<number>();
  /** Comments right above a documentable statement, and comment → the comment right after it. */
  private readonly docComments: Node[] = [];
  private readonly nextComment = new Map<number, [Node, Node]>();
  private readonly moduleNames = new Map<number, string>();
  private defCursor = 0;

  constructor(
    private readonly b: ExtractionBuilder,
    hasError: boolean,
  ) {
    this.source = b.source;
    this.fast = !hasError;
  }

  private readonly text = (n: Node): string => this.b.text(n);

  /** The text of an identifier node, read from the source when it is ASCII. */
  private name(n: Node): string {
    if (this.fast) {
      ASCII_NAME.lastIndex = n.startIndex;
      const m = ASCII_NAME.exec(this.source);
      if (m && !(this.source.charCodeAt(ASCII_NAME.lastIndex) >= 0x80)) return m[0];
    }
    return this.text(n);
  }

  /** `Foo`, `mod.Foo`: the dotted name of an identifier or attribute. */
  private dotted(n: Node): string | null {
    return dottedName(n, this.text);
  }

  run(matches: QueryMatch[]): void {
    for (const m of matches) this.collect(m);
    this.comments();
    for (const m of matches) this.emit(m);
  }

  /** First read: file the facts other matches need. */
  private collect(m: QueryMatch): void {
    const c = m.captures;
    switch (m.patternIndex) {
      case P.class:
      case P.function: {
        const def = c[0]!.node;
        const start = def.startIndex;
        const end = def.endIndex;
        let parent = this.defs.length - 1;
        while (parent >= 0 && this.defs[parent]!.end <= start) parent = this.defs[parent]!.parent;
        this.defs.push({
          kind: m.patternIndex === P.class ? "class" : "function",
          start,
          end,
          parent,
          params: m.patternIndex === P.function ? c[2]!.node : null,
          paramTypes: null,
        });
        return;
      }
      case P.decorator: {
        const id = c[2]!.node.id;
        const list = this.decorators.get(id);
        if (list) list.push(c[1]!.node);
        else {
          this.decorators.set(id, [c[1]!.node]);
          this.decorated.set(id, c[0]!.node);
        }
        return;
      }
      case P.decoratorCall:
        this.decoratorCalls.add(c[0]!.node.id);
        return;
      case P.classDoc:
      case P.functionDoc:
        this.docs.set(c[0]!.node.id, c[1]!.node);
        return;
      case P.classCommentFirst:
      case P.functionCommentFirst:
        this.commentFirst.add(c[0]!.node.id);
        return;
      case P.typed:
        this.annotations.set(c[0]!.node.id, c[1]!.node);
        return;
      case P.constructed:
        this.constructors.set(c[0]!.node.id, c[1]!.node);
        return;
      case P.orElse:
        this.orElses.set(c[0]!.node.id, c[1]!.node);
        return;
      case P.fromName:
        this.rightNames.set(c[0]!.node.id, c[1]!.node);
        return;
      case P.chained:
        this.chainedLefts.add(c[0]!.node.id);
        this.chainedLefts.add(c[1]!.node.id);
        return;
      case P.aliasName:
        this.aliasNames.add(c[0]!.node.id);
        return;
      case P.typeParam:
        this.typeParams.add(c[0]!.node.id);
        return;
      case P.typeArg:
        this.typeArgs.add(c[0]!.node.id);
        return;
      case P.docComment:
        this.docComments.push(c[0]!.node);
        return;
      case P.commentRun:
        this.nextComment.set(c[0]!.node.id, [c[0]!.node, c[1]!.node]);
        return;
    }
  }

  /** Second read: symbols, references, imports and local types, in match order. */
  private emit(m: QueryMatch): void {
    const c = m.captures;
    switch (m.patternIndex) {
      case P.class:
        return this.classDef(c[0]!.node, c[1]!.node, c[2]!.node);
      case P.function:
        return this.functionDef(c[0]!.node, c[1]!.node, c[2]!.node, c[3]!.node);
      case P.typeAlias:
        return this.typeAlias(c[0]!.node, c[1]!.node);
      case P.assignName:
        return this.assignName(c[0]!.node, c[1]!.node);
      case P.assignPattern:
        return this.assignPattern(c[0]!.node, c[1]!.node);
      case P.assignAttr:
        return this.assignAttr(c[0]!.node, c[1]!.node, c[2]!.node);
      case P.call:
        return this.call(null, c[0]!.node, c[1]!.node, false);
      case P.callGen:
        return this.call(null, c[0]!.node, c[1]!.node, true);
      case P.methodCall:
        return this.call(c[0]!.node, c[1]!.node, c[2]!.node, false);
      case P.methodCallGen:
        return this.call(c[0]!.node, c[1]!.node, c[2]!.node, true);
      case P.type:
        return this.typeRef(c[0]!.node);
      case P.import: {
        const part = c[0]!.node;
        const dotted = compact(this.text(part));
        return this.binding(part, dotted, "*", dotted);
      }
      case P.importAs:
        return this.binding(c[0]!.node, this.text(c[2]!.node), "*", compact(this.text(c[1]!.node)));
      case P.from: {
        const part = c[1]!.node;
        const name = compact(this.text(part));
        return this.binding(part, name, name, this.moduleName(c[0]!.node));
      }
      case P.fromAs:
        return this.binding(
          c[1]!.node,
          this.text(c[3]!.node),
          compact(this.text(c[2]!.node)),
          this.moduleName(c[0]!.node),
        );
      case P.fromStar:
        return this.binding(c[1]!.node, "*", "*", this.moduleName(c[0]!.node));
    }
  }

  /** The innermost def around a position, -1 for the module. */
  private scopeAt(pos: number): number {
    // Last def starting before `pos`, then out through its parents to one that still holds it.
    let lo = 0;
    let hi = this.defs.length - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.defs[mid]!.start < pos) {
        i = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (i >= 0 && this.defs[i]!.end <= pos) i = this.defs[i]!.parent;
    return i;
  }

  private scopeKind(i: number): "module" | "class" | "function" {
    return i < 0 ? "module" : this.defs[i]!.kind;
  }

  /** The def a class or function match filed, matched in the same order. */
  private nextDef(def: Node): Def {
    const d = this.defs[this.defCursor++];
    if (!d || d.start !== def.startIndex) throw new Error("python extractor: definitions out of order");
    return d;
  }

  /**
   * `#` lines right above a definition document it when it has no docstring. Only comments alone on
   * their line and followed (past other comments) by a declaration, so neither a trailing
   * `x = 1  # note` nor a file's header above its imports becomes a doc.
   */
  private comments(): void {
    if (!this.docComments.length) return;
    // A comment leads to a declaration when it sits right above one, or right above a comment that does.
    const leads = new Map<number, boolean>();
    for (const d of this.docComments) leads.set(d.id, true);
    const kept = [...this.docComments];
    for (const [id, [comment]] of this.nextComment) {
      if (leads.has(id)) continue;
      const chain: number[] = [];
      let at: number | undefined = id;
      let result = false;
      while (at !== undefined) {
        const known = leads.get(at);
        if (known !== undefined) {
          result = known;
          break;
        }
        chain.push(at);
        at = this.nextComment.get(at)?.[1].id;
      }
      for (const c of chain) leads.set(c, result);
      if (result) kept.push(comment);
    }
    kept.sort((x, y) => x.startIndex - y.startIndex);
    for (const node of kept) {
      const lineStart = this.source.lastIndexOf("\n", node.startIndex - 1) + 1;
      if (this.source.slice(lineStart, node.startIndex).trim() === "") this.b.comment(node);
    }
  }

  /** The first statement of a body when it is a string literal. */
  private docstring(body: Node): string | null {
    if (this.commentFirst.has(body.id)) {
      for (const stmt of body.namedChildren) {
        if (!stmt || stmt.type === "comment") continue;
        if (stmt.type !== "expression_statement" || stmt.namedChildCount !== 1) return null;
        const s = stmt.namedChild(0);
        if (s?.type !== "string") return null;
        return cleanDoc(stringContent(this.text(s)));
      }
      return null;
    }
    const s = this.docs.get(body.id);
    return s ? cleanDoc(stringContent(this.text(s))) : null;
  }

  /** `@foo`, `@foo(...)`, `@a.b` → a reference from the decorated definition, placed at its name. */
  private decoratorRefs(decorators: Node[], at: Node): void {
    for (const d of decorators) {
      let expr = d.namedChild(0);
      if (expr?.type === "call") expr = expr.childForFieldName("function");
      if (!expr) continue;
      const dotted = this.dotted(expr);
      if (!dotted || BUILTIN_DECORATORS.has(dotted) || /\.(setter|getter|deleter)$/.test(dotted)) continue;
      const { receiver, name } = splitLast(dotted);
      this.b.ref("references", at, name, receiver);
    }
  }

  private classDef(def: Node, name: Node, body: Node): void {
    const d = this.nextDef(def);
    const nameText = this.name(name);
    const decorators = this.decorators.get(def.id) ?? [];
    const topLevel = d.parent < 0;
    this.b.symbol("class", def, name, {
      name: nameText,
      signatureEnd: body.startIndex,
      exported: topLevel && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      docstring: this.docstring(body),
      docNode: this.decorated.get(def.id) ?? def,
    });
    this.decoratorRefs(decorators, name);
    const bases = def.childForFieldName("superclasses");
    if (!bases) return;
    for (const base of bases.namedChildren) {
      if (!base || base.type === "keyword_argument" || base.type === "comment") continue;
      // `Base[T]` extends `Base`.
      const target = base.type === "subscript" ? base.childForFieldName("value") : base;
      const dotted = target ? this.dotted(target) : null;
      if (!dotted) continue;
      const { receiver, name: baseName } = splitLast(dotted);
      this.b.ref("extends", base, baseName, receiver);
    }
  }

  private functionDef(def: Node, name: Node, params: Node, body: Node): void {
    const d = this.nextDef(def);
    const nameText = this.name(name);
    const scope = this.scopeKind(d.parent);
    const decorators = this.decorators.get(def.id) ?? [];
    let isStatic = false;
    let isStaticLike = false;
    for (const dec of decorators) {
      const decName = this.text(dec).replace(/^@\s*/, "");
      if (decName === "staticmethod") isStatic = isStaticLike = true;
      else if (decName === "classmethod") isStaticLike = true;
    }
    let kind: NodeKind = "function";
    if (scope === "class") kind = nameText === "__init__" ? "constructor" : "method";

    const paramText = this.source.slice(params.startIndex, params.endIndex);
    const plain = this.fast ? plainItems(paramText) : null;
    let count: number | null = 0;
    if (plain) {
      // `(self, a, b=1)`: each item is one parameter, named by what precedes its `=`.
      count = plain.length;
      const first = plain[0];
      if (first !== undefined && kind !== "function" && !isStatic) {
        const eq = first.indexOf("=");
        const firstName = (eq < 0 ? first : first.slice(0, eq)).trim();
        if (firstName === "self" || firstName === "cls") count--;
      }
    } else {
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
    }

    this.b.symbol(kind, def, name, {
      name: nameText,
      signatureEnd: body.startIndex,
      exported: scope === "module" && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      paramCount: count,
      isStatic: kind !== "function" && isStaticLike,
      docstring: this.docstring(body),
      docNode: this.decorated.get(def.id) ?? def,
    });
    this.decoratorRefs(decorators, name);
    // Annotations need a `:`; without one there are no typed parameters to look at.
    if (paramText.includes(":")) {
      for (const [pname, { node, typeName }] of this.typedParams(params)) this.b.localType(node, pname, typeName);
    }
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

  private paramTypes(d: Def): Map<string, string> {
    if (!d.paramTypes) {
      d.paramTypes = new Map();
      if (d.params) for (const [k, v] of this.typedParams(d.params)) d.paramTypes.set(k, v.typeName);
    }
    return d.paramTypes;
  }

  /** PEP 695 `type Alias = ...` at module level. */
  private typeAlias(stmt: Node, name: Node): void {
    const nameText = this.text(name);
    const topLevel = this.scopeAt(stmt.startIndex) < 0;
    this.b.symbol("type_alias", stmt, name, {
      exported: topLevel && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
    });
  }

  /** The class an assignment's annotation or right side names: `x: Foo`, `x = Foo()`, `x = y or Foo()`. */
  private assignedType(left: Node): string | null {
    const type = this.annotations.get(left.id);
    if (type) return this.typeName(type);
    const fn = this.constructors.get(left.id);
    if (fn) return this.calleeType(fn);
    const or = this.orElses.get(left.id);
    return or ? this.constructed(or) : null;
  }

  /** Where `a = b = 1` and `a, b = ...` end: the whole statement. */
  private statementEnd(assign: Node): number {
    const parent = assign.parent;
    return (parent?.type === "expression_statement" ? parent : assign).endIndex;
  }

  private assignName(assign: Node, left: Node): void {
    const scope = this.scopeAt(left.startIndex);
    const scopeKind = this.scopeKind(scope);
    const name = this.name(left);
    if (scopeKind !== "function") {
      // `a = b = 1`: each name gets its own range, or one would nest inside the other.
      const chained = this.chainedLefts.has(left.id);
      const kind: NodeKind =
        scopeKind === "class" ? "property" : /^_*[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
      this.b.symbol(kind, chained ? left : assign, left, {
        name,
        signatureEnd: chained ? this.statementEnd(assign) : undefined,
        exported: scopeKind === "module" && !name.startsWith("_"),
        visibility: visibilityOf(name),
      });
    }
    const typeName = this.assignedType(left);
    if (typeName) this.b.localType(left, scopeKind === "class" ? `this.${name}` : name, typeName);
  }

  private assignPattern(assign: Node, left: Node): void {
    const scopeKind = this.scopeKind(this.scopeAt(left.startIndex));
    if (scopeKind === "function") return;
    const statementEnd = this.statementEnd(assign);
    for (const id of left.namedChildren) {
      if (id?.type !== "identifier") continue;
      const name = this.text(id);
      const kind: NodeKind =
        scopeKind === "class" ? "property" : /^_*[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
      this.b.symbol(kind, id, id, {
        signatureEnd: statementEnd,
        exported: scopeKind === "module" && !name.startsWith("_"),
        visibility: visibilityOf(name),
      });
    }
  }

  /** `self.x = Foo()`, `self.x: Foo = ...`, `self.repo = repo` with `repo: Repo` a parameter. */
  private assignAttr(left: Node, object: Node, attr: Node): void {
    const scope = this.scopeAt(left.startIndex);
    if (this.scopeKind(scope) !== "function" || this.name(object) !== "self") return;
    let typeName = this.assignedType(left);
    if (!typeName) {
      const right = this.rightNames.get(left.id);
      if (right) typeName = this.paramTypes(this.defs[scope]!).get(this.text(right)) ?? null;
    }
    if (typeName) this.b.localType(left, `this.${this.name(attr)}`, typeName);
  }

  /** The class a call's callee names when it is a constructor call; the resolver checks it is a class. */
  private calleeType(fn: Node): string | null {
    const dotted = this.dotted(fn);
    return dotted && !BUILTIN_TYPES.has(dotted) ? dotted : null;
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
    return this.calleeType(fn);
  }

  /** The class an annotation names: `Foo`, `mod.Foo`, `"Foo"`, `Optional[Foo]`, `Foo | None`; null otherwise. */
  private typeName(node: Node, depth = 0): string | null {
    if (depth > 4) return null;
    const t = node.type === "type" ? node.namedChild(0) : node;
    if (!t) return null;
    switch (t.type) {
      case "identifier":
      case "attribute": {
        const dotted = this.dotted(t);
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
    // Declarations, not uses: `type Alias = ...`'s name and `class A[T]`'s type parameters.
    if (this.aliasNames.has(node.id)) return;
    if (this.typeParams.has(node.id) && !this.typeArgs.has(node.id)) return;
    const inner = node.namedChild(0);
    if (inner) this.typeRefsIn(inner, 0);
  }

  private typeRefsIn(t: Node, depth: number): void {
    if (depth > 6) return;
    switch (t.type) {
      case "identifier":
      case "attribute": {
        const dotted = this.dotted(t);
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

  /** The receiver of `recv.name(...)`: a dotted name, `super` for `super().name(...)`, `?` for anything else. */
  private receiver(recv: Node, callee: Node): string {
    if (this.fast) {
      // `a.b.name(`: the text up to the method name is the receiver and a dot.
      const before = this.source.slice(recv.startIndex, callee.startIndex);
      if (DOTTED_RECEIVER.test(before) && !LITERAL_NAMES.test(`.${before}`)) return before.slice(0, -1);
    }
    const superCall =
      recv.type === "call" &&
      recv.childForFieldName("function")?.type === "identifier" &&
      this.text(recv.childForFieldName("function")!) === "super";
    return superCall ? "super" : (this.dotted(recv) ?? "?");
  }

  private call(recv: Node | null, callee: Node, args: Node, generator: boolean): void {
    // `@foo(...)` is a decorator reference, recorded with the definition.
    if (this.decoratorCalls.has(args.id)) return;
    const name = this.name(callee);
    if (!recv && name === "super") return;
    const receiver = recv ? this.receiver(recv, callee) : null;
    let count: number | null = 1;
    if (!generator) {
      const text = this.source.slice(args.startIndex, args.endIndex);
      const plain = this.fast ? plainItems(text) : null;
      count = plain ? plain.length : argCount(args, text);
    }
    this.b.ref("calls", callee, name, receiver, count);
  }

  private moduleName(module: Node): string {
    let name = this.moduleNames.get(module.id);
    if (name === undefined) {
      name = compact(this.text(module));
      this.moduleNames.set(module.id, name);
    }
    return name;
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
      const root = tree.rootNode;
      new PyFile(b, root.hasError).run(query.matches(root));
      return b.finish(null, countSyntaxErrors(root));
    };
  },
};
