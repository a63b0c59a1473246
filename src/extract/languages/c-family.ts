import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { NAMED_VALUE, READ_VALUE, type ExtractResult } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { fieldIds } from "../fields.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import { capitalisedReads } from "../capitalised-reads.js";
import { spanTo } from "../source-text.js";
import { inSpans } from "../spans.js";
import { isHeaderPath } from "../../core/c-family-paths.js";

/**
 * What C and C++ share: the preprocessor (`#include`, `#define`), declarators (`int *(*f)(void)`),
 * functions and their prototypes, structs, unions, enums and typedefs, calls. The C++ extractor adds
 * its own patterns (namespaces, classes, templates) after these, and both dispatch on a pattern's tag.
 *
 * Conventions the resolver relies on:
 * - `#include "a/b.h"` is a wildcard import of that path, and a re-export of it: what a header
 *   includes is visible to the files that include it. `#include <a/b.h>` keeps its angle brackets,
 *   so the resolver looks it up only in the project's include folders, never beside the file.
 * - A prototype is a symbol only in a header, where it is the function's public face (its doc comment
 *   is usually there); in a source file it merely repeats a declaration, and is dropped, as is a
 *   header prototype of a function the same header defines. The resolver links a header's prototype
 *   and the definition in a source file into one function (callers of one are callers of the other).
 * - Functions, globals and prototypes are `exported` when they have external linkage (not `static`);
 *   macros have no linkage and are never exported, so the resolver never links them across files.
 */

/** One pattern of a query, tagged with what a match of it is. */
export type Pattern = readonly [tag: string, source: string];

/**
 * Keywords no function, variable or macro is named. Tree-sitter's error recovery names some after
 * them: an `#ifdef` that splits an `else if` chain (xorg-server's `ProcessCommandLine`) leaves
 * `if (..) { .. }` read as the definition of a function named `if` (six in xorg-server), a macro
 * that opens an `extern "C" {` (`_XFUNCPROTOBEGIN`) makes the `struct` after it a variable, and
 * tabs before a `#define`'s line break made one macro `if`.
 */
const C_KEYWORDS = new Set(
  (
    "auto break case char const continue default do double else enum extern float for goto if int long " +
    "register return short signed sizeof static struct switch typedef union unsigned void volatile while"
  ).split(" "),
);

export const C_PATTERNS: readonly Pattern[] = [
  ["comment", "(comment) @comment"],
  ["include", "(preproc_include path: (_) @path) @def"],
  ["macro", "(preproc_def name: (identifier) @name) @def"],
  ["macroFn", "(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params) @def"],
  ["fnDef", "(function_definition declarator: (_) @decl body: (compound_statement) @body) @def"],
  ["decl", "(declaration type: (_) @type declarator: (_) @decl) @def"],
  ["typedef", "(type_definition type: (_) @type declarator: (_) @decl) @def"],
  ["struct", "(struct_specifier name: (_) @name body: (field_declaration_list) @body) @def"],
  ["struct", "(union_specifier name: (_) @name body: (field_declaration_list) @body) @def"],
  ["enum", "(enum_specifier name: (_) @name body: (enumerator_list) @body) @def"],
  ["enumerator", "(enumerator name: (identifier) @name) @def"],
  ["field", "(field_declaration type: (_) @type declarator: (_) @decl) @def"],
  // Every call, told apart by what is called in `call()`: one pattern per shape costs several
  // milliseconds each to compile (C++ had six: 73 ms for its query, 48 ms with this one).
  ["call", "(call_expression function: (_) @fn arguments: (argument_list) @args)"],
  ["param", "(parameter_declaration type: (_) @type declarator: (_) @decl)"],
  // A name used as a value where a function often is one: an argument, a table's entry, an assignment
  // or a variable's initial value.
  [
    "value",
    "[(call_expression function: (_) @callee arguments: (argument_list (identifier) @value)) (initializer_list (identifier) @value) (initializer_pair value: (identifier) @value) (assignment_expression right: (identifier) @value) (init_declarator value: (identifier) @value)]",
  ],
  // Written types: a parameter's, a return type, a field's, a variable's, a typedef's, and a
  // `type_descriptor`'s (casts, `sizeof(T)`, compound literals, C++'s template arguments and aliases).
  // Pointers and arrays are in the declarators, so the type is already the named one. A parameter
  // outside a parameter list is error recovery's reading of a call (`else if (same(argv[i], ..`).
  [
    "typeUse",
    "[(parameter_list (parameter_declaration type: (_) @type)) (field_declaration type: (_) @type) (declaration type: (_) @type) (function_definition type: (_) @type) (type_definition type: (_) @type) (type_descriptor type: (_) @type)]",
  ],
];

const FIELD_NAMES = ["declarator", "parameters", "type", "name", "body", "value", "argument", "field"] as const;
type Fields = Record<(typeof FIELD_NAMES)[number], number>;

/** A name in capitals, digits and underscores, as macros are named. */
const MACRO_CASE = /^[A-Z_][A-Z0-9_]*$/;
const HASH = 35;
const GREATER = 62;
/** Words a read may follow (`return MAX;`); after any other word, a name is a declarator (`int MAX;`). */
const BEFORE_READ = new Set(["return", "case", "sizeof", "else", "do", "goto", "throw", "co_return", "co_yield"]);

/** Where the text before `at` ends, spaces left out. */
function before(source: string, at: number): number {
  let end = at;
  while (end > 0 && /\s/.test(source[end - 1]!)) end--;
  return end;
}

/** Whether the name at `at` follows a word that is no keyword of a read: a type's name, so it is declared. */
function afterTypeName(source: string, at: number): boolean {
  const end = before(source, at);
  let start = end;
  while (start > 0 && /\w/.test(source[start - 1]!)) start--;
  return start < end && !BEFORE_READ.has(source.slice(start, end));
}

/** Words that look like calls in a macro body but are not (`if (x)`, `sizeof(x)`). */
const NOT_CALLS = new Set(
  "if while for switch return sizeof do else case defined typeof __typeof__ _Generic alignof _Alignof __alignof__ __attribute__ __asm__ asm __extension__ offsetof va_arg static_cast const_cast reinterpret_cast dynamic_cast decltype noexcept alignas throw new delete".split(
    " ",
  ),
);

/** Built-in type words a declaration's type may be made of: they name no project type. */
const PRIMITIVE_TYPES = new Set(["primitive_type", "sized_type_specifier", "placeholder_type_specifier"]);

/**
 * Standard C and POSIX types the grammar reads as names (it knows `size_t`, `uint32_t`, `bool` and
 * the like as primitives): a use of one is no use of the project's.
 */
const LIBRARY_TYPES = new Set(
  (
    "FILE va_list wchar_t wint_t time_t clock_t off_t pid_t uid_t gid_t mode_t dev_t ino_t nlink_t " +
    "socklen_t jmp_buf sigjmp_buf sigset_t sig_atomic_t fpos_t div_t ldiv_t DIR " +
    "pthread_t pthread_mutex_t pthread_cond_t pthread_attr_t pthread_key_t pthread_once_t"
  ).split(" "),
);

interface Range {
  start: number;
  end: number;
}

export interface FnDef {
  def: Node;
  name: Node;
  params: Node | null;
  body: Node | null;
  /** Index of the declaration in source order; prototypes and definitions are matched by name. */
  prototype: boolean;
}

export function capture(m: QueryMatch, name: string): Node {
  for (const c of m.captures) if (c.name === name) return c.node;
  throw new Error(`c-family query: no @${name} in pattern ${m.patternIndex}`);
}

/** A node-shaped position inside the source, for references found in macro text. */
function positionAt(source: string, base: Node, offset: number): Node {
  let row = base.startPosition.row;
  let col = base.startPosition.column;
  for (let i = base.startIndex; i < offset; i++) {
    if (source.charCodeAt(i) === 10) {
      row++;
      col = 0;
    } else col++;
  }
  return { startIndex: offset, startPosition: { row, column: col } } as Node;
}

/**
 * One file's extraction. Matches are collected first (function bodies must be known before a
 * declaration can be told to be local), then turned into symbols in `finish`.
 */
export class CFamilyFile {
  protected readonly f: Fields;
  protected readonly header: boolean;
  /** Function bodies, in source order: declarations inside them are locals. */
  protected readonly bodies: Range[] = [];
  protected readonly fns: FnDef[] = [];
  private readonly decls: { def: Node; type: Node; decl: Node }[] = [];
  protected readonly locals: { type: Node; decl: Node }[] = [];
  /** Struct and enum specifiers already declared by a typedef that names them. */
  protected readonly named = new Set<number>();
  private readonly macros = new Set<string>();
  private readonly types: { kind: string; def: Node; name: Node; body: Node }[] = [];
  private readonly fields: { def: Node; type: Node; decl: Node }[] = [];
  protected readonly calls: { name: Node; args: number }[] = [];
  /** Names used as values (see the `value` pattern), with the callee they are passed to. */
  private readonly values: { value: Node; callee: Node | null }[] = [];
  /** Parameters and local variables, by where they are declared. */
  private readonly localNames: { at: number; name: string }[] = [];
  /** What joins a scope to a member read through it (C++'s `Color::RED`); C reads bare names only. */
  protected readonly scopeSeparator: "::" | null = null;
  /** The comments, in order: names in them are no reads. */
  private readonly comments: Range[] = [];
  /** Where enumerators are declared: their names are no reads. */
  private readonly enumeratorsAt = new Set<number>();
  private outer: Range[] | null = null;
  /** Written types (see the `typeUse` pattern), walked in `finish`. */
  private readonly typeUses: Node[] = [];
  /**
   * Where written types are none of the project's uses: prototypes dropped as mere repeats (see
   * `declaration`), whose types the definition uses, declarations error recovery made of a macro's
   * text, macros used as members (C++), and the "parameters" of a local variable made with arguments.
   */
  protected readonly dropped: Range[] = [];

  constructor(
    protected readonly b: ExtractionBuilder,
    fields: Fields,
    path: string,
  ) {
    this.f = fields;
    this.header = isHeaderPath(path);
  }

  protected text(n: Node): string {
    return this.b.text(n);
  }

  handle(tag: string, m: QueryMatch): void {
    switch (tag) {
      case "comment": {
        const node = m.captures[0]!.node;
        this.comments.push({ start: node.startIndex, end: node.endIndex });
        this.b.comment(node);
        return;
      }
      case "include":
        return this.include(capture(m, "def"), capture(m, "path"));
      case "macro":
      case "macroFn":
        return this.macro(capture(m, "def"), capture(m, "name"), tag === "macroFn" ? capture(m, "params") : null);
      case "fnDef": {
        const def = capture(m, "def");
        const body = capture(m, "body");
        this.bodies.push({ start: body.startIndex, end: body.endIndex });
        const d = this.declarator(capture(m, "decl"));
        if (d && !C_KEYWORDS.has(this.text(d.name)))
          this.fns.push({ def, name: d.name, params: d.params, body, prototype: false });
        // Error recovery's `if (..) {..}` (see C_KEYWORDS): its "types" are the code's words.
        else if (d) this.dropped.push({ start: def.startIndex, end: def.endIndex });
        return;
      }
      case "decl": {
        const def = capture(m, "def");
        this.decls.push({ def, type: capture(m, "type"), decl: capture(m, "decl") });
        return;
      }
      case "typedef":
        return this.typedef(capture(m, "def"), capture(m, "type"), capture(m, "decl"));
      case "struct":
      case "enum":
        this.types.push({ kind: tag, def: capture(m, "def"), name: capture(m, "name"), body: capture(m, "body") });
        return;
      case "enumerator":
        this.enumeratorsAt.add(capture(m, "name").startIndex);
        this.b.symbol("enum_member", capture(m, "def"), capture(m, "name"), { exported: true, isStatic: true });
        return;
      case "field":
        this.fields.push({ def: capture(m, "def"), type: capture(m, "type"), decl: capture(m, "decl") });
        return;
      case "call":
        return this.call(capture(m, "fn"), capture(m, "args"));
      case "param": {
        const decl = capture(m, "decl");
        const d = this.declarator(decl);
        if (!d || d.params) return;
        this.localNames.push({ at: d.name.startIndex, name: this.text(d.name) });
        const type = this.typeName(capture(m, "type"));
        if (type) this.b.localType(d.name, this.text(d.name), type);
        return;
      }
      case "typeUse":
        this.typeUses.push(m.captures[0]!.node);
        return;
      case "value": {
        const callee = m.captures.length > 1 ? m.captures[0]!.node : null;
        this.values.push({ value: m.captures[m.captures.length - 1]!.node, callee });
        return;
      }
    }
  }

  /** Declarations and functions, once every function body is known. */
  finish(root: Node): void {
    const defined = new Set<string>();
    for (const fn of this.fns) defined.add(this.text(fn.name));
    for (const t of this.types) {
      if (this.named.has(t.def.id)) continue;
      this.b.symbol(t.kind === "enum" ? "enum" : "struct", t.def, t.name, {
        exported: true,
        signatureEnd: t.body.startIndex,
      });
    }
    const shared = sharedDefs([...this.decls, ...this.fields]);
    for (const { def, type, decl } of this.decls) this.declaration(def, type, decl, defined, shared.has(def.id));
    for (const { def, type, decl } of this.fields) this.field(def, type, decl, shared.has(def.id));
    for (const { type, decl } of this.locals) {
      const d = this.declarator(decl);
      if (!d || d.params) continue;
      this.localNames.push({ at: d.name.startIndex, name: this.text(d.name) });
      const typeName = this.typeName(type);
      if (typeName) this.b.localType(d.name, this.text(d.name), typeName);
    }
    for (const fn of this.fns) this.function(fn);
    const local = this.localTest();
    this.emitCalls(local);
    this.reads(root, local);
    this.dropped.sort((a, b) => a.start - b.start);
    for (const t of this.typeUses) if (!this.inDropped(t.startIndex)) this.typeUse(t);
  }

  /**
   * The project type a written type names, as a `references` ref of the symbol around it: what
   * `impact` and `callers --all-uses` follow to a parameter's, return type's, field's or variable's
   * type. A struct, union or enum written with its body is declared there, not used (its fields are
   * matched themselves); built-in and standard library types name nothing of the project's.
   */
  protected typeUse(t: Node): void {
    switch (t.type) {
      case "type_identifier": {
        const name = this.text(t);
        if (!LIBRARY_TYPES.has(name) && !C_KEYWORDS.has(name)) this.b.ref("references", t, name, null);
        return;
      }
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier": {
        if (t.childForFieldId(this.f.body)) return;
        // `struct foo *p`: the tag.
        const name = t.childForFieldId(this.f.name);
        if (name) this.typeUse(name);
        return;
      }
    }
  }

  /**
   * Whether a callee may be a macro, whose arguments may be any text (`SCREEN_PROLOGUE(p, s, field)`
   * pastes a member's name): one the file defines, or named in capitals as macros are.
   */
  private macroLike(callee: Node): boolean {
    if (callee.type !== "identifier") return false;
    const name = this.text(callee);
    return this.macros.has(name) || MACRO_CASE.test(name);
  }

  /** Whether `at` is inside a dropped declaration (they hardly nest: one sorted list, searched). */
  private inDropped(at: number): boolean {
    return inSpans(this.dropped, at);
  }

  /**
   * Whether a name at a place is a parameter or local variable of the function around it (a function
   * pointer, a functor, a counter): nothing a name of the project stands for.
   */
  private localTest(): (at: number, text: string) => boolean {
    const locals = new Map<number, Set<string>>();
    for (const l of this.localNames) {
      const body = this.bodyAt(l.at) ?? this.paramsOwner(l.at);
      if (body === null) continue;
      let set = locals.get(body);
      if (!set) locals.set(body, (set = new Set()));
      set.add(l.name);
    }
    return (at, text) => {
      // A constructor's member initializers (`: size_{size}`) come before its body.
      const body = this.bodyAt(at) ?? this.paramsOwner(at);
      return body !== null && locals.get(body)?.has(text) === true;
    };
  }

  /** Calls by bare name, and names used as values (`NAMED_VALUE`), except a local's. */
  private emitCalls(local: (at: number, text: string) => boolean): void {
    for (const c of this.calls) {
      const text = this.text(c.name);
      if (!local(c.name.startIndex, text)) this.b.ref("calls", c.name, text, null, c.args);
    }
    for (const { value, callee } of this.values) {
      const text = this.text(value);
      // A name in capitals is a macro's or an enumerator's (`NULL`, `RT_NONE`), not a function's.
      if (
        local(value.startIndex, text) ||
        MACRO_CASE.test(text) ||
        C_KEYWORDS.has(text) ||
        (callee && this.macroLike(callee))
      )
        continue;
      this.b.ref("references", value, text, NAMED_VALUE);
    }
  }

  /**
   * Constants read (`READ_VALUE`): a bare name in capitals (`MAXCLIENTS`, `RT_NONE`), a macro's, an
   * enumerator's or a constant's, and in C++ a member through a scope (`Color::Red`, `Limits::MAX`),
   * found in the text (see `capitalisedReads`) and asked of the tree: a name node in code, not in a
   * string, comment, type or field (`p->MAX`), nor on a preprocessor line (a header's guard,
   * `#if HAVE_X`: configuration, not code), nor a name declared there (an enumerator,
   * `extern RESTYPE RT_X;`), nor a local of the name. The text's checks come first: the tree's
   * cost a walk from the root each.
   */
  private reads(root: Node, local: (at: number, text: string) => boolean): void {
    const source = this.b.source;
    const separator = this.scopeSeparator;
    capitalisedReads(
      source,
      ({ at, name, object }) => {
        if (object === null ? this.enumeratorsAt.has(at) : separator === null) return;
        if (inSpans(this.comments, at)) return;
        let i = source.lastIndexOf("\n", at) + 1;
        while (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9) i++;
        // `std::mutex Registry::s_mutex;` defines the member it names.
        const head = object === null ? at : at - separator!.length - object.length;
        if (source.charCodeAt(i) === HASH || afterTypeName(source, head)) return;
        const node = root.descendantForIndex(at, at + name.length);
        if (node?.type !== "identifier" || (object === null && local(at, name))) return;
        // `std::map<K, V> Registry::s_all;` too: asked of the tree, as `a > Limits::MAX` reads it.
        if (object !== null && source.charCodeAt(before(source, head) - 1) === GREATER) {
          const around = node.parent?.parent?.type;
          if (around === "declaration" || around === "init_declarator") return;
        }
        this.b.ref("references", node, name, `${READ_VALUE}${object ?? ""}`);
      },
      separator ?? ".",
    );
  }

  // ---- declarations ----

  private include(def: Node, path: Node): void {
    const raw = this.text(path);
    const spec = path.type === "system_lib_string" ? raw : raw.replace(/^"|"$/g, "");
    if (!spec || spec === "<>") return;
    const line = def.startPosition.row + 1;
    // Seen here, and passed on to every file that includes this one.
    this.b.import({ local: "*", imported: "*", specifier: spec, line, reexport: false });
    this.b.import({ local: "*", imported: "*", specifier: spec, line, reexport: true });
  }

  private macro(def: Node, name: Node, params: Node | null): void {
    const text = this.text(name);
    const value = def.childForFieldId(this.f.value);
    // Include guards and flags (`#define FOO_H`) declare nothing anyone calls.
    if ((!params && !value) || C_KEYWORDS.has(text)) return;
    // The same macro defined again under another `#if` branch is one macro.
    if (this.macros.has(text)) return;
    this.macros.add(text);
    let paramCount: number | null = null;
    const names = new Set<string>();
    if (params) {
      paramCount = 0;
      for (const p of params.namedChildren) {
        if (!p) continue;
        if (p.type === "identifier") {
          paramCount++;
          names.add(this.text(p));
        } else paramCount = null; // `...`
        if (paramCount === null) break;
      }
      if (this.text(params).includes("...")) paramCount = null;
    }
    // The node ends after the line break; the macro ends with its text.
    const end = value ? value.endIndex : (params ?? name).endIndex;
    this.b.symbol(params ? "function" : "constant", spanTo(this.b.source, def, end), name, {
      exported: false,
      paramCount,
      signatureEnd: value ? value.startIndex : def.endIndex,
    });
    if (value) this.macroCalls(value, names);
  }

  /** `name(` in a macro's body: a call made wherever the macro is used, attributed to the macro. */
  private macroCalls(value: Node, params: Set<string>): void {
    const src = this.b.source;
    const body = src.slice(value.startIndex, value.endIndex);
    for (const m of body.matchAll(/([A-Za-z_]\w*)\s*\(/g)) {
      const word = m[1]!;
      const at = value.startIndex + m.index;
      const before = src.charCodeAt(at - 1);
      // `a.f(`, `a->f(`, `##f(`, `#f`: members, token pasting and stringising are not plain calls.
      if (before === 46 || before === 62 || before === 35 || before === 36) continue;
      if (NOT_CALLS.has(word) || params.has(word) || word.startsWith("__builtin")) continue;
      this.b.ref("calls", positionAt(src, value, at), word, null, null);
    }
  }

  private typedef(def: Node, type: Node, decl: Node): void {
    const d = this.declarator(decl);
    if (!d) return;
    const body = type.childForFieldId(this.f.body);
    const direct = decl.type === "type_identifier";
    // `typedef struct _Foo {..} FooRec, *FooPtr;`: each name is a top-level type. The first spans the
    // typedef up to its own declarator, the others their declarators, so none holds another (xorg-server
    // had 219 `FooPtr`s named `FooRec.FooPtr`, which no written `FooPtr` reached).
    const src = this.b.source;
    const first = !src.slice(type.endIndex, decl.startIndex).includes(",");
    const several = !first || src.slice(decl.endIndex, def.endIndex).includes(",");
    const span = !several ? def : first ? spanTo(src, def, decl.endIndex) : decl;
    // `typedef struct tag { ... } Name;`: one type, by the name code uses for it.
    if (
      body &&
      direct &&
      (type.type === "struct_specifier" || type.type === "union_specifier" || type.type === "enum_specifier")
    ) {
      if (this.named.has(type.id)) {
        // A second name for the same body (`typedef struct {..} A, B;`).
        this.b.symbol("type_alias", decl, d.name, { exported: true });
        return;
      }
      this.named.add(type.id);
      this.b.symbol(type.type === "enum_specifier" ? "enum" : "struct", span, d.name, {
        exported: true,
        signatureEnd: body.startIndex,
      });
      return;
    }
    this.b.symbol("type_alias", span, d.name, { exported: true });
    this.typedefOf(d.name, type, decl);
  }

  /**
   * What a typedef of a named type stands for (`typedef Foo Bar;`), where the resolver follows it:
   * C++'s (see the C++ extractor). C's resolver does not, so C records nothing.
   */
  protected typedefOf(_name: Node, _type: Node, _decl: Node): void {}

  /** A field; one of several declared together (`int x, y;`) spans its own declarator only. */
  protected field(def: Node, type: Node, decl: Node, shared: boolean): void {
    const d = this.declarator(decl);
    if (!d) return;
    this.b.symbol("property", shared ? decl : def, d.name, { exported: true });
    const typeName = this.typeName(type);
    if (typeName && !d.params) this.b.localType(def, `this.${this.text(d.name)}`, typeName);
  }

  /** A top-level declaration: a prototype, a global; inside a function body, a local's type. */
  protected declaration(def: Node, type: Node, decl: Node, defined: Set<string>, shared: boolean): void {
    if (this.inBody(def.startIndex)) {
      this.locals.push({ type, decl });
      // `v8::HandleScope scope(isolate);` reads as a local prototype whose parameter is of type
      // `isolate`: the grammar cannot tell a variable made with arguments, the usual meaning.
      const params = decl.type === "function_declarator" ? decl.childForFieldId(this.f.parameters) : null;
      if (params) this.dropped.push({ start: params.startIndex, end: params.endIndex });
      return;
    }
    const d = this.declarator(decl);
    if (!d) return;
    const name = this.text(d.name);
    if (C_KEYWORDS.has(name)) {
      this.dropped.push({ start: def.startIndex, end: def.endIndex });
      return;
    }
    const head = this.b.source.slice(def.startIndex, type.startIndex);
    const isStatic = /\bstatic\b/.test(head);
    const isExtern = /\bextern\b/.test(head);
    if (d.params) {
      // Prototypes: the API in a header (unless the header defines it too), nothing in a source file.
      if (!this.header || defined.has(name)) {
        this.dropped.push({ start: def.startIndex, end: def.endIndex });
        return;
      }
      this.fns.push({ def: shared ? decl : def, name: d.name, params: d.params, body: null, prototype: true });
      return;
    }
    if (isExtern && !this.header) return;
    const constant = /\bconst\b/.test(head) && !/\*/.test(this.text(decl));
    this.b.symbol(constant ? "constant" : "variable", shared ? decl : def, d.name, {
      exported: !isStatic && !this.internal(def),
      isStatic,
      signatureEnd: def.endIndex,
    });
  }

  protected function(fn: FnDef): void {
    const { def, name, params, body } = fn;
    const head = this.b.source.slice(def.startIndex, name.startIndex);
    const isStatic = /\bstatic\b/.test(head);
    let end = body ? body.startIndex : def.endIndex;
    if (!body && this.b.source.endsWith(";", end)) end--;
    this.b.symbol("function", def, name, {
      exported: !isStatic,
      paramCount: params ? this.paramCount(params) : null,
      signatureEnd: end,
      multilineSignature: true,
    });
  }

  // ---- helpers ----

  /** Whether a declaration has internal linkage for a reason other than `static` (C++'s anonymous namespaces). */
  protected internal(_def: Node): boolean {
    return false;
  }

  protected inBody(at: number): boolean {
    return this.bodyAt(at) !== null;
  }

  /** Start of the outermost function body holding `at`, or null. */
  protected bodyAt(at: number): number | null {
    if (!this.outer) {
      // Bodies nested in another (a local class's methods) belong to the outer function.
      const sorted = [...this.bodies].sort((a, b) => a.start - b.start);
      this.outer = [];
      for (const r of sorted) {
        const last = this.outer[this.outer.length - 1];
        if (!last || r.start >= last.end) this.outer.push(r);
      }
    }
    const list = this.outer;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = list[mid]!;
      if (r.end <= at) lo = mid + 1;
      else if (r.start > at) hi = mid - 1;
      else return r.start;
    }
    return null;
  }

  /** The body of the function whose parameter list holds `at`. */
  private paramsOwner(at: number): number | null {
    for (const fn of this.fns) {
      if (fn.body && fn.def.startIndex <= at && fn.body.startIndex > at) return fn.body.startIndex;
    }
    return null;
  }

  /** Declared parameters; null for variadic ones (any count may be passed). */
  protected paramCount(params: Node): number | null {
    let n = 0;
    // `f(const char *fmt, ...)`: the grammar gives `...` as an unnamed child.
    for (const p of params.children) if (p?.type === "...") return null;
    for (const p of params.namedChildren) {
      if (!p) continue;
      if (p.type === "variadic_parameter" || p.type === "variadic_parameter_declaration") return null;
      if (p.type.endsWith("parameter_declaration")) n++;
    }
    // `f(void)` takes nothing.
    if (n === 1 && /^\(\s*void\s*\)$/.test(this.text(params))) return 0;
    return n;
  }

  /** Arguments written in a call; a comment between them (`f(false, x)` with `inner` commented) is none. */
  protected argCount(args: Node): number {
    let n = 0;
    for (const a of args.namedChildren) if (a && a.type !== "comment") n++;
    return n;
  }

  /**
   * The declared name under a declarator and, when what is declared is a function, its parameter
   * list: `*make(int)` declares a function, `(*fp)(int)` a pointer to one (a variable).
   */
  protected declarator(node: Node): { name: Node; params: Node | null } | null {
    let cur: Node | null = node;
    let params: Node | null = null;
    let direct = false;
    for (let depth = 0; cur && depth < 16; depth++) {
      switch (cur.type) {
        case "function_declarator":
          params = cur.childForFieldId(this.f.parameters);
          direct = true;
          cur = cur.childForFieldId(this.f.declarator);
          continue;
        case "pointer_declarator":
        case "array_declarator":
        case "reference_declarator":
          direct = false;
          cur = cur.childForFieldId(this.f.declarator) ?? cur.namedChild(cur.namedChildCount - 1);
          continue;
        case "init_declarator":
        case "attributed_declarator":
          cur = cur.childForFieldId(this.f.declarator);
          continue;
        case "parenthesized_declarator":
          cur = cur.namedChild(0);
          continue;
        default:
          return this.declaredName(cur, direct ? params : null);
      }
    }
    return null;
  }

  /** The name a declarator chain ends in (in C, an identifier), with its parameters when it declares a function. */
  protected declaredName(node: Node, params: Node | null): { name: Node; params: Node | null } | null {
    return this.isName(node) ? { name: node, params } : null;
  }

  protected isName(n: Node): boolean {
    return n.type === "identifier" || n.type === "field_identifier" || n.type === "type_identifier";
  }

  /** The project type a declaration's type names: `struct node`, `Point`; null for built-in types. */
  protected typeName(type: Node): string | null {
    if (PRIMITIVE_TYPES.has(type.type)) return null;
    switch (type.type) {
      case "type_identifier":
        return this.text(type);
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier": {
        const name = type.childForFieldId(this.f.name);
        return name && name.type === "type_identifier" ? this.text(name) : null;
      }
      default:
        return null;
    }
  }

  /** A call of a name (`f(x)`), resolved later with the file's declarations, or of a member (`p->f(x)`). */
  protected call(fn: Node, args: Node): void {
    if (fn.type === "identifier") {
      this.calls.push({ name: fn, args: this.argCount(args) });
      return;
    }
    if (fn.type !== "field_expression") return;
    const name = this.memberName(fn.childForFieldId(this.f.field));
    const recv = fn.childForFieldId(this.f.argument);
    if (!name || !recv) return;
    this.b.ref("calls", name, this.text(name), this.receiver(recv) ?? "?", this.argCount(args));
  }

  /** The method a member call names: `p->f`. */
  protected memberName(field: Node | null): Node | null {
    return field?.type === "field_identifier" ? field : null;
  }

  /** A call's receiver as the resolver reads it: `p`, `a.b`; null for anything computed. */
  protected receiver(node: Node, depth = 0): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case "identifier":
      case "this":
        return this.text(node);
      case "field_expression": {
        const arg = node.childForFieldId(this.f.argument);
        const field = node.childForFieldId(this.f.field);
        if (!arg || !field || field.type !== "field_identifier") return null;
        const left = this.receiver(arg, depth + 1);
        return left ? `${left}.${this.text(field)}` : null;
      }
      case "parenthesized_expression": {
        const inner = node.namedChild(0);
        return inner ? this.receiver(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }
}

/**
 * Export and attribute macros in front of a declaration (`_X_EXPORT CARD64 GetTime(void);`,
 * `static _X_INLINE int f(void)`, `ZEXTERN int ZEXPORT inflate(...)` style): an upper-case word
 * followed by a type and a name with a parameter list; in C++ the type may be qualified and
 * templated (`LIBLET_PUBLICAPI Mso::CntPtr<IJSBundle> MakeFileJSBundle(`), which the grammar read as
 * the function's qualifier. The grammar reads the macro as the type and
 * fails on the rest, so it is given blanks in its place (the file's own text is what we read back).
 */
const EXPORT_MACRO =
  /^([ \t]*(?:(?:extern|static|inline|__inline|const)[ \t]+)*)([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)(?=[ \t]+(?:(?:const|unsigned|signed|struct|union|enum|volatile)\s+)*[A-Za-z_]\w*(?:::(?!operator\b)[A-Za-z_]\w*)*(?:<(?:[^<>;{}()\n]|<[^<>;{}()\n]*>)*>)?(?:\s+const\b)?[\s*&]+[A-Za-z_]\w*\s*\()/gm;

/**
 * The same between `class` or `struct` and the name (`class JSI_EXPORT LazyObject : public HostObject`,
 * `class FOLLY_EXPORT Foo final {`): the grammar takes the macro for the name and the class is lost.
 */
const CLASS_MACRO =
  /\b((?:class|struct)[ \t]+)([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)(?=[ \t]+[A-Za-z_]\w*[ \t]*(?:final\b|:(?!:)|\{|\n))/g;

/**
 * A class head written twice under `#if`/`#else` (jsi.h: `#if JSI_VERSION >= 20` /
 * `class JSI_EXPORT Runtime : public ICast {` / `#else` / `class JSI_EXPORT Runtime {` / `#endif`)
 * opens two bodies and closes one, and the grammar then loses the namespaces around it and nests the
 * rest of the file in the class. The parse sees only the first head: the directives and the second
 * head are blanked.
 */
const SPLIT_HEAD =
  /^(#[ \t]*if[^\n]*)(\n[ \t]*(?:template[^\n]*\n[ \t]*)?(?:class|struct)\b[^\n;{}]*\{[ \t]*\n)(#[ \t]*else[^\n]*\n[ \t]*(?:class|struct)\b[^\n;{}]*\{[ \t]*\n#[ \t]*endif[^\n]*)$/gm;

export function blankSplitHeads(source: string): string {
  if (!source.includes("#else")) return source;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  return source.replace(
    SPLIT_HEAD,
    (_all, open: string, head: string, rest: string) => blank(open) + head + blank(rest),
  );
}

/**
 * Calling conventions between a declaration's type and its name (`HRESULT __stdcall Provider::Navigate(`,
 * `static void NAPI_CDECL PostTask(`, `int WINAPI WinMain(`): the grammar reads the word as the name
 * and the rest as errors, making properties of functions or qualifying them by the word. An
 * upper-case word (or MSVC's keywords) after a type, before a name and its parameter list.
 */
const CALLING_CONVENTION =
  /^([ \t]*(?:[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?(?:[ \t]*[*&]+)?[ \t]+)+)([A-Z_][A-Z0-9_]{2,}|__(?:stdcall|cdecl|fastcall|thiscall|vectorcall|clrcall))(?=[ \t]+[*&]*[ \t]*[A-Za-z_~][\w:]*[ \t]*\()/gm;
/** The cheap test first: a word boundary before the word, not a line start, scans fastest. */
const HAS_CALLING_CONVENTION =
  /\b(?:[A-Z_][A-Z0-9_]{2,}|__(?:stdcall|cdecl|fastcall|thiscall|vectorcall|clrcall))[ \t]+[*&]*[ \t]*[A-Za-z_~][\w:]*[ \t]*\(/;
/** Words before a calling convention that are no type, so the upper-case word may be the type itself. */
const NOT_A_TYPE = new Set([
  ...["static", "extern", "inline", "__inline", "const", "volatile", "constexpr", "virtual", "friend", "typedef"],
  ...["return", "struct", "union", "enum", "class", "else", "case", "new", "delete", "throw", "goto", "using"],
  ...["namespace", "template", "typename", "explicit", "register", "unsigned", "signed"],
]);

/** Names that are calling conventions wherever they are (`HRESULT WINAPI f(`, `BOOL CALLBACK f(`). */
const KNOWN_CONVENTION = /^(?:__\w+|WINAPI|CALLBACK|PASCAL|\w*APIENTRY|\w*CDECL|\w*STDCALL|\w*CALL|\w*CALLTYPE)$/;

/**
 * Whether an upper-case word after `before` is a calling convention rather than the type: after a
 * specifier it is the type (`static BOOL f(`); after an upper-case word it is the type behind an
 * export macro (`_X_EXPORT RESTYPE f(`) unless it is a known convention (`LRESULT CALLBACK f(`).
 */
function isCallingConvention(word: string, before: string): boolean {
  if (word.startsWith("__")) return true;
  if (NOT_A_TYPE.has(before)) return false;
  return !/^[A-Z_][A-Z0-9_]*$/.test(before) || KNOWN_CONVENTION.test(word);
}

export function blankExportMacros(source: string): string {
  const blank = (_all: string, lead: string, word: string) => lead + word.replace(/[^\n]/g, " ");
  // Calling conventions first: `NAPI_EXTERN napi_status NAPI_CDECL f(` then shows its export macro.
  const called = HAS_CALLING_CONVENTION.test(source)
    ? source.replace(CALLING_CONVENTION, (all: string, lead: string, word: string) =>
        isCallingConvention(word, /([\w:]+)[ \t*&]*$/.exec(lead)?.[1] ?? "") ? blank(all, lead, word) : all,
      )
    : source;
  const classes = /\b(?:class|struct)[ \t]+[A-Z_][A-Z0-9_]*[ \t(]/.test(called)
    ? called.replace(CLASS_MACRO, blank)
    : called;
  if (!/^[ \t]*(?:(?:extern|static|inline|__inline|const)[ \t]+)*[A-Z_]/m.test(classes)) return classes;
  return classes.replace(EXPORT_MACRO, blank);
}

/** Declarations declaring several names at once (`int a, *b;`): each name gets its own span. */
function sharedDefs(list: readonly { def: Node }[]): Set<number> {
  const seen = new Set<number>();
  const shared = new Set<number>();
  for (const { def } of list) {
    if (seen.has(def.id)) shared.add(def.id);
    seen.add(def.id);
  }
  return shared;
}

/** Compile a tagged pattern list into one query, and the tag of each pattern index. */
export function compileTagged(
  patterns: readonly Pattern[],
  compile: (source: string) => Query,
): { query: Query; tags: string[] } {
  return { query: compile(patterns.map((p) => p[1]).join("\n")), tags: patterns.map((p) => p[0]) };
}

/** The extraction function for a C-family grammar, over a file class. */
export function cFamilyExtract(
  language: Language,
  grammar: string,
  patterns: readonly Pattern[],
  compile: (source: string) => Query,
  make: (b: ExtractionBuilder, fields: Fields, path: string) => CFamilyFile,
): (tree: Tree, source: string, path: string) => ExtractResult {
  const { query, tags } = compileTagged(patterns, compile);
  const fields: Fields = fieldIds(language, grammar, FIELD_NAMES);
  return (tree: Tree, source: string, path: string): ExtractResult => {
    const b = new ExtractionBuilder(source);
    const root = tree.rootNode;
    const file = make(b, fields, path);
    for (const m of query.matches(root)) file.handle(tags[m.patternIndex]!, m);
    file.finish(root);
    return b.finish(null, countSyntaxErrors(root));
  };
}

export type { Fields as CFamilyFields, NodeKind };
