import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { ELEMENT, NAMED_VALUE, TUPLE, useBindingName, type ExtractResult, valueOfType } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { fieldIds } from "../fields.js";
import { asciiIdentifierEnd, spanTo } from "../source-text.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast, unquote } from "../ts-helpers.js";
import { captureFor } from "../nodes.js";
import { inSpans, lastStartingBy, type Span } from "../spans.js";
import { calledOrAssigned } from "../capitalised-reads.js";

/**
 * One flat query for the whole file. Each pattern's index says what a match is (see `P`); its captures
 * are the parts, each named once per pattern.
 * Fields, method specs and embeddings are matched only directly under a named type, so anonymous
 * `struct{...}` / `interface{...}` types inside functions or other types add no members.
 *
 * Every capture becomes a JS object and every question asked of a node is a call into WASM, so the
 * patterns capture only what is used and carry the context that would otherwise be found by walking
 * the tree (`Node.parent` descends from the root on every call): calls are split by callee shape,
 * `const`/`var` specs come with their declaration, and short variable declarations are matched only
 * when a value is a composite literal, `&` of one, or a call to `new`. Declarations that bind type
 * parameters are kept as byte ranges (`scopes`) instead of being found from a node by walking up.
 * Comment ranges, and in a tree without errors names and plainly written receivers, are read from the
 * source text instead of node by node.
 */
const QUERY = `
(comment) @comment
(package_clause (package_identifier) @package)
(function_declaration name: (identifier) @name) @def
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @def
(type_spec name: (type_identifier) @name type: (_) @type) @def
[(function_declaration !name) (method_declaration !name) (method_declaration !receiver) (type_spec !name) (type_spec !type)] @scope
(type_alias name: (type_identifier) @name) @def
(type_spec type: (struct_type (field_declaration_list (field_declaration) @field)))
(type_spec type: (interface_type (method_spec name: (field_identifier) @name) @def))
(type_spec type: (interface_type (constraint_elem . [(type_identifier) (qualified_type) (generic_type)] @embed .)))
[(const_declaration (const_spec) @spec) (ERROR (const_spec) @spec)] @decl
[(var_declaration (var_spec) @spec) (ERROR (var_spec) @spec)] @decl
(import_spec path: (_) @path) @import
(call_expression function: (identifier) @name arguments: (argument_list) @args)
(call_expression function: (selector_expression operand: (_) @operand field: (field_identifier) @name) arguments: (argument_list) @args)
(call_expression function: (selector_expression !operand field: (field_identifier) @name) arguments: (argument_list) @args)
(composite_literal type: (_) @type)
(short_var_declaration left: (expression_list) @left right: (expression_list [(composite_literal) (index_expression) (selector_expression) (type_assertion_expression) (unary_expression operator: "&" operand: [(composite_literal) (call_expression) (selector_expression)])]) @right)
(short_var_declaration left: (expression_list) @left right: (expression_list (call_expression)) @right)
(func_literal parameters: (parameter_list) @params)
(range_clause left: (expression_list) @left right: (_) @of) @range
(type_switch_statement alias: (expression_list (identifier) @alias)) @switch
[(parameter_declaration type: (_) @type) (variadic_parameter_declaration type: (_) @type) (field_declaration name: (_) type: (_) @type) (var_spec type: (_) @type) (const_spec type: (_) @type) (type_assertion_expression type: (_) @type) (type_case type: (_) @type) (type_alias type: (_) @type) (function_declaration result: (_) @type) (method_declaration result: (_) @type) (method_spec result: (_) @type) (func_literal result: (_) @type) (function_type result: (_) @type)]
[(argument_list (identifier) @value) (literal_value (literal_element (identifier) @value)) (keyed_element (literal_element) (literal_element (identifier) @value)) (assignment_statement right: (expression_list (identifier) @value)) (short_var_declaration right: (expression_list (identifier) @value)) (var_spec value: (expression_list (identifier) @value)) (binary_expression (identifier) @value) (unary_expression operand: (identifier) @value) (return_statement (expression_list (identifier) @value)) (expression_case value: (expression_list (identifier) @value)) (expression_switch_statement value: (identifier) @value) (if_statement condition: (identifier) @value) (index_expression (identifier) @value) (slice_expression (identifier) @value) (parenthesized_expression (identifier) @value) (send_statement value: (identifier) @value) (range_clause right: (identifier) @value)]
`;

/** Names that by convention hold an error or a flag, never a project type. */
const CONVENTIONAL = new Set(["err", "ok"]);

/** Values that type only the first of several names they are assigned to (the rest: `err`, `ok`). */
const FIRST_OF_SEVERAL = new Set(["call_expression", "index_expression", "type_assertion_expression"]);

/** Pattern indices of `QUERY`, in order. */
const P = {
  Comment: 0,
  Package: 1,
  Function: 2,
  Method: 3,
  TypeSpec: 4,
  Scope: 5,
  TypeAlias: 6,
  Field: 7,
  MethodSpec: 8,
  Embed: 9,
  Const: 10,
  Var: 11,
  Import: 12,
  CallIdent: 13,
  CallSelector: 14,
  CallSelectorNoOperand: 15,
  Composite: 16,
  ShortLiteral: 17,
  ShortCall: 18,
  Closure: 19,
  Range: 20,
  TypeSwitch: 21,
  TypeUse: 22,
  Value: 23,
} as const;

/** Builtin functions: a call of one makes nothing of the project's. */
const BUILTIN_FUNCTIONS = new Set([
  "append",
  "cap",
  "clear",
  "close",
  "complex",
  "copy",
  "delete",
  "imag",
  "len",
  "make",
  "max",
  "min",
  "panic",
  "print",
  "println",
  "real",
  "recover",
]);

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

/** Field ids of the grammar, looked up once instead of by name on every call. */
const FIELD_NAMES = [
  "name",
  "type",
  "value",
  "parameters",
  "body",
  "receiver",
  "operand",
  "field",
  "package",
  "function",
  "arguments",
  "type_parameters",
  "type_arguments",
  "result",
  "element",
  "left",
  "right",
  "initializer",
  "alias",
] as const;
type Fields = Record<(typeof FIELD_NAMES)[number], number>;

/** A named child with its type, read once. */
interface Kid {
  node: Node;
  type: string;
}

/** Named children that are not comments, each with its type. */
function namedKids(node: Node | null): Kid[] {
  const out: Kid[] = [];
  if (!node) return out;
  for (const n of node.namedChildren) {
    if (!n) continue;
    const type = n.type;
    if (type !== "comment") out.push({ node: n, type });
  }
  return out;
}

/**
 * Named children in a field, without the commas some grammar rules put in the field too (`a, b int`).
 * A field holding one node holds the name itself, so only lists are filtered.
 */
function fieldNodes(node: Node, field: number): Node[] {
  const nodes = node.childrenForFieldId(field);
  if (nodes.length === 1 && nodes[0]) return nodes as Node[];
  return nodes.filter((n): n is Node => n !== null && n.isNamed);
}

/** Go's export rule: the name starts with an upper-case letter. */
function isExported(name: string): boolean {
  const c = name.charCodeAt(0);
  if (c < 128) return c >= 65 && c <= 90;
  return /^\p{Lu}/u.test(name);
}

/** `goPackageNameFromPath` per import path: the same few paths are imported file after file. */
const packageNames = new Map<string, string>();

/** A receiver written as plain ASCII names joined by dots, up to the `.` before the method name. */
const PLAIN_RECEIVER = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,8})\s*\.\s*$/;

/** Words that look like names but parse as literals or the blank identifier. */
const NOT_NAMES = new Set(["nil", "true", "false", "iota", "_"]);

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

/** Options for `ExtractionBuilder.symbol`, every field present. */
interface DeclOptions {
  name: string;
  exported: boolean;
  signatureEnd: number | undefined;
  paramCount: number | null;
  owner: string | undefined;
  docNode: Node | undefined;
}

/** A reference whose argument count is known only once the whole file is matched. */
interface PendingRef {
  kind: "calls" | "extends" | "instantiates" | "references";
  at: Node;
  name: string;
  receiver: string | null;
  /** The argument list to count, for calls. */
  args: Node | null;
}

/** A function, method or type declaration: what binds type parameters. */
interface Scope {
  start: number;
  end: number;
  /** Index of the innermost enclosing scope, -1 for none. */
  parent: number;
  node: Node;
  typeParams: ReadonlySet<string> | null;
}

/**
 * A comment's range read from the source instead of from WASM: a `//` comment runs to the end of its
 * line, a block comment to the first `*` + `/` after its opening, and its end row counts the line
 * breaks in between (as tree-sitter does).
 */
function commentSpan(source: string, node: Node): Node {
  const start = node.startIndex;
  let end: number;
  if (source.startsWith("//", start)) {
    end = source.indexOf("\n", start);
    if (end < 0) end = source.length;
  } else {
    end = source.indexOf("*/", start + 2);
    if (end < 0) return node;
    end += 2;
  }
  return spanTo(source, node, end);
}

/** The node captured under `name` in a match; each pattern names a capture once. */
const capture = captureFor("go");

class GoFile {
  packageName: string | null = null;
  /** Declarations that bind type parameters, in source order. */
  private readonly scopes: Scope[] = [];
  /** References in match order, held back until argument lists' comments are known. */
  private readonly refs: PendingRef[] = [];
  /** Where each comment starts, in source order: comments inside an argument list are not arguments. */
  private readonly commentStarts: number[] = [];
  /** Short variable declarations already handled (by the start of their values): one can match twice. */
  private readonly shortsSeen = new Set<number>();
  /** The names the file's imports bind (`base`, `fmt`): a local of one of these names is not typed. */
  private readonly importNames = new Set<string>();
  /** Imports that bind a package name, to find the names the file uses through each (`usesOfImports`). */
  private readonly packageImports: { local: string; specifier: string; line: number }[] = [];
  /**
   * Written types, walked once the whole file is matched: a receiver's parameter is matched before
   * its method, and a function's parameters before the scope that binds its type parameters.
   */
  private readonly typeUses: Node[] = [];
  /** Names each top-level declaration's text may declare as locals (see `mayDeclare`), by its start. */
  private readonly declaredNames = new Map<number, Set<string>>();
  /** Package-level `var` declarations, in source order (see `mayDeclare`). */
  private readonly packageVars: Span[] = [];
  /** Methods' receiver lists, in source order: a receiver's type is no use of it. */
  private readonly receivers: Span[] = [];

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly f: Fields,
    private readonly root: Node,
    private readonly clean: boolean,
  ) {}

  private text(n: Node): string {
    return this.b.text(n);
  }

  /**
   * Text of an identifier-like node. In a tree without errors every such node is a whole token, so
   * its ASCII text is the run of identifier characters at its start, read without asking WASM for
   * its end; a name running into a non-ASCII character, or any name in a tree with errors (which may
   * hold zero-width MISSING nodes), is sliced by its range.
   */
  private ident(n: Node): string {
    if (this.clean) {
      const src = this.b.source;
      const start = n.startIndex;
      const end = asciiIdentifierEnd(src, start, false);
      if (end > start) return src.slice(start, end);
    }
    return this.b.text(n);
  }

  handle(m: QueryMatch): void {
    switch (m.patternIndex) {
      case P.Comment: {
        const node = m.captures[0]!.node;
        this.commentStarts.push(node.startIndex);
        return this.b.comment(commentSpan(this.b.source, node));
      }
      case P.Package:
        this.packageName ??= this.text(m.captures[0]!.node);
        return;
      case P.Function: {
        const def = capture(m, "def");
        this.addScope(def);
        return this.func(def, capture(m, "name"));
      }
      case P.Method: {
        const def = capture(m, "def");
        this.addScope(def);
        return this.method(def, capture(m, "receiver"), capture(m, "name"));
      }
      case P.TypeSpec: {
        const def = capture(m, "def");
        this.addScope(def);
        return this.typeSpec(def, capture(m, "name"), capture(m, "type"));
      }
      case P.Scope:
        return this.addScope(m.captures[0]!.node);
      case P.TypeAlias:
        return this.typeSymbol("type_alias", capture(m, "def"), capture(m, "name"), null);
      case P.Field:
        return this.field(m.captures[0]!.node);
      case P.MethodSpec:
        return this.methodSpec(capture(m, "def"), capture(m, "name"));
      case P.Embed:
        return this.embed(m.captures[0]!.node);
      case P.Const: {
        const decl = capture(m, "decl");
        if (this.isTopLevel(decl)) this.topLevelSpec("constant", capture(m, "spec"), decl);
        return;
      }
      case P.Var: {
        const decl = capture(m, "decl");
        const spec = capture(m, "spec");
        if (this.isTopLevel(decl)) {
          this.topLevelSpec("variable", spec, decl);
          const start = decl.startIndex;
          if (this.packageVars.at(-1)?.start !== start) this.packageVars.push({ start, end: decl.endIndex });
        }
        return this.localVar(spec);
      }
      case P.Import:
        return this.importSpec(capture(m, "import"), capture(m, "path"));
      case P.CallIdent: {
        const name = capture(m, "name");
        const text = this.ident(name);
        const args = capture(m, "args");
        if (text === "new") return this.allocation(args);
        if (!BUILTIN_FUNCTIONS.has(text) && this.callsLocal(name, text)) return;
        return this.pushRef("calls", name, text, null, args);
      }
      case P.CallSelector: {
        const name = capture(m, "name");
        const receiver = this.receiverOf(capture(m, "operand"), name);
        return this.pushRef("calls", name, this.ident(name), receiver, capture(m, "args"));
      }
      case P.CallSelectorNoOperand: {
        const name = capture(m, "name");
        return this.pushRef("calls", name, this.ident(name), "?", capture(m, "args"));
      }
      case P.Composite:
        return this.composite(m.captures[0]!.node);
      case P.ShortLiteral:
        return this.assign(capture(m, "left"), capture(m, "right"));
      case P.ShortCall:
        return this.assign(capture(m, "left"), capture(m, "right"));
      case P.Closure:
        this.paramList(m.captures[0]!.node, true);
        return;
      case P.Range:
        return this.range(capture(m, "range"), capture(m, "left"), capture(m, "of"));
      case P.TypeSwitch:
        return this.typeSwitch(capture(m, "switch"), capture(m, "alias"));
      case P.TypeUse:
        this.typeUses.push(m.captures[0]!.node);
        return;
      case P.Value: {
        // A name used as a value (an argument, a literal's element or field, an assignment's value,
        // an operand): a function, type, constant or variable of the package, named so, is used. Not
        // where the declaration around it may declare a local of the name, which most such names are
        // (`t`, `err`, `ctx`), nor a package's name (`fmt.Println`).
        const value = m.captures[0]!.node;
        const text = this.ident(value);
        if (text !== "_" && !this.importNames.has(text) && !this.mayDeclare(value.startIndex, text))
          this.pushRef("references", value, text, NAMED_VALUE);
        return;
      }
    }
  }

  /** Hand the references to the builder in match order, then the written types' uses. */
  flush(): void {
    for (const t of this.typeUses) if (!inSpans(this.receivers, t.startIndex)) this.typeRefs(t, t.startIndex, 0);
    for (const r of this.refs) {
      this.b.ref(r.kind, r.at, r.name, r.receiver, r.args && r.name ? this.argCount(r.args) : null);
    }
  }

  /** Arguments in a list, not counting comments: only a list with a comment inside needs a closer look. */
  private argCount(args: Node): number {
    const count = args.namedChildCount;
    if (count === 0) return 0;
    const starts = this.commentStarts;
    const from = args.startIndex;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    if (lo < starts.length && starts[lo]! < args.endIndex) return namedKids(args).length;
    return count;
  }

  /** A declaration directly in the file, not in a function. */
  private isTopLevel(decl: Node): boolean {
    return this.root.type === "source_file" && this.root.firstNamedChildForIndex(decl.startIndex)?.id === decl.id;
  }

  private pushRef(kind: PendingRef["kind"], at: Node, name: string, receiver: string | null, args: Node | null = null) {
    this.refs.push({ kind, at, name, receiver, args });
  }

  // ---- declarations ----

  /** Symbol options with the declaration's name and whether Go exports it; every field set, so each has one shape. */
  private options(name: Node): DeclOptions {
    const text = this.ident(name);
    return {
      name: text,
      exported: isExported(text),
      signatureEnd: undefined,
      paramCount: null,
      owner: undefined,
      docNode: undefined,
    };
  }

  private func(def: Node, name: Node): void {
    const params = def.childForFieldId(this.f.parameters);
    const options = this.options(name);
    options.paramCount = params ? this.paramList(params, true) : null;
    options.signatureEnd = def.childForFieldId(this.f.body)?.startIndex;
    this.b.symbol("function", def, name, options);
    this.returns(def, name);
  }

  /**
   * A function's first result type, as its return type: `(*T, error)` returns a `T`; and each later
   * one as that position's (`(*Conn, *Buf, error)`: `()#1` is a Buf, see TUPLE). Named results are
   * locals of the function, as parameters are (`(cmd *Command, err error)`: `cmd.Name()`).
   */
  private returns(def: Node, name: Node): void {
    let result = def.childForFieldId(this.f.result);
    if (result?.type === "parameter_list") {
      // `(a, b *Repo, err error)`: a declaration of several names is a position for each.
      const types = namedKids(result)
        .filter((k) => k.type === "parameter_declaration")
        .flatMap((k) => {
          const type = k.node.childForFieldId(this.f.type);
          const names = namedKids(k.node).filter((c) => c.type === "identifier");
          const typeName = type && names.length ? this.typeName(type, name.startIndex) : null;
          if (typeName) for (const id of names) this.local(id.node, typeName, false);
          return Array.from({ length: Math.max(1, names.length) }, () => type);
        });
      types.slice(1).forEach((t, i) => {
        const later = t ? this.typeName(t, name.startIndex) : null;
        if (later) this.b.localType(name, `()${TUPLE}${i + 1}`, later);
      });
      result = types[0] ?? null;
    }
    const typeName = result ? this.typeName(result, name.startIndex) : null;
    if (typeName) this.b.localType(name, "()", typeName);
  }

  private method(def: Node, receiver: Node, name: Node): void {
    this.receivers.push({ start: receiver.startIndex, end: receiver.endIndex });
    const recvDecl = namedKids(receiver).find((k) => k.type === "parameter_declaration")?.node;
    const recvType = recvDecl?.childForFieldId(this.f.type) ?? null;
    const owner = recvType ? this.receiverTypeName(recvType) : null;
    const recvName = recvDecl?.childForFieldId(this.f.name);
    if (recvName && owner) {
      const text = this.ident(recvName);
      if (text !== "_") this.b.localType(recvName, text, owner);
    }
    const params = def.childForFieldId(this.f.parameters);
    const options = this.options(name);
    options.signatureEnd = def.childForFieldId(this.f.body)?.startIndex;
    options.paramCount = params ? this.paramList(params, true) : null;
    if (owner) options.owner = owner;
    this.b.symbol("method", def, name, options);
    this.returns(def, name);
  }

  /**
   * Declared parameters: `a, b int` counts 2, `(int, string)` counts 2; null when variadic. With
   * `locals`, also records the type of each named parameter.
   */
  private paramList(params: Node, locals: boolean): number | null {
    let n: number | null = 0;
    for (const { node: p, type } of namedKids(params)) {
      if (type === "variadic_parameter_declaration") {
        n = null;
        if (!locals) break;
        continue;
      }
      if (type !== "parameter_declaration") continue;
      const names = fieldNodes(p, this.f.name);
      if (n !== null) n += Math.max(1, names.length);
      if (!locals || names.length === 0) continue;
      const ptype = p.childForFieldId(this.f.type);
      const typeName = ptype ? this.typeName(ptype, p.startIndex) : null;
      if (!typeName) continue;
      // A parameter is in scope in the whole function, even named as an import.
      for (const id of names) this.local(id, typeName, false);
    }
    return n;
  }

  /** `Server`, `*Server`, `Server[T]`, `*Server[T]` → `Server`. */
  private receiverTypeName(t: Node): string | null {
    for (let i = 0; i < 4; i++) {
      const type = t.type;
      if (type === "type_identifier") return this.ident(t);
      const inner: Node | null =
        type === "pointer_type" || type === "parenthesized_type"
          ? t.namedChild(0)
          : type === "generic_type"
            ? t.childForFieldId(this.f.type)
            : null;
      if (!inner) return null;
      t = inner;
    }
    return null;
  }

  private typeSpec(spec: Node, name: Node, type: Node): void {
    const t = type.type;
    const kind: NodeKind = t === "struct_type" ? "struct" : t === "interface_type" ? "interface" : "type_alias";
    let bodyStart: number | null = null;
    if (t === "struct_type") {
      bodyStart = namedKids(type).find((k) => k.type === "field_declaration_list")?.node.startIndex ?? null;
    } else if (t === "interface_type") {
      const brace = this.b.source.indexOf("{", type.startIndex);
      bodyStart = brace >= 0 && brace < type.endIndex ? brace : null;
    }
    this.typeSymbol(kind, spec, name, bodyStart);
    this.typeUses.push(type);
  }

  private typeSymbol(kind: NodeKind, spec: Node, name: Node, bodyStart: number | null): void {
    const node = this.soleDeclaration(spec, spec.parent);
    const options = this.options(name);
    if (bodyStart !== null) options.signatureEnd = bodyStart;
    this.b.symbol(kind, node, name, options);
  }

  /**
   * A spec written alone (`type T struct{}`, `var x = 1`) is represented by its whole declaration, so
   * the signature starts at the keyword and the comment above it is its doc; a spec inside a group
   * `var ( ... )` stands for itself. `decl` is the spec's parent.
   */
  private soleDeclaration(spec: Node, decl: Node | null): Node {
    if (!decl) return spec;
    const t = decl.type;
    if (t !== "type_declaration" && t !== "var_declaration" && t !== "const_declaration") return spec;
    if (decl.child(1)?.type === "(") return spec;
    return decl;
  }

  private field(decl: Node): void {
    const names = fieldNodes(decl, this.f.name);
    const type = decl.childForFieldId(this.f.type);
    if (names.length === 0) {
      // Embedded field: `B`, `*B`, `pkg.C`, `List[T]`. Its implicit field name is the type's name.
      if (!type) return;
      const dotted = this.typeName(type, decl.startIndex);
      if (!dotted) return;
      const { receiver, name } = splitLast(dotted);
      this.pushRef("extends", type, name, receiver);
      this.b.localType(type, `this.${name}`, dotted);
      return;
    }
    const typeName = type ? this.typeName(type, decl.startIndex) : null;
    const end = decl.endIndex;
    for (const n of names) {
      const name = this.ident(n);
      this.b.symbol("property", names.length === 1 ? decl : n, n, {
        name,
        exported: isExported(name),
        signatureEnd: end,
        docNode: decl,
      });
      if (typeName && name !== "_") this.b.localType(n, `this.${name}`, typeName);
    }
  }

  private methodSpec(spec: Node, name: Node): void {
    const params = spec.childForFieldId(this.f.parameters);
    const options = this.options(name);
    options.paramCount = params ? this.paramList(params, false) : null;
    this.b.symbol("method", spec, name, options);
    this.returns(spec, name);
  }

  private embed(type: Node): void {
    const dotted = this.typeName(type, -1);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.pushRef("extends", type, name, receiver);
  }

  /** A `const`/`var` spec at the top level (`decl` is its parent): one symbol per name. */
  private topLevelSpec(kind: "constant" | "variable", spec: Node, decl: Node): void {
    const names = fieldNodes(spec, this.f.name);
    if (names.length === 0) return;
    const single = names.length === 1;
    const docNode = this.soleDeclaration(spec, decl);
    const end = spec.endIndex;
    for (const n of names) {
      const options = this.options(n);
      options.signatureEnd = end;
      options.docNode = docNode;
      this.b.symbol(kind, single ? docNode : n, n, options);
    }
  }

  /** `var a, b T` or `var a, b = T{}, new(U)` anywhere: each name holds a T / what its value builds. */
  private localVar(spec: Node): void {
    const type = spec.childForFieldId(this.f.type);
    if (type) {
      const typeName = this.typeName(type, spec.startIndex);
      if (typeName) for (const n of fieldNodes(spec, this.f.name)) this.local(n, typeName);
      return;
    }
    const values = namedKids(spec.childForFieldId(this.f.value));
    if (!values.some((v) => BUILDERS.has(v.type))) return;
    const names = fieldNodes(spec, this.f.name);
    if (values.length !== names.length) return;
    names.forEach((n, i) => this.localFromValue(n, values[i]!));
  }

  // ---- imports ----

  private importSpec(spec: Node, pathNode: Node): void {
    const specifier = unquote(this.text(pathNode));
    const alias = spec.childForFieldId(this.f.name);
    const line = spec.startPosition.row + 1;
    let local: string;
    let imported: string | null = "*";
    if (!alias) {
      let cached = packageNames.get(specifier);
      if (cached === undefined) packageNames.set(specifier, (cached = goPackageNameFromPath(specifier)));
      local = cached;
    } else {
      const t = alias.type;
      if (t === "dot") local = "*";
      else if (t === "blank_identifier") {
        local = "";
        imported = null;
      } else local = this.text(alias);
    }
    this.b.import({ local, imported, specifier, line, reexport: false });
    this.b.symbol("import", spec, null, { name: local });
    this.importNames.add(local);
    if (imported === "*" && local !== "*") this.packageImports.push({ local, specifier, line });
  }

  /**
   * Each exported name the file reaches through a package it imports (`http.Request`, `io.EOF`,
   * `fmt.Println`), as a binding `http.Request` of `Request` from that package: the package's import
   * then reaches only the files declaring those names (`LanguageRules.importsByUse`). Read from the
   * text, so a name written in a comment or a string counts too: at worst an edge to a file of a
   * package the file imports anyway. The types are walked only after the matches, so the matches
   * alone would miss names. Each value read so is a reference too (`readThrough`).
   */
  usesOfImports(): void {
    if (!this.packageImports.length) return;
    const byLocal = new Map(this.packageImports.map((i) => [i.local, i]));
    const names = [...byLocal.keys()].map((n) => n.replace(/[^\w]/g, "\\$&")).join("|");
    const seen = new Set<string>();
    for (const m of this.b.source.matchAll(new RegExp(`(?<![\\w.])(${names})\\.([A-Z]\\w*)`, "g"))) {
      this.readThrough(m[1]!, m[2]!, m.index + m[1]!.length + 1);
      const local = useBindingName(m[1]!, m[2]!);
      if (seen.has(local)) continue;
      seen.add(local);
      const { specifier, line } = byLocal.get(m[1]!)!;
      this.b.import({ local, imported: m[2]!, specifier, line, reexport: false });
    }
  }

  /**
   * `http.StatusOK`, `io.EOF`, `sort.Strings` named as a value: a package's constant, variable or
   * function read through its name (a `NAMED_VALUE` on the package), where the tree has a value's
   * field there (`http.Request` as a type is a type's name), not called (a call is one already) nor
   * assigned, unless a local takes the package's name there.
   */
  private readThrough(pkg: string, name: string, at: number): void {
    const source = this.b.source;
    if (calledOrAssigned(source, at + name.length)) return;
    // A type, before asking the tree: `[]ast.Node`, `map[K]types.Type`, `ast.Ident{..}` (a value is
    // written `x == pkg.V {` with a space).
    const after = source.charCodeAt(at + name.length);
    if (source.charCodeAt(at - pkg.length - 2) === 93 || after === 123 || this.mayDeclare(at, pkg)) return;
    const node = this.root.descendantForIndex(at, at + name.length);
    if (node?.type === "field_identifier") this.b.ref("references", node, name, `${NAMED_VALUE}${pkg}`);
  }

  // ---- references ----

  private composite(type: Node): void {
    const dotted = this.typeName(type, -1);
    // A slice or map literal (`[]Item{..}`) makes no Item itself; its elements are literals of their own.
    if (!dotted || dotted.endsWith("[]")) return;
    const { receiver, name } = splitLast(dotted);
    this.pushRef("instantiates", type, name, receiver);
  }

  /**
   * Each project type a written type uses (`*Order`, `map[Key][]pkg.Item`, `List[Order]`) as a
   * `references` ref: what `impact` and `callers --all-uses` follow to a parameter's, result's, field's
   * or variable's type. Struct, interface and function types stop the walk: their fields, methods and
   * parameters are matched themselves. An array's length is a value, not a type.
   */
  private typeRefs(t: Node, scope: number, depth: number): void {
    if (depth > 8) return;
    switch (t.type) {
      case "type_identifier": {
        const name = this.ident(t);
        // `case nil:` in a type switch is written where a type goes.
        if (!PREDECLARED.has(name) && name !== "nil" && !this.typeParamsAt(scope).has(name))
          this.pushRef("references", t, name, null);
        return;
      }
      case "qualified_type": {
        const dotted = this.dotted(t);
        if (!dotted) return;
        const { receiver, name } = splitLast(dotted);
        return this.pushRef("references", t, name, receiver);
      }
      case "array_type": {
        const element = t.childForFieldId(this.f.element);
        if (element) this.typeRefs(element, scope, depth + 1);
        return;
      }
      case "pointer_type":
      case "parenthesized_type":
      case "slice_type":
      case "map_type":
      case "channel_type":
      case "generic_type":
      case "type_arguments":
      case "type_elem":
        for (const k of namedKids(t)) this.typeRefs(k.node, scope, depth + 1);
        return;
    }
  }

  /**
   * `new(T)` makes a T, as `T{}` does: an instantiation of T (the builtin itself is nothing of the
   * project's). `new(int)`, or a type parameter, makes nothing.
   */
  private allocation(args: Node): void {
    const type = args.namedChild(0);
    const dotted = type && args.namedChildCount === 1 ? this.typeName(type, type.startIndex) : null;
    if (!dotted || dotted.endsWith("[]")) return;
    const { receiver, name } = splitLast(dotted);
    this.pushRef("instantiates", type!, name, receiver);
  }

  // ---- locals called by name ----

  /**
   * Whether a bare call of `name` at `at` calls a local of the functions around it (a parameter, a
   * named result, a receiver, a variable declared before it in an enclosing block or statement):
   * a func value (`f := signal.Notify`, `g func(I)`, `var f func()`), nothing the package's `name`
   * stands for. A local holding a member of a value (`incr := s.incr`) is left to the resolver,
   * which follows such a method value to its method (`methodValue`).
   */
  private callsLocal(at: Node, name: string): boolean {
    if (!this.mayDeclare(at.startIndex, name)) return false;
    let child: Node = at;
    for (let n = at.parent; n; child = n, n = n.parent) {
      switch (n.type) {
        case "function_declaration":
        case "method_declaration":
          return this.paramDeclares(n, name) !== null;
        case "func_literal":
          if (this.paramDeclares(n, name) !== null) return true;
          continue;
        case "block":
        case "expression_case":
        case "type_case":
        case "default_case":
        case "communication_case": {
          // Statements before the one holding the call, latest first: the nearest declaration counts.
          const before: Node[] = [];
          for (const k of n.namedChildren) if (k && k.endIndex <= child.startIndex) before.push(k);
          for (let i = before.length - 1; i >= 0; i--) {
            const value = this.statementDeclares(before[i]!, name);
            if (value !== null) return !this.methodValue(value);
          }
          continue;
        }
        case "if_statement":
        case "expression_switch_statement":
        case "type_switch_statement":
        case "for_statement": {
          // `if f := g(); ..`, `for i, f := range fs`, `switch t := x.(type)`: in scope in the statement.
          for (const k of n.namedChildren) {
            if (!k || k.id === child.id || k.type === "block") continue;
            if (k.startIndex <= at.startIndex && at.startIndex < k.endIndex) continue;
            const value = this.statementDeclares(k, name);
            if (value !== null) return !this.methodValue(value);
            if (n.type === "type_switch_statement" && k.id === n.childForFieldId(this.f.alias)?.id) {
              const names = k.type === "expression_list" ? namedKids(k).map((c) => c.node) : [k];
              if (names.some((c) => c.type === "identifier" && this.ident(c) === name)) return true;
            }
          }
          continue;
        }
      }
    }
    return false;
  }

  /**
   * Whether the text of the top-level declaration around `at` declares `name` as a local could be
   * (`name :=`, `a, name :=`, `var name T`, a parameter `name T` or `name, b T`): most called names
   * it does not, and need no walk up the tree. Comments and strings may say yes. Outside any
   * function or type, only a package-level `var`'s text may (its function literals' parameters and
   * locals).
   */
  private mayDeclare(at: number, name: string): boolean {
    let i = this.scopeAt(at);
    let scope: Span | undefined;
    if (i >= 0) {
      while (this.scopes[i]!.parent >= 0) i = this.scopes[i]!.parent;
      scope = this.scopes[i]!;
    } else {
      scope = lastStartingBy(this.packageVars, at);
      if (!scope || at >= scope.end) return false;
    }
    let names = this.declaredNames.get(scope.start);
    if (!names) {
      names = new Set();
      const text = this.b.source.slice(scope.start, scope.end);
      for (const m of text.matchAll(NON_ASCII.test(text) ? DECLARED_LIKE_UNICODE : DECLARED_LIKE)) names.add(m[1]!);
      this.declaredNames.set(scope.start, names);
    }
    return names.has(name);
  }

  /**
   * What a statement declaring `name` gives it: its value, `false` without one (`var f func()`, a
   * range's or a receive's variable); null when the statement does not declare `name`.
   */
  private statementDeclares(s: Node, name: string): Node | false | null {
    switch (s.type) {
      case "short_var_declaration": {
        const names = namedKids(s.childForFieldId(this.f.left));
        const i = names.findIndex((k) => k.type === "identifier" && this.ident(k.node) === name);
        if (i < 0) return null;
        const values = namedKids(s.childForFieldId(this.f.right));
        return values.length === names.length ? values[i]!.node : false;
      }
      case "var_declaration":
      case "const_declaration": {
        for (const spec of s.namedChildren) {
          if (!spec) continue;
          const specs = spec.type === "var_spec_list" ? spec.namedChildren : [spec];
          for (const v of specs) {
            if (v?.type !== "var_spec" && v?.type !== "const_spec") continue;
            const names = fieldNodes(v, this.f.name);
            const i = names.findIndex((k) => this.ident(k) === name);
            if (i < 0) continue;
            const values = namedKids(v.childForFieldId(this.f.value));
            return values.length === names.length ? values[i]!.node : false;
          }
        }
        return null;
      }
      case "for_clause": {
        const init = s.childForFieldId(this.f.initializer);
        return init ? this.statementDeclares(init, name) : null;
      }
      case "range_clause":
      case "receive_statement": {
        const left = s.childForFieldId(this.f.left);
        return left && namedKids(left).some((k) => k.type === "identifier" && this.ident(k.node) === name)
          ? false
          : null;
      }
      default:
        return null;
    }
  }

  /** Whether a function's receiver, parameters or named results declare `name`: null when not. */
  private paramDeclares(def: Node, name: string): true | null {
    for (const list of [
      def.childForFieldId(this.f.receiver),
      def.childForFieldId(this.f.parameters),
      def.childForFieldId(this.f.result),
    ]) {
      if (list?.type !== "parameter_list") continue;
      for (const { node: p } of namedKids(list)) {
        if (p.type !== "parameter_declaration" && p.type !== "variadic_parameter_declaration") continue;
        if (fieldNodes(p, this.f.name).some((id) => this.ident(id) === name)) return true;
      }
    }
    return null;
  }

  /** A value that is a member of a value (`s.incr`), not of an imported package (`signal.Notify`). */
  private methodValue(value: Node | false): boolean {
    if (value === false || value.type !== "selector_expression") return false;
    const operand = value.childForFieldId(this.f.operand);
    return operand?.type !== "identifier" || !this.importNames.has(this.ident(operand));
  }

  // ---- local types ----

  /**
   * `a, b := T{}, &U{}`: pairs names with values; matched once per literal, handled once. A single call,
   * index or type assertion for several names (`f, err := os.Open(p)`, `n, ok := x.(*T)`) types the
   * first, with the call's first result, the element or the asserted type.
   */
  private assign(left: Node, right: Node): void {
    const key = right.startIndex;
    if (this.shortsSeen.has(key)) return;
    this.shortsSeen.add(key);
    const names = namedKids(left);
    const values = namedKids(right);
    // `f, err := os.Open(p)`, `r, ok := m[k]`, `n, ok := x.(*T)`: the first name has the value's type;
    // `c, buf, err := s.newConn()`, the later ones the call's later results.
    if (values.length === 1 && names.length > 1 && FIRST_OF_SEVERAL.has(values[0]!.type)) {
      if (names[0]!.type === "identifier") this.localFromValue(names[0]!.node, values[0]!);
      const value = values[0]!.node;
      const call = value.type === "call_expression" ? this.calleeChain(value.childForFieldId(this.f.function)) : null;
      // `err` and `ok` hold an error and a bool by convention: not worth a type each (every call has one).
      if (call)
        names.slice(1).forEach((n, i) => {
          if (n.type === "identifier" && !CONVENTIONAL.has(this.ident(n.node)))
            this.local(n.node, `${call}${TUPLE}${i + 1}`);
        });
      return;
    }
    if (names.length !== values.length) return;
    names.forEach((n, i) => {
      if (n.type === "identifier") this.localFromValue(n.node, values[i]!);
    });
  }

  /**
   * `T{}`, `&T{}`, `new(T)` → `T`; a call of a plain or dotted name → that call (`New()`,
   * `srv.newConn()`, `pkg.Open()`), which the resolver follows to the callee's first result type, or
   * to the type a conversion names (`Celsius(x)`); a member (`s.repo`, `&s.repo`) → that member;
   * anything else says nothing.
   */
  private localFromValue(name: Node, value: Kid): void {
    let v: Node | null = value.node;
    let vt = value.type;
    if (vt === "unary_expression" && this.b.source.startsWith("&", v.startIndex)) {
      v = v.childForFieldId(this.f.operand);
      if (!v) return;
      vt = v.type;
    }
    let type: Node | null = null;
    // `n := x.(*ast.CallExpr)`: the asserted type.
    if (vt === "type_assertion_expression") type = v.childForFieldId(this.f.type);
    else if (vt === "selector_expression") {
      // `r := s.repo`, `srv := http.DefaultServer`: of the member's or the value's type.
      const member = this.dotted(v);
      if (member) this.local(name, member);
      return;
    }
    if (vt === "index_expression") {
      // `first := orders[0]`: an element of orders.
      const element = this.elementOf(v);
      if (element) this.local(name, element);
      return;
    }
    if (vt === "composite_literal") type = v.childForFieldId(this.f.type);
    else if (vt === "call_expression") {
      const fn = v.childForFieldId(this.f.function);
      if (fn?.type === "identifier" && this.ident(fn) === "new") {
        const args = namedKids(v.childForFieldId(this.f.arguments));
        if (args.length === 1) type = args[0]!.node;
      } else {
        const call = this.calleeChain(fn);
        if (call) this.local(name, call);
        return;
      }
    }
    const typeName = type ? this.typeName(type, name.startIndex) : null;
    if (typeName) this.local(name, typeName);
  }

  /**
   * A call of a plain or dotted name (its function `fn`) as a chain (`New()`, `srv.newConn()`,
   * `c.Root().Find()`); null for builtins, conversions to them, and any other callee.
   */
  private calleeChain(fn: Node | null, depth = 0): string | null {
    if (fn?.type !== "identifier" && fn?.type !== "selector_expression") return null;
    const callee = fn.type === "identifier" ? this.ident(fn) : this.chain(fn, depth);
    return callee && !BUILTIN_FUNCTIONS.has(callee) && !PREDECLARED.has(callee) ? `${callee}()` : null;
  }

  /**
   * `for _, o := range orders`: in the loop's body, o is an element of orders (a slice's or array's,
   * a map's value). A lone variable is the index or key, and is not bound.
   */
  private range(clause: Node, left: Node, of: Node): void {
    const names = namedKids(left);
    const value = names[1];
    const body = clause.parent?.childForFieldId(this.f.body);
    const chain = this.dotted(of);
    if (names.length !== 2 || value?.type !== "identifier" || !body || !chain) return;
    this.b.bindElement(this.ident(value.node), body.startIndex, body.endIndex, chain);
  }

  /**
   * Locals are typed per function, not per block, so one named as an import (`base := g.obj(x)` in
   * one block, `base.Fatalf(...)` for the package in another) would hide the package everywhere in the
   * function: such a local is not typed at all. A parameter (`inBlock` false) is in scope everywhere.
   */
  private local(name: Node, typeName: string, inBlock = true): void {
    const text = this.ident(name);
    if (text !== "_" && !(inBlock && this.importNames.has(text))) this.b.localType(name, text, typeName);
  }

  /**
   * The resolvable name of a type: `T`, `*T`, `pkg.T`, `T[int]` → `T` / `pkg.T`. Null for slices, maps,
   * channels, function and literal types, predeclared types, and the type parameters in scope at
   * position `scope` (-1: none).
   */
  private typeName(t: Node, scope: number): string | null {
    for (let i = 0; i < 6; i++) {
      switch (t.type) {
        case "type_identifier":
        case "identifier": {
          const name = this.ident(t);
          if (PREDECLARED.has(name)) return null;
          if (scope >= 0 && this.typeParamsAt(scope).has(name)) return null;
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
          const inner = t.childForFieldId(this.f.type);
          if (!inner) return null;
          t = inner;
          continue;
        }
        case "slice_type":
        case "array_type":
        case "map_type": {
          // `[]*Order`, `[4]Order`, `map[string]*Order`: elements (a map's values) are Orders (see ELEMENT).
          const element = t.childForFieldId(t.type === "map_type" ? this.f.value : this.f.element);
          const inner = element ? this.typeName(element, scope) : null;
          return inner ? `${inner}[]` : null;
        }
        default:
          return null;
      }
    }
    return null;
  }

  /**
   * The receiver of a call `operand.name(...)`: `dotted(operand)`, or `?`. A receiver written plainly
   * (`s`, `s.conn`, no spaces or comments) in a tree without errors is read from the source text.
   */
  private receiverOf(operand: Node, name: Node): string {
    if (this.clean) {
      const m = PLAIN_RECEIVER.exec(this.b.source.slice(operand.startIndex, name.startIndex));
      if (m) {
        const text = m[1]!;
        const dot = text.indexOf(".");
        if (!NOT_NAMES.has(dot < 0 ? text : text.slice(0, dot))) return text;
      }
    }
    if (operand.type === "index_expression") return this.elementOf(operand) ?? "?";
    return this.chain(operand) ?? "?";
  }

  /**
   * A dotted name through calls, as the resolver reads chains (`c.Root()`, `s.Conn().Reader`): what
   * a call's result is, its callee's declared result says. Null for anything else in it.
   */
  private chain(n: Node, depth = 0): string | null {
    if (depth > 8) return null;
    if (n.type === "call_expression") return this.calleeChain(n.childForFieldId(this.f.function), depth + 1);
    if (n.type !== "selector_expression") return this.dotted(n);
    const left = n.childForFieldId(this.f.operand);
    const right = n.childForFieldId(this.f.field);
    const l = left && right ? this.chain(left, depth + 1) : null;
    return l ? `${l}.${this.ident(right!)}` : null;
  }

  /**
   * `switch n := x.(type) { case *ssa.Call: n.Common() }`: in a case of one type, n is a value of it
   * (see `chainType`'s `new T()`), also when n shadows a typed name; a case of several types, `nil`
   * and `default` leave n what x is.
   */
  private typeSwitch(statement: Node, alias: Node): void {
    const name = this.ident(alias);
    if (name === "_") return;
    for (const { node, type } of namedKids(statement)) {
      if (type !== "type_case") continue;
      const types = fieldNodes(node, this.f.type);
      const typeName = types.length === 1 ? this.typeName(types[0]!, node.startIndex) : null;
      if (typeName && !NOT_NAMES.has(typeName))
        this.b.narrow(name, node.startIndex, node.endIndex, valueOfType(typeName));
    }
  }

  /** `orders[i]` as an element of orders (see ELEMENT); null when orders is no dotted name. */
  private elementOf(index: Node): string | null {
    const of = index.childForFieldId(this.f.operand);
    const chain = of ? this.dotted(of) : null;
    return chain ? `${chain}${ELEMENT}` : null;
  }

  /** `a`, `a.b`, `pkg.T`: identifiers joined by selectors; null for calls, indexing, parentheses. */
  private dotted(n: Node, depth = 0): string | null {
    if (depth > 8) return null;
    switch (n.type) {
      case "identifier":
      case "type_identifier":
      case "field_identifier":
      case "package_identifier":
        return this.ident(n);
      case "selector_expression":
      case "qualified_type": {
        const left = n.childForFieldId(this.f.operand) ?? n.childForFieldId(this.f.package);
        const right = n.childForFieldId(this.f.field) ?? n.childForFieldId(this.f.name);
        if (!left || !right) return null;
        const l = this.dotted(left, depth + 1);
        return l ? `${l}.${this.ident(right)}` : null;
      }
      default:
        return null;
    }
  }

  // ---- type parameter scopes ----

  /** Record a function, method or type declaration. They arrive in source order, parents first. */
  private addScope(node: Node): void {
    const start = node.startIndex;
    if (this.scopes.length && this.scopes[this.scopes.length - 1]!.start === start) return;
    let parent = this.scopes.length - 1;
    while (parent >= 0 && this.scopes[parent]!.end <= start) parent = this.scopes[parent]!.parent;
    this.scopes.push({ start, end: node.endIndex, parent, node, typeParams: null });
  }

  /** Type parameter names of the innermost generic function, method receiver or type declaration around `at`. */
  private typeParamsAt(at: number): ReadonlySet<string> {
    const idx = this.scopeAt(at);
    if (idx < 0) return EMPTY;
    const scope = this.scopes[idx]!;
    return (scope.typeParams ??= this.typeParamsOf(scope.node));
  }

  /** The innermost declaration recorded so far around `at` (an index of `scopes`), or -1. */
  private scopeAt(at: number): number {
    const scopes = this.scopes;
    let lo = 0;
    let hi = scopes.length - 1;
    let idx = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (scopes[mid]!.start <= at) {
        idx = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (idx >= 0 && scopes[idx]!.end <= at) idx = scopes[idx]!.parent;
    return idx;
  }

  private typeParamsOf(decl: Node): ReadonlySet<string> {
    const out = new Set<string>();
    for (const p of namedKids(decl.childForFieldId(this.f.type_parameters)))
      for (const id of fieldNodes(p.node, this.f.name)) out.add(this.ident(id));
    if (decl.type === "method_declaration") {
      // `func (l *List[T]) ...`: T is bound by the receiver.
      let t = namedKids(decl.childForFieldId(this.f.receiver))[0]?.node.childForFieldId(this.f.type) ?? null;
      if (t?.type === "pointer_type") t = t.namedChild(0);
      if (t?.type === "generic_type") {
        for (const a of namedKids(t.childForFieldId(this.f.type_arguments)))
          if (a.type === "type_identifier") out.add(this.ident(a.node));
      }
    }
    return out;
  }
}

/**
 * A name as a local's declaration may write it: before `:=` or `=`, or before a type (`name T`,
 * `name *T`, `name []T`, `name func()`, `name ...T`, `name <-chan T`), also first of several
 * (`a, b :=`, `a, b T`).
 */
const DECLARED_LIKE = /(?<![\w.])([A-Za-z_]\w*)(?=(?:\s*,\s*[A-Za-z_]\w*)*(?:\s*:=|\s*=[^=]|\s[\w*[(.<]))/g;
/** The same for a text with letters beyond ASCII (`ñ *Ñandú`), slower by half, so only there. */
const DECLARED_LIKE_UNICODE =
  /(?<![\p{L}\p{N}_.])([\p{L}_][\p{L}\p{N}_]*)(?=(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*(?:\s*:=|\s*=[^=]|\s[\p{L}\p{N}_*[(.<]))/gu;
const NON_ASCII = /[^\p{ASCII}]/u;

/** Value node types that can say what a variable holds (see `localFromValue`). */
const BUILDERS = new Set(["composite_literal", "unary_expression", "call_expression"]);

const EMPTY: ReadonlySet<string> = new Set<string>();

export const goExtractor: LanguageExtractor = {
  id: "go",
  grammar: "tree-sitter-go.wasm",
  prepare(language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    const fields: Fields = fieldIds(language, "tree-sitter-go", FIELD_NAMES);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new GoFile(b, fields, root, !root.hasError);
      for (const m of query.matches(root)) file.handle(m);
      file.flush();
      file.usesOfImports();
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
};
