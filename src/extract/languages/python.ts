import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { ELEMENT, NAMED_VALUE, READ_VALUE, type ExtractResult, valueOfType } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import { HASH_COMMENTS } from "../source-text.js";
import type { LanguageExtractor } from "../language.js";
import { capitalisedReads, isConstantName } from "../capitalised-reads.js";
import { inSpans, type Span } from "../spans.js";
import { dottedName, splitLast } from "../ts-helpers.js";
import { bindingInBody, NamePlaces, type Binding } from "./python-bindings.js";

/**
 * The query's patterns, by index. One pass over the tree yields every match; `PyFile` then reads the
 * matches twice. The first read files facts by node id or start offset (where each def starts and
 * ends, its decorators and docstring, what an assignment's right side is, which comments sit above
 * a declaration); the second emits symbols and references in match order. That replaces `.parent`
 * and sibling walks, which this tree-sitter computes by descending from the root on every call.
 * Names, dotted paths and argument lists are read from the source text where that is sure to give
 * what the tree would (see `PyFile.fast`), which saves crossing into WASM per node.
 *
 * Matches come in the order they complete (match their last node), and references, imports and
 * local types are emitted in match order, so each emitting pattern completes at a fixed point of
 * its construct: definitions at their body, assignments at their left side, calls at their
 * arguments, imports at each imported name.
 * Alternations inside one pattern cost less than one pattern per shape: each pattern keeps a state
 * alive per candidate node. Captures come in pattern order, a parent's before its children's, and
 * `PyFile` reads them by position, telling alternatives apart by capture name.
 */
const P = {
  // Emitting patterns.
  class: 0,
  function: 1,
  typeAlias: 2,
  assign: 3,
  call: 4,
  type: 5,
  import: 6,
  from: 7,
  // Facts for the first pass.
  decorator: 8,
  decoratorCall: 9,
  assigned: 10,
  assignedName: 11,
  aliasName: 12,
  typeParam: 13,
  typeArg: 14,
  comment: 15,
  // Loop variables: an element of what they loop over.
  forIn: 16,
  forClause: 17,
  // What a function without a `->` returns (see `unannotatedReturns`).
  returned: 18,
  yielded: 19,
  // A name used as a value where a function or class often is one: an argument, a keyword's or a
  // dict's value, an element, an exception caught or raised, what a name is set to.
  value: 20,
} as const;

const PATTERNS: Record<keyof typeof P, string> = {
  class: `(class_definition name: (identifier) body: (block) @body) @def`,
  function: `(function_definition name: (identifier) parameters: (parameters) @params body: (block) @body) @def`,
  typeAlias: `(type_alias_statement . (type (identifier) @name)) @def`,
  assign: `(assignment left: [
    (identifier) @name
    (pattern_list) @pattern (tuple_pattern) @pattern (list_pattern) @pattern
    (attribute object: (identifier) @object attribute: (identifier) @attr)]) @assign`,
  call: `(call
    function: [(identifier) @callee (attribute object: (_) @recv attribute: (identifier) @callee)]
    arguments: [(argument_list) @args (generator_expression) @generator])`,
  type: `(type) @type`,
  import: `(import_statement name: [
    (dotted_name) @part
    (aliased_import name: (dotted_name) @name alias: (identifier) @alias) @aliased])`,
  from: `(import_from_statement module_name: (_) @module [
    name: (dotted_name) @part
    name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias) @aliased
    (wildcard_import) @star])`,
  decorator: `(decorated_definition (decorator) @decorator definition: (_) @def) @outer`,
  decoratorCall: `(decorator (call arguments: (_) @args))`,
  assigned: `(assignment left: (_) @left [
    type: (type) @type
    right: (call function: [(identifier) @callee (attribute) @calleePath])
    right: (boolean_operator) @or
    right: (conditional_expression) @either
    right: (subscript) @item
    right: (attribute) @member
    right: (identifier) @alias
    right: (assignment left: (_) @inner)])`,
  assignedName: `(assignment left: (attribute) @left right: (identifier) @right)`,
  aliasName: `(type_alias_statement . (type) @type)`,
  typeParam: `(type_parameter (type) @type)`,
  typeArg: `(generic_type (type_parameter (type) @type))`,
  // Every comment; what follows it is its next named sibling, read when needed. A pattern with a
  // wildcard parent (`(_ (comment) . (_))`) was a third of this query's compile time, which each
  // parse worker pays on its cold start (Django: about 30 ms a worker).
  comment: `(comment) @comment`,
  forIn: `(for_statement left: [(identifier) (pattern_list)] @name right: (_) @value body: (block) @body)`,
  forClause: `(for_in_clause left: [(identifier) (pattern_list)] @name right: (_) @value) @clause`,
  returned: `(return_statement) @return`,
  yielded: `(yield) @yield`,
  value: `[
    (argument_list [(identifier) (attribute)] @argument)
    (keyword_argument value: [(identifier) (attribute)] @value)
    (pair value: (identifier) @value)
    (list [(identifier) (attribute)] @value)
    (tuple [(identifier) (attribute)] @value)
    (set [(identifier) (attribute)] @value)
    (except_clause [(identifier) (attribute)] @value)
    (except_clause (as_pattern [(identifier) (attribute)] @value))
    (raise_statement [(identifier) (attribute)] @value)]`,
};

/** The kinds of symbol a bare name may be as a value: a function or class (methods are reached through a receiver). */
const VALUE_KINDS: ReadonlySet<NodeKind> = new Set(["function", "class"]);
const METHOD_KIND: ReadonlySet<NodeKind> = new Set(["method"]);

const CONSTANT_KIND: ReadonlySet<NodeKind> = new Set(["constant"]);
const CLASS_KIND: ReadonlySet<NodeKind> = new Set(["class"]);

/** A dotted name written plainly, `a.b.name`: its receiver and its last name. */
const DOTTED_VALUE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.([A-Za-z_]\w*)$/;

const QUERY = (Object.keys(P) as (keyof typeof P)[])
  .sort((a, b) => P[a] - P[b])
  .map((k) => PATTERNS[k])
  .join("\n");

/** A name, or names joined by dots, written plainly (`Foo`, `models.Model`). */
const DOTTED_NAME = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/;

/** Literal values: of a builtin type, so a variable assigned one holds no project type there. */
const LITERALS = new Set([
  "list",
  "dictionary",
  "set",
  "tuple",
  "string",
  "concatenated_string",
  "integer",
  "float",
  "true",
  "false",
  "list_comprehension",
  "dictionary_comprehension",
  "set_comprehension",
]);
/** The type name of such a value: no name the resolver finds, so it types nothing. */
const BUILTIN_VALUE = "[]";

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

/** A name written as functions are (PEP 8): lower case first, after any underscores. */
const FUNCTION_NAME = /^_*[a-z]/;

/**
 * What a call of `callee` makes, as a local type: the class it names (`Foo`, `mod.Foo`), or, when it
 * is named as functions are, the call (`make()`, `self.repo.get()`), which the resolver follows to
 * the function's declared return type. Builtins make nothing of the project's.
 */
function madeBy(callee: string): string | null {
  if (!callee || BUILTIN_TYPES.has(callee)) return null;
  return FUNCTION_NAME.test(callee.slice(callee.lastIndexOf(".") + 1)) ? `${callee}()` : callee;
}

/** Generics whose (first) argument is their elements' type. */
const COLLECTIONS = new Set([
  "list",
  "List",
  "set",
  "Set",
  "frozenset",
  "FrozenSet",
  "Sequence",
  "MutableSequence",
  "Collection",
  "Iterable",
  "Iterator",
  "AbstractSet",
  "MutableSet",
  "deque",
  "Deque",
  "tuple",
  "Tuple",
  "Generator",
  "AsyncIterator",
  "AsyncIterable",
  "AsyncGenerator",
]);
/** Those written with more arguments than the element type: `Generator[Order, None, None]`. */
const MULTI_ARG_COLLECTIONS = new Set(["Generator", "AsyncGenerator"]);

/** Builtin decorators: they only set flags (`isStatic`), never point at project code; nor do `@x.setter` and kin. */
const BUILTIN_DECORATORS = new Set(["staticmethod", "classmethod", "property"]);
/** `@property`, `@cached_property`, `@functools.cached_property`: a method read as an attribute. */
const PROPERTY_DECORATOR = /^@\s*(?:functools\.)?(?:cached_)?property\s*$/;

/** The longest docstring kept, as the builder caps comment docs. */
const MAX_DOC = 2000;

/** An ASCII identifier at a position (sticky); tree-sitter's identifiers are maximal, so this is the node's text. */
const ASCII_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** `a.b.c.` before a method name: a receiver that is a plain dotted name. */
const DOTTED_RECEIVER = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.$/;

/** `super(...).` before a method name: the receiver is a `super` call. */
const SUPER_RECEIVER = /^super\([^()]*\)\.$/;

/** A receiver starting with a literal. */
const LITERAL_START = /^['"[{0-9]/;

/** Words that parse as literals (`true`, `none`), not identifiers, so `None.x` has no dotted name. */
const LITERAL_NAMES = /(?:^|\.)(?:True|False|None)\./;

/** A definition's name (sticky, at its start). */
const DEF_NAME = /(?:async\s+)?(?:def|class)\s+([A-Za-z_][A-Za-z0-9_]*)/y;

/** `*args` or `**kw` ending an argument (sticky). */
const NAME_SPLAT = /\*\*?[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t\r\n]*[,)]/y;

/** The start of `@staticmethod` or `@classmethod` (sticky). */
const STATIC_DECORATOR = /@\s*(?:staticmethod|classmethod)/y;

/** A plain dotted name, whole or at a position (sticky). */
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const DOTTED_AT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/y;

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
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    out.push(i === 0 || indent === Infinity ? l.trim() : l.slice(indent).trimEnd());
  }
  while (out.length && !out[0]) out.shift();
  while (out.length && !out[out.length - 1]) out.pop();
  const doc = out.join("\n");
  if (!doc) return null;
  return doc.length > MAX_DOC ? `${doc.slice(0, MAX_DOC)}…` : doc;
}

/** The longest argument or parameter list read from the text; longer ones ask the tree. */
const MAX_LIST = 400;

/** `readList`: the text cannot tell. */
const UNREADABLE = -1;
/** `readList` without `items`: an argument starts with `*`, so the count is unknowable. */
const SPLAT = -2;

/** Characters `readList` stops at; the rest (names, numbers, spaces, operators but `*`) it skips. */
const LIST_STOPS = new Uint8Array(128);
for (const ch of "()[]{},:#\\'\"*`") LIST_STOPS[ch.charCodeAt(0)] = 1;

/**
 * Reads an argument or parameter list from the text, from the `(` at `open`: top-level commas
 * separate items, brackets nest, strings are skipped. Returns the number of items, filling `items`
 * with their trimmed text when given (parameters); without it (arguments) returns SPLAT when an item
 * is `*name` or `**name`. UNREADABLE when the reading could be wrong or the list is long: comments, line
 * continuations, top-level `:` (annotations, walrus, and lambdas, whose parameters' commas sit at
 * the lambda's depth), f-strings (their braces hold code), backquotes. Only for trees without errors.
 */
function readList(source: string, open: number, items: string[] | null): number {
  if (source.charCodeAt(open) !== 0x28 /* ( */) return UNREADABLE;
  const limit = Math.min(source.length, open + MAX_LIST);
  let count = 0;
  let depth = 0;
  let itemStart = open + 1;
  let splat = false;
  for (let i = open + 1; i < limit; i++) {
    const ch = source.charCodeAt(i);
    if (ch >= 0x80 || LIST_STOPS[ch] === 0) continue;
    switch (ch) {
      case 0x28: // (
      case 0x5b: // [
      case 0x7b: // {
        depth++;
        break;
      case 0x29: // )
      case 0x5d: // ]
      case 0x7d: // }
        if (depth > 0) {
          depth--;
          break;
        }
        if (ch !== 0x29) return UNREADABLE;
        if (splat) return SPLAT;
        // A blank last item is a trailing comma, or the list is empty.
        if (!isBlank(source, itemStart, i)) {
          count++;
          items?.push(source.slice(itemStart, i).trim());
        }
        return count;
      case 0x2c: // ,
        if (depth === 0) {
          count++;
          items?.push(source.slice(itemStart, i).trim());
          itemStart = i + 1;
        }
        break;
      case 0x2a: // *
        if (!items && depth === 0 && isBlank(source, itemStart, i)) {
          // `*args` and `**kw` are splats; `*a.b.c()` can parse as a call of a splat, so ask the tree.
          if (!isNameSplat(source, i)) return UNREADABLE;
          splat = true;
        }
        break;
      case 0x3a: // :
        if (depth === 0) return UNREADABLE;
        break;
      case 0x22: // "
      case 0x27: // '
        i = stringEnd(source, i, limit);
        if (i < 0) return UNREADABLE;
        break;
      default: // # \ and Python 2's `repr`
        return UNREADABLE;
    }
  }
  return UNREADABLE;
}

/** `*name` or `**name` alone as an argument, from its first `*`. */
function isNameSplat(source: string, star: number): boolean {
  NAME_SPLAT.lastIndex = star;
  return NAME_SPLAT.test(source);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
}

/** Whether `source[from, to)` is only spaces and line breaks. */
function isBlank(source: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(source.charCodeAt(i))) return false;
  return true;
}

/** Where the string literal whose quote is at `q` ends (its last quote); -1 for f-strings or past `limit`. */
function stringEnd(source: string, q: number, limit: number): number {
  for (let p = q - 1; p >= 0; p--) {
    const c = source.charCodeAt(p);
    if (c === 0x66 || c === 0x46) return -1; // f, F
    if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) break;
  }
  const quote = source.charCodeAt(q);
  const triple = source.charCodeAt(q + 1) === quote && source.charCodeAt(q + 2) === quote;
  for (let i = triple ? q + 3 : q + 1; i < limit; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x5c)
      i++; // \
    else if (c === quote) {
      if (!triple) return i;
      if (source.charCodeAt(i + 1) === quote && source.charCodeAt(i + 2) === quote) return i + 2;
    } else if (!triple && (c === 0x0a || c === 0x0d)) return -1;
  }
  return -1;
}

/** Arguments at a call site (positional and keyword); null when `*xs`/`**kw` make it unknowable. */
function argCount(args: Node, source: string): number | null {
  const text = source.slice(args.startIndex, args.endIndex);
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

/** Statements a comment block right above can document. */
const DOCUMENTABLE = new Set([
  "function_definition",
  "class_definition",
  "decorated_definition",
  "expression_statement",
  "type_alias_statement",
]);

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
  /** The definition itself (its body is read for `bindings`). */
  node: Node;
  /** How a function binds names in its own scope (see `bindingOf`), by name; computed on first use. */
  bindings: Map<string, Binding | null> | null;
  /** Where each name stands in the definition so that it may be bound there; read on first use. */
  places: NamePlaces | null;
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
  /** Argument list ids of calls that are a decorator (`@foo(...)`), recorded with the definition instead. */
  private readonly decoratorCalls = new Set<number>();
  /**
   * Assignment left side start → its annotation, the callee of a call on the right (a name, or a
   * dotted path), an `or` on the right, a name on the right.
   */
  private readonly annotations = new Map<number, Node>();
  /** Assignment left side start → the subscript on its right (`x = items[0]`). */
  private readonly items = new Map<number, Node>();
  private readonly constructors = new Map<number, Node>();
  private readonly constructorPaths = new Map<number, Node>();
  private readonly orElses = new Map<number, Node>();
  /** `x = a if c else b`, by the left side's start (see `eitherBranch`). */
  private readonly eithers = new Map<number, Node>();
  /** `repo = self.repo`: the member whose type the name then has. */
  private readonly members = new Map<number, Node>();
  private readonly rightNames = new Map<number, Node>();
  /**
   * Class attributes given a name (`paginator_class = Paginator`), by the attribute's start: what
   * `self.paginator_class(..)` makes, and its methods (`paginator.page()`). A name assigned inside a
   * function is left alone: there a parameter's or an earlier assignment's type is what it has.
   */
  private readonly aliases = new Map<number, Node>();
  /** Return statements and yields, for `unannotatedReturns`; and the functions with a `->`. */
  private readonly returns: Node[] = [];
  private readonly yields: number[] = [];
  /** Names used as values (see the `value` pattern): functions and classes among them are used. */
  private readonly values: Node[] = [];
  /** The starts of those that are arguments, which may name a base (see `namesBase`). */
  private readonly argumentValues = new Set<number>();
  /** `super(..)`'s argument lists (see `namesBase`). */
  private readonly superArguments: Node[] = [];
  /** The starts of the classes' bases and `super`'s arguments, read when first needed (see `namesBase`). */
  private baseNames: Set<number> | null = null;
  /** Import statements' names, in order (see `reads`). */
  private readonly importSpans: Span[] = [];
  private readonly annotatedDefs = new Set<number>();
  /** Left side starts of `a = b = 1`, both of them. */
  private readonly chainedLefts = new Set<number>();
  /** `type` node ids that declare rather than use: a type alias's name, a class's or function's type parameters. */
  private readonly aliasNames = new Set<number>();
  private readonly typeParams = new Set<number>();
  private readonly typeArgs = new Set<number>();
  /** Every comment, each once. */
  private readonly commentsBefore: Node[] = [];
  /** Module node id → its specifier, once per `from` statement. */
  private readonly moduleNames = new Map<number, string>();
  /** Def node id → the def. */
  private readonly defById = new Map<number, Def>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly root: Node,
  ) {
    this.source = b.source;
    this.fast = !root.hasError;
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

  /** The text of an import's `dotted_name` without whitespace: `a . b` → `a.b`. */
  private modulePath(n: Node): string {
    if (this.fast) {
      // Read from the source unless the name may go on: past spaces (`a .b`), a comment, a line
      // continuation or a non-ASCII letter.
      DOTTED_AT.lastIndex = n.startIndex;
      const m = DOTTED_AT.exec(this.source);
      if (m) {
        let i = DOTTED_AT.lastIndex;
        while (isSpace(this.source.charCodeAt(i))) i++;
        const next = this.source.charCodeAt(i);
        if (next !== 0x2e /* . */ && next !== 0x23 /* # */ && next !== 0x5c /* \ */ && !(next >= 0x80)) return m[0];
      }
    }
    return compact(this.text(n));
  }

  /** `Foo`, `mod.Foo`: the dotted name of an identifier or attribute. */
  private dotted(n: Node): string | null {
    return dottedName(n, this.text);
  }

  run(matches: QueryMatch[]): void {
    for (const m of matches) this.collect(m);
    this.nestDefs();
    this.comments();
    for (const m of matches) this.emit(m);
    this.unannotatedReturns();
    this.namedValues();
    this.reads();
  }

  /** `MAX_ROWS: int = 3` at a line's start declares the module's constant, which is no read of it. */
  private declaresAnnotated(at: number, name: string): boolean {
    if (at > 0 && this.source.charCodeAt(at - 1) !== 10) return false;
    let i = at + name.length;
    while (this.source.charCodeAt(i) === 32) i++;
    return this.source.charCodeAt(i) === 58; // :
  }

  /**
   * Constants read (`READ_VALUE`): a name in capitals the module declares or imports (`MAX_ROWS`; not
   * where it is assigned or passed as a keyword, nor a local of the function around it), and a name
   * in capitals read through a class of the file or an imported name (`Color.RED`, `settings.DEBUG`,
   * `constants.LOOKUP_SEP`). Found in the text, then asked of the tree, so that a name in a string,
   * a comment or an import is none.
   */
  private reads(): void {
    let constants: Set<string> | null = null;
    let classes: Set<string> | null = null;
    capitalisedReads(this.source, ({ at, name, object }) => {
      if (object !== null) {
        if (!isConstantName(name)) return;
        if (!(classes ??= this.b.namesOf(CLASS_KIND)).has(object) && !this.b.imported(object)) return;
      } else if (!(constants ??= this.b.namesOf(CONSTANT_KIND)).has(name) && !this.b.imported(name)) return;
      else if (this.declaresAnnotated(at, name)) return;
      if (inSpans(this.importSpans, at)) return;
      const node = this.root.descendantForIndex(at, at + name.length);
      const start = object === null ? at : at - object.length - 1;
      if (node?.type !== "identifier" || this.holdsValue(object ?? name, start)) return;
      this.b.ref("references", node, name, `${READ_VALUE}${object ?? ""}`);
    });
  }

  /**
   * Names used as values that may be functions or classes (`NAMED_VALUE`): `sorted(xs,
   * key=rank)`, `Thread(target=run)`, `{"get": handle_get}`, `isinstance(x, Order)`, `except
   * OrderError`, `raise Http404`, `model = Order`, `inlines = [LineInline]`; only a function or class
   * this file defines or a name it imports, not a base or `super`'s class (`namesBase`), and not a
   * local of the function around it that holds a value of its own. Through an object,
   * `self.on_saved` (a method this file declares) and `views.index` (through an import).
   */
  private namedValues(): void {
    if (!this.values.length) return;
    const declared = this.b.namesOf(VALUE_KINDS);
    let methods: Set<string> | null = null;
    for (const value of this.values) {
      if (value.type === "attribute") {
        const dotted = DOTTED_VALUE.exec(this.text(value));
        if (!dotted) continue;
        const [, receiver, name] = dotted;
        const head = receiver!.split(".", 1)[0]!;
        const own = head === "self" || head === "cls";
        if (own ? !(methods ??= this.b.namesOf(METHOD_KIND)).has(name!) : !this.b.imported(head)) continue;
        if (this.namesBase(value)) continue;
        this.b.ref("references", value.childForFieldName("attribute")!, name!, `${NAMED_VALUE}${receiver}`);
        continue;
      }
      const name = this.text(value);
      if (!declared.has(name) && !this.b.imported(name)) continue;
      if (!this.namesBase(value) && !this.holdsValue(name, value.startIndex))
        this.b.ref("references", value, name, NAMED_VALUE);
    }
  }

  /**
   * `Base` in `class Order(Base):`, which the class extends (an argument to the grammar), and `Order`
   * in `super(Order, self)`, which a method of Order writes to reach its base; not `QuerySet` in
   * `class Manager(BaseManager.from_queryset(QuerySet))`. By offsets, as a node's parent is found by a
   * walk down from the root.
   */
  private namesBase(value: Node): boolean {
    const at = value.startIndex;
    if (!this.argumentValues.has(at)) return false;
    if (!this.baseNames) {
      const lists = [...this.superArguments];
      for (const d of this.defs) {
        const bases = d.kind === "class" ? d.node.childForFieldName("superclasses") : null;
        if (bases) lists.push(bases);
      }
      this.baseNames = new Set(lists.flatMap((l) => l.namedChildren.map((c) => c!.startIndex)));
    }
    return this.baseNames.has(at);
  }

  /** First read: file the facts other matches need. */
  private collect(m: QueryMatch): void {
    const c = m.captures;
    switch (m.patternIndex) {
      case P.class:
      case P.function: {
        const def = c[0]!.node;
        const d: Def = {
          kind: m.patternIndex === P.class ? "class" : "function",
          start: def.startIndex,
          end: def.endIndex,
          parent: -1,
          params: m.patternIndex === P.function ? c[1]!.node : null,
          paramTypes: null,
          node: def,
          bindings: null,
          places: null,
        };
        this.defs.push(d);
        this.defById.set(def.id, d);
        return;
      }
      case P.decorator: {
        const id = c[2]!.node.id;
        const list = this.decorators.get(id);
        if (list) {
          // In source order, whatever order the matches come in.
          list.push(c[1]!.node);
          list.sort((x, y) => x.startIndex - y.startIndex);
        } else {
          this.decorators.set(id, [c[1]!.node]);
          this.decorated.set(id, c[0]!.node);
        }
        return;
      }
      case P.decoratorCall:
        this.decoratorCalls.add(c[0]!.node.id);
        return;
      case P.assigned: {
        const left = c[0]!.node.startIndex;
        const fact = c[1]!;
        if (fact.name === "type") this.annotations.set(left, fact.node);
        else if (fact.name === "callee") this.constructors.set(left, fact.node);
        else if (fact.name === "calleePath") this.constructorPaths.set(left, fact.node);
        else if (fact.name === "or") this.orElses.set(left, fact.node);
        else if (fact.name === "either") this.eithers.set(left, fact.node);
        else if (fact.name === "item") this.items.set(left, fact.node);
        else if (fact.name === "member") this.members.set(left, fact.node);
        else if (fact.name === "alias") {
          this.aliases.set(left, fact.node);
          this.values.push(fact.node); // `model = Order`: a value (see `namedValues`)
        } else {
          this.chainedLefts.add(left);
          this.chainedLefts.add(fact.node.startIndex);
        }
        return;
      }
      case P.returned:
        this.returns.push(c[0]!.node);
        return;
      case P.yielded:
        this.yields.push(c[0]!.node.startIndex);
        return;
      case P.assignedName:
        this.rightNames.set(c[0]!.node.startIndex, c[1]!.node);
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
      case P.comment:
        this.commentsBefore.push(c[0]!.node);
        return;
    }
  }

  /** Second read: symbols, references, imports and local types, in match order. */
  private emit(m: QueryMatch): void {
    const c = m.captures;
    switch (m.patternIndex) {
      case P.class:
        return this.classDef(c[0]!.node, c[1]!.node);
      case P.function:
        return this.functionDef(c[0]!.node, c[1]!.node, c[2]!.node);
      case P.typeAlias:
        return this.typeAlias(c[0]!.node, c[1]!.node);
      case P.assign: {
        const left = c[1]!;
        if (left.name === "name") return this.assignName(c[0]!.node, left.node);
        if (left.name === "pattern") return this.assignPattern(c[0]!.node, left.node);
        return this.assignAttr(left.node, c[2]!.node);
      }
      case P.forIn:
        return this.loopVariable(c[0]!.node, c[1]!.node, c[2]!.node);
      case P.forClause:
        return this.loopVariable(c[1]!.node, c[2]!.node, c[0]!.node.parent);
      case P.call: {
        const n = c.length;
        const args = c[n - 1]!.node;
        if (n === 2 && args.type === "argument_list") {
          const callee = this.text(c[0]!.node);
          if (callee === "isinstance") this.typeTest(args);
          else if (callee === "super") this.superArguments.push(args);
        }
        return this.call(n === 3 ? c[0]!.node : null, c[n - 2]!.node, args, c[n - 1]!.name === "generator");
      }
      case P.type:
        return this.typeRef(c[0]!.node);
      case P.value: {
        const value = c[0]!;
        this.values.push(value.node);
        if (value.name === "argument") this.argumentValues.add(value.node.startIndex);
        return;
      }
      case P.import: {
        const part = c[0]!;
        if (part.name === "aliased") {
          return this.binding(part.node, this.name(c[2]!.node), "*", this.modulePath(c[1]!.node));
        }
        const dotted = this.modulePath(part.node);
        return this.binding(part.node, dotted, "*", dotted);
      }
      case P.from: {
        const specifier = this.moduleName(c[0]!.node);
        const part = c[1]!;
        if (part.name === "star") return this.binding(part.node, "*", "*", specifier);
        if (part.name === "aliased") {
          return this.binding(part.node, this.name(c[3]!.node), this.modulePath(c[2]!.node), specifier);
        }
        const name = this.modulePath(part.node);
        return this.binding(part.node, name, name, specifier);
      }
    }
  }

  /**
   * What a function without a `->` returns, when each of its `return`s gives the same chain: a call
   * (`return self.paginator_class(qs)`, `return Repo()`), a dotted name or `self`. `x =
   * self.get_paginator(..)` then has that type, as an annotated function's call has. A generator
   * (one with a `yield`) returns none of these, and returns of different values say nothing.
   */
  private unannotatedReturns(): void {
    if (!this.returns.length) return;
    const yielding = new Set(this.yields.map((at) => this.scopeAt(at)));
    const byDef = new Map<number, { at: Node; chain: string | null }[]>();
    for (const ret of this.returns) {
      const i = this.scopeAt(ret.startIndex);
      const def = this.defs[i];
      if (!def || def.kind !== "function" || yielding.has(i) || this.annotatedDefs.has(def.start)) continue;
      const value = ret.namedChild(0);
      // A bare `return` or `return None` leaves the value's type: annotations read `Optional[X]` as X.
      if (!value || value.type === "none") continue;
      const chain =
        value.type === "identifier" && this.text(value) === "self" && this.defs[def.parent]?.kind === "class"
          ? "this"
          : value.type === "call" || value.type === "attribute" || value.type === "identifier"
            ? this.chain(value)
            : null;
      let list = byDef.get(i);
      if (!list) byDef.set(i, (list = []));
      list.push({ at: ret, chain });
    }
    for (const list of byDef.values()) {
      const chain = list[0]!.chain;
      if (chain && list.every((r) => r.chain === chain)) this.b.localType(list[0]!.at, "()", chain);
    }
  }

  /**
   * `isinstance(x, Foo)` as an `if`'s or `elif`'s whole condition, an `assert`'s, or negated as a
   * guard clause's (see `narrowed` and `guarded`). Read from the call rather than by query patterns:
   * the two patterns were 6 of the 16 ms Python's query took to compile, which every sync of a
   * Python file pays.
   */
  private typeTest(args: Node): void {
    const call = args.parent;
    const name = args.namedChild(0);
    const type = args.namedChild(1);
    if (!call || args.namedChildCount !== 2 || name?.type !== "identifier") return;
    if (type?.type !== "identifier" && type?.type !== "attribute") return;
    let test = call;
    let statement = call.parent;
    const negated = statement?.type === "not_operator";
    if (negated) {
      if (statement!.childForFieldName("argument")?.id !== call.id) return;
      test = statement!;
      statement = statement!.parent;
    }
    if (!negated && statement?.type === "assert_statement" && statement.namedChild(0)?.id === call.id) {
      // `assert isinstance(x, Foo)`: past it, to the end of the block holding it.
      if (statement.parent) this.narrowed(name, type, statement.endIndex, statement.parent.endIndex);
      return;
    }
    const kinds = negated ? ["if_statement"] : ["if_statement", "elif_clause"];
    if (!statement || !kinds.includes(statement.type) || statement.childForFieldName("condition")?.id !== test.id)
      return;
    const body = statement.childForFieldName("consequence");
    if (body?.type !== "block") return;
    if (negated) this.guarded(statement, name, type, body);
    else this.narrowed(name, type, body.startIndex, body.endIndex);
  }

  /**
   * `if isinstance(x, Foo):` (or `elif`): in its block, x is a Foo (a value of it, `new Foo()`), whatever
   * x is elsewhere. A tuple of types, a builtin, or any other condition narrows nothing.
   */
  private narrowed(name: Node, type: Node, start: number, end: number): void {
    const typeName = this.text(type);
    if (!DOTTED_NAME.test(typeName) || BUILTIN_TYPES.has(typeName)) return;
    this.b.narrow(this.text(name), start, end, valueOfType(typeName));
  }

  /**
   * `if not isinstance(x, Foo): raise ..` (or `return`), with no `else`: past it, to the end of the
   * block holding it, x is a Foo.
   */
  private guarded(statement: Node, name: Node, type: Node, body: Node): void {
    const last = body.namedChild(body.namedChildCount - 1)?.type;
    const holder = statement.parent;
    if (statement.childForFieldName("alternative") || (last !== "raise_statement" && last !== "return_statement"))
      return;
    if (holder) this.narrowed(name, type, statement.endIndex, holder.endIndex);
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

  /** Sort the defs by start (error recovery can complete a def's match after ones inside it) and link each to its parent. */
  private nestDefs(): void {
    const defs = this.defs;
    for (let i = 1; i < defs.length; i++) {
      if (defs[i]!.start < defs[i - 1]!.start) {
        defs.sort((x, y) => x.start - y.start);
        break;
      }
    }
    for (let i = 0; i < defs.length; i++) {
      const d = defs[i]!;
      let parent = i - 1;
      while (parent >= 0 && defs[parent]!.end <= d.start) parent = defs[parent]!.parent;
      d.parent = parent;
    }
  }

  /**
   * `#` lines right above a definition document it when it has no docstring. Only comments alone on
   * their line and followed (past other comments) by a declaration, so neither a trailing
   * `x = 1  # note` nor a file's header above its imports becomes a doc.
   */
  private comments(): void {
    const comments = this.commentsBefore;
    if (!comments.length) return;
    comments.sort((x, y) => x.startIndex - y.startIndex);
    // Comment id → whether the statement after it (past other comments) is documentable.
    const leads = new Map<number, boolean>();
    const run: number[] = [];
    for (const node of comments) {
      const lineStart = this.source.lastIndexOf("\n", node.startIndex - 1) + 1;
      if (this.source.slice(lineStart, node.startIndex).trim() !== "") continue;
      let result = leads.get(node.id);
      if (result === undefined) {
        run.length = 0;
        let at = node;
        for (;;) {
          run.push(at.id);
          const next = at.nextNamedSibling;
          // Only a comment starts with `#`.
          if (!next) result = false;
          else if (this.source.charCodeAt(next.startIndex) !== 0x23) result = DOCUMENTABLE.has(next.type);
          else result = leads.get(next.id);
          if (result !== undefined) break;
          at = next!;
        }
        for (const id of run) leads.set(id, result);
      }
      if (result) this.b.comment(node);
    }
  }

  /**
   * The first statement of a body when it is a string literal, comments before it passed over. Read
   * here rather than matched: the two patterns for it (a class's, a function's) were a third of the
   * query's compile time, which every parse worker and every sync of a few files pays.
   */
  private docstring(body: Node): string | null {
    let stmt = body.firstNamedChild;
    while (stmt?.type === "comment") stmt = stmt.nextNamedSibling;
    if (stmt?.type !== "expression_statement" || stmt.namedChildCount !== 1) return null;
    const s = stmt.firstNamedChild;
    return s?.type === "string" ? cleanDoc(stringContent(this.text(s))) : null;
  }

  /** `@foo`, `@foo(...)`, `@a.b` → a reference from the decorated definition, placed at its name. */
  private decoratorRefs(decorators: Node[], def: Node): void {
    let at: Node | null = null;
    for (const d of decorators) {
      let expr = d.namedChild(0);
      if (expr?.type === "call") expr = expr.childForFieldName("function");
      if (!expr) continue;
      const dotted = this.dotted(expr);
      if (!dotted || BUILTIN_DECORATORS.has(dotted) || /\.(setter|getter|deleter)$/.test(dotted)) continue;
      const { receiver, name } = splitLast(dotted);
      at ??= def.childForFieldName("name");
      if (at) this.b.ref("references", at, name, receiver);
    }
  }

  /** A definition's name, read from the source after `def` or `class`. */
  private defName(def: Node): string {
    if (this.fast) {
      DEF_NAME.lastIndex = def.startIndex;
      const m = DEF_NAME.exec(this.source);
      if (m && !(this.source.charCodeAt(DEF_NAME.lastIndex) >= 0x80)) return m[1]!;
    }
    const name = def.childForFieldName("name");
    return name ? this.text(name) : "";
  }

  private classDef(def: Node, body: Node): void {
    const d = this.defById.get(def.id)!;
    const nameText = this.defName(def);
    const decorators = this.decorators.get(def.id) ?? [];
    const topLevel = d.parent < 0;
    this.b.symbol("class", def, null, {
      name: nameText,
      signatureEnd: body.startIndex,
      exported: topLevel && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      docstring: this.docstring(body),
      docNode: this.decorated.get(def.id) ?? def,
    });
    this.decoratorRefs(decorators, def);
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

  private functionDef(def: Node, params: Node, body: Node): void {
    const d = this.defById.get(def.id)!;
    const nameText = this.defName(def);
    const scope = this.scopeKind(d.parent);
    const decorators = this.decorators.get(def.id) ?? [];
    let isStatic = false;
    let isStaticLike = false;
    for (const dec of decorators) {
      // Only a decorator starting `@staticmethod` or `@classmethod` can be exactly that.
      STATIC_DECORATOR.lastIndex = dec.startIndex;
      if (!STATIC_DECORATOR.test(this.source)) continue;
      const decName = this.text(dec).replace(/^@\s*/, "");
      if (decName === "staticmethod") isStatic = isStaticLike = true;
      else if (decName === "classmethod") isStaticLike = true;
    }
    let kind: NodeKind = "function";
    if (scope === "class") kind = nameText === "__init__" ? "constructor" : "method";

    const items: string[] = [];
    const plain = this.fast && readList(this.source, params.startIndex, items) !== UNREADABLE ? items : null;
    const count = plain ? this.plainParamCount(plain, kind, isStatic) : this.paramCount(params, kind, isStatic);
    this.b.symbol(kind, def, null, {
      name: nameText,
      signatureEnd: body.startIndex,
      exported: scope === "module" && !nameText.startsWith("_"),
      visibility: visibilityOf(nameText),
      paramCount: count,
      isStatic: kind !== "function" && isStaticLike,
      docstring: this.docstring(body),
      docNode: this.decorated.get(def.id) ?? def,
    });
    this.decoratorRefs(decorators, def);
    // A list read from the text has no annotations.
    if (!plain) {
      for (const [pname, { node, typeName }] of this.typedParams(params)) this.b.localType(node, pname, typeName);
    }
    // `-> Foo`: what a call returns (`make().run()`, `x = make()`). The tree is asked only when the
    // text between the parameters and the body holds an arrow.
    if (this.source.slice(params.endIndex, body.startIndex).includes("->")) {
      this.annotatedDefs.add(def.startIndex);
      const ret = def.childForFieldName("return_type");
      const typeName = ret ? this.typeName(ret) : null;
      if (ret && typeName) this.b.localType(ret, "()", typeName);
      // A property's value is what its getter returns: `self.prop.save()`.
      if (ret && typeName && scope === "class" && decorators.some((d) => PROPERTY_DECORATOR.test(this.text(d))))
        this.b.localType(ret, `this.${nameText}`, typeName);
    }
  }

  /**
   * Whether `name`, at `pos`, is a local of the enclosing function (or of a function around it) that
   * holds a value of its own: a parameter, or a name assigned, looped over, or bound by `with`/`except`
   * there, and not also defined, imported or declared `global` there. A local assigned a member read
   * (`save = self.save`) is left to the resolver, which follows it to the method when it can.
   */
  private holdsValue(name: string, pos: number): boolean {
    // `cls(..)` in a classmethod makes the enclosing class: the resolver reads it so.
    if (name === "cls" || name === "self") return false;
    for (let i = this.scopeAt(pos); i >= 0; i = this.defs[i]!.parent) {
      const d = this.defs[i]!;
      if (d.kind === "class") continue; // a class body's names are not seen by its methods
      const how = this.bindingOf(d, name);
      if (how) return how === "value";
    }
    return false;
  }

  private bindingOf(d: Def, name: string): Binding | null {
    const known = (d.bindings ??= new Map()).get(name);
    if (known !== undefined) return known;
    // A function calls the same names again and again.
    d.places ??= new NamePlaces(this.source, d.start, d.end);
    const places = d.places.of(name);
    // Most names a function calls it never binds, and its text says so. A parameter is the weakest
    // binding: any other the body makes wins.
    const body = places.length ? d.node.childForFieldName("body") : null;
    const how = (body && bindingInBody(body, places, name)) ?? (this.hasParameter(d, places, name) ? "value" : null);
    d.bindings.set(name, how);
    return how;
  }

  /** Whether one of the function's parameters is named `name`, which `places` says may be bound. */
  private hasParameter(d: Def, places: readonly number[], name: string): boolean {
    const params = d.params;
    if (!params || !places.some((at) => at >= params.startIndex && at < params.endIndex)) return false;
    return params.namedChildren.some((p) => {
      const id =
        p?.type === "list_splat_pattern" || p?.type === "dictionary_splat_pattern"
          ? p.namedChild(0)
          : p && paramName(p);
      return id?.type === "identifier" && this.text(id) === name;
    });
  }

  /** Declared parameters, without `self`/`cls` on methods; null with `*args` or `**kw`. */
  private paramCount(params: Node, kind: NodeKind, isStatic: boolean): number | null {
    let count = 0;
    let firstParam = true;
    for (const p of params.namedChildren) {
      if (!p || SEPARATORS.has(p.type)) continue;
      if (isSplat(p)) return null;
      const pname = paramName(p);
      const skipReceiver =
        firstParam && kind !== "function" && !isStatic && pname !== null && /^(self|cls)$/.test(this.text(pname));
      firstParam = false;
      if (!skipReceiver) count++;
    }
    return count;
  }

  /** `paramCount` from the items of `(self, a, b=1, *, c)`: parameters, named by what precedes their `=`. */
  private plainParamCount(items: string[], kind: NodeKind, isStatic: boolean): number | null {
    let count = 0;
    let firstParam = true;
    for (const item of items) {
      if (item === "*" || item === "/") continue;
      if (item.startsWith("*")) return null;
      const eq = item.indexOf("=");
      const pname = eq < 0 ? item : item.slice(0, eq).trimEnd();
      const skipReceiver = firstParam && kind !== "function" && !isStatic && (pname === "self" || pname === "cls");
      firstParam = false;
      if (!skipReceiver) count++;
    }
    return count;
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
    // Only its start is read: `left` may be the first node inside the left side.
    const type = this.annotations.get(left.startIndex);
    if (type) return this.typeName(type);
    const fn = this.constructors.get(left.startIndex);
    if (fn) return this.makesOwnClass(fn) ? "this" : madeBy(this.name(fn));
    const path = this.constructorPaths.get(left.startIndex);
    if (path) return this.calleeType(path);
    const or = this.orElses.get(left.startIndex);
    if (or) return this.constructed(or);
    const either = this.eithers.get(left.startIndex);
    if (either) return this.eitherBranch(either);
    const item = this.items.get(left.startIndex);
    if (item) return this.element(item.childForFieldName("value"));
    const member = this.members.get(left.startIndex);
    return member ? this.dotted(member) : null;
  }

  /** `items` as an element of it: `items[0]` (see ELEMENT); null for what has no chain. */
  private element(of: Node | null): string | null {
    const chain = of ? this.chain(of) : null;
    return chain ? `${chain}${ELEMENT}` : null;
  }

  /**
   * `self.__class__(..)` and a classmethod's `cls(..)`, in a method of a class: they make an instance
   * of that class (Django's `QuerySet._clone`, alternative constructors), typed as the class itself
   * (`this`), as `return self` is.
   */
  private makesOwnClass(fn: Node): boolean {
    const text = this.text(fn);
    if (text !== "self.__class__" && text !== "cls") return false;
    const def = this.defs[this.scopeAt(fn.startIndex)];
    return def?.kind === "function" && this.defs[def.parent]?.kind === "class";
  }

  /** A value as a chain the resolver follows: `a.b`, `a.b()` (a call of a dotted name). */
  private chain(value: Node): string | null {
    if (value.type === "call") {
      const fn = value.childForFieldName("function");
      if (fn && this.makesOwnClass(fn)) return "this";
      const name = fn ? this.dotted(fn) : null;
      return name ? `${name}()` : null;
    }
    return this.dotted(value);
  }

  /**
   * `for x in items:` and `[.. for x in items]`: within the loop, x is an element of items; so is
   * `x` in `for i, x in enumerate(items)`.
   */
  private loopVariable(target: Node, value: Node, within: Node | null): void {
    let name: Node | null = target;
    let of: Node | null = value;
    if (target.type === "pattern_list") {
      ({ name, of } = this.enumerated(target, value));
      if (!name || !of) return;
    }
    const chain = within ? this.chain(of) : null;
    if (chain) this.b.bindElement(this.text(name), within!.startIndex, within!.endIndex, chain);
  }

  /** `i, x` over `enumerate(items)`: x, and items. */
  private enumerated(target: Node, value: Node): { name: Node | null; of: Node | null } {
    const names = target.namedChildren;
    const fn = value.type === "call" ? value.childForFieldName("function") : null;
    const args =
      fn?.type === "identifier" && this.text(fn) === "enumerate" ? value.childForFieldName("arguments") : null;
    if (names.length !== 2 || names[1]?.type !== "identifier" || args?.namedChildCount !== 1)
      return { name: null, of: null };
    return { name: names[1], of: args.namedChild(0) };
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
      const chained = this.chainedLefts.has(left.startIndex);
      const kind: NodeKind =
        scopeKind === "class" ? "property" : /^_*[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
      this.b.symbol(kind, chained ? left : assign, left, {
        name,
        signatureEnd: chained ? this.statementEnd(assign) : undefined,
        exported: scopeKind === "module" && !name.startsWith("_"),
        visibility: visibilityOf(name),
      });
    }
    const alias = scopeKind === "class" ? this.aliases.get(left.startIndex) : undefined;
    const assigned = this.assignedType(left);
    const held = !assigned && alias ? this.dotted(alias) : null;
    const typeName =
      assigned ?? held ?? (scopeKind === "function" ? this.literal(assign.childForFieldName("right")) : null);
    if (!typeName) return;
    // A parameter's annotation declares its type; a value assigned to it later (`repo = repo or
    // Repo()`) is not a second type for it.
    if (scopeKind === "function" && this.paramTypes(this.defs[scope]!).has(name)) return;
    this.b.localType(left, scopeKind === "class" ? `this.${name}` : name, typeName);
    // A class attribute that holds a class (`paginator_class = Paginator`): a call of it makes one.
    if (held) this.b.localType(left, `this.${name}()`, held);
  }

  /**
   * A literal's value (`fields = []`, `name = ""`): a builtin, which no project type is. Recorded in
   * functions, so that a later use reads this assignment, not an earlier or later one of a project
   * type (`fields = []` then `fields.append(x)` was taken for the ImmutableList the function returns
   * at its end).
   */
  private literal(value: Node | null): string | null {
    return value && LITERALS.has(value.type) ? BUILTIN_VALUE : null;
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

  /**
   * `self.x = Foo()`, `self.x: Foo = ...`, `self.repo = repo` with `repo: Repo` a parameter. The
   * facts about the assignment are filed under the left side's start, which is `object`'s.
   */
  private assignAttr(object: Node, attr: Node): void {
    const scope = this.scopeAt(object.startIndex);
    if (this.scopeKind(scope) !== "function" || this.name(object) !== "self") return;
    let typeName = this.assignedType(object);
    if (!typeName) {
      const right = this.rightNames.get(object.startIndex);
      const params = right ? this.paramTypes(this.defs[scope]!) : null;
      if (right && params?.size) typeName = params.get(this.text(right)) ?? null;
    }
    if (typeName) this.b.localType(object, `this.${this.name(attr)}`, typeName);
  }

  /** What a call of this callee makes (see `madeBy`). */
  private calleeType(fn: Node): string | null {
    if (this.makesOwnClass(fn)) return "this";
    let dotted: string | null = null;
    if (this.fast) {
      // An identifier or attribute whose text is a plain dotted name (not `None.x`) is that name.
      const text = this.text(fn);
      if (DOTTED.test(text) && !LITERAL_NAMES.test(`.${text}.`)) dotted = text;
    }
    dotted ??= this.dotted(fn);
    return dotted ? madeBy(dotted) : null;
  }

  /** What `Foo(...)`, `mod.Foo(...)` or `make(...)` makes (see `madeBy`), also as `x or Foo()`'s fallback. */
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

  /**
   * `a if c else b`: the type both branches give (`Foo(x) if c else Foo()`), or the one branch that is
   * not None (`Foo() if c else None`); nothing when they differ or one cannot be typed.
   */
  private eitherBranch(either: Node): string | null {
    const types: string[] = [];
    for (const branch of [either.namedChild(0), either.namedChild(2)]) {
      if (!branch || branch.type === "none") continue;
      const type = this.constructed(branch) ?? (branch.type === "attribute" ? this.dotted(branch) : null);
      if (!type) return null;
      types.push(type);
    }
    return types.length > 0 && types.every((t) => t === types[0]) ? types[0]! : null;
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
        if (!head || !inner) return null;
        if (params?.namedChildCount === 1 && isOptional(this.text(head))) return this.typeName(inner, depth + 1);
        return this.collectionOf(this.text(head), inner, params!.namedChildCount, depth);
      }
      case "subscript": {
        const value = t.childForFieldName("value");
        const inner = t.childForFieldName("subscript");
        if (!value || !inner) return null;
        if (isOptional(this.text(value))) return this.typeName(inner, depth + 1);
        return this.collectionOf(this.text(value), inner, t.namedChildCount - 1, depth);
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

  /**
   * `list[Order]`, `Sequence["Order"]`, `Iterator[Order]` (and `Generator`'s first argument): written
   * `Order[]`, whose elements are Orders (see ELEMENT). Null for other generics.
   */
  private collectionOf(head: string, first: Node, args: number, depth: number): string | null {
    const at = head.lastIndexOf(".");
    const name = at < 0 ? head : head.slice(at + 1);
    if (!COLLECTIONS.has(name) || (args !== 1 && !MULTI_ARG_COLLECTIONS.has(name))) return null;
    const inner = this.typeName(first, depth + 1);
    return inner ? `${inner}[]` : null;
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

  /**
   * The receiver of `recv.name(...)`: a dotted name, `super` for `super().name(...)`, what a call of a
   * dotted name returns (`Foo().name()`, `a.make(x).name()`: `Foo()`, `a.make()`), `?` for anything else.
   */
  private receiver(recv: Node, callee: Node): string {
    if (this.fast) {
      // `a.b.name(`: the text up to the method name is the receiver and a dot.
      const before = this.source.slice(recv.startIndex, callee.startIndex);
      if (DOTTED_RECEIVER.test(before) && !LITERAL_NAMES.test(`.${before}`)) return before.slice(0, -1);
      if (SUPER_RECEIVER.test(before)) return "super";
      // A string, number, list or dict (or a call, index or attribute of one) has no dotted name.
      if (LITERAL_START.test(before)) return "?";
    }
    if (recv.type === "subscript") return this.element(recv.childForFieldName("value")) ?? "?";
    const chain = this.chain(recv);
    return chain === "super()" ? "super" : (chain ?? "?");
  }

  private call(recv: Node | null, callee: Node, args: Node, generator: boolean): void {
    // `@foo(...)` is a decorator reference, recorded with the definition.
    if (this.decoratorCalls.has(args.id)) return;
    const name = this.name(callee);
    if (!recv && name === "super") return;
    // A bare call of a function's own local (`for receiver in ...: receiver()`) calls whatever value
    // it holds, not the module's function or class of that name: a call on an unknown value.
    const receiver = recv ? this.receiver(recv, callee) : this.holdsValue(name, callee.startIndex) ? "?" : null;
    let count: number | null = 1;
    if (!generator) {
      const read = this.fast ? readList(this.source, args.startIndex, null) : UNREADABLE;
      count = read === SPLAT ? null : read === UNREADABLE ? argCount(args, this.source) : read;
    }
    this.b.ref("calls", callee, name, receiver, count);
  }

  private moduleName(module: Node): string {
    let name = this.moduleNames.get(module.id);
    if (name === undefined) {
      // `.x` and `..` are relative imports; the rest are dotted names.
      name = this.source.charCodeAt(module.startIndex) === 0x2e ? compact(this.text(module)) : this.modulePath(module);
      this.moduleNames.set(module.id, name);
    }
    return name;
  }

  private binding(at: Node, local: string, imported: string, specifier: string): void {
    this.importSpans.push({ start: at.startIndex, end: at.endIndex });
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

/** A string annotation: `"Foo"`, `"mod.Foo"`, `"Optional[Foo]"`, `"Foo | None"`, `"list[Foo]"`. */
function typeNameFromText(raw: string): string | null {
  let s = raw.trim();
  const collection = /^(?:typing\.)?(\w+)\[\s*([^,[\]]+?)\s*\]$/.exec(s);
  if (collection && COLLECTIONS.has(collection[1]!)) {
    const inner = typeNameFromText(collection[2]!);
    return inner ? `${inner}[]` : null;
  }
  const opt = /^(?:typing\.)?Optional\[\s*(.+?)\s*\]$/.exec(s);
  if (opt) s = opt[1]!;
  const union = /^(.+?)\s*\|\s*None$/.exec(s) ?? /^None\s*\|\s*(.+)$/.exec(s);
  if (union) s = union[1]!;
  if (!/^[A-Za-z_][\w.]*$/.test(s) || BUILTIN_TYPES.has(s)) return null;
  return s;
}

export const pythonExtractor: LanguageExtractor = {
  id: "python",
  grammar: "tree-sitter-python.wasm",
  prepare(_language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source, HASH_COMMENTS);
      const root = tree.rootNode;
      new PyFile(b, root).run(query.matches(root));
      return b.finish(null, countSyntaxErrors(root));
    };
  },
};
