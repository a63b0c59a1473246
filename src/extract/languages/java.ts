import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import {
  ANONYMOUS_BODY,
  ELEMENT,
  READ_VALUE,
  anonymousBody,
  callbackPosition,
  type ExtractResult,
  type ExtractedSymbol,
  valueOfType,
} from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { fieldIds } from "../fields.js";
import { asciiIdentifierEnd, spanTo } from "../source-text.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast } from "../ts-helpers.js";
import { captureFor, spanOf } from "../nodes.js";
import { lastStartingBy } from "../spans.js";
import { JAVA_FUNCTIONAL_TYPES } from "./functional-types.js";
import { constantReads } from "./constant-reads.js";
import { isConstantName } from "../capitalised-reads.js";

/**
 * One flat query for the whole file. Each pattern's index says what a match is (see `P`); its captures
 * are the parts, each named once per pattern.
 *
 * Every capture becomes a JS object and every question asked of a node is a call into WASM, so where
 * a declaration sits is read from small context patterns rather than by walking up from it
 * (`Node.parent` descends from the root on every call): members of interface and annotation bodies,
 * members of anonymous class bodies (with the type after `new`, or the enum of a constant's body),
 * and record components. Those patterns finish on the member node
 * itself, and tree-sitter finishes the states of an enclosing pattern before those of a pattern
 * starting at the same node, so a member is known as such before its own match (even `(field_declaration)`)
 * is handled. Array declarators (`Foo xs[]`) are left out of the variable patterns with `!dimensions`.
 * In a tree without errors, names, plain receivers, import paths, keyword-only modifiers and simple
 * types are read from the source text instead of node by node. The last pattern matches each place a
 * type is written (`TypeUse`), for the `references` refs of `typeRefs`.
 */
const QUERY = `
(block_comment) @comment
(package_declaration) @package
(import_declaration) @import
(class_declaration name: (identifier) @name body: (_) @body) @def
(record_declaration name: (identifier) @name body: (_) @body) @def
(interface_declaration name: (identifier) @name body: (_) @body) @def
(annotation_type_declaration name: (identifier) @name body: (_) @body) @def
(enum_declaration name: (identifier) @name body: (_) @body) @def
(enum_constant name: (identifier) @name) @def
(method_declaration name: (identifier) @name) @def
(annotation_type_element_declaration name: (identifier) @name) @def
(constructor_declaration name: (identifier) @name body: (_) @body) @def
(compact_constructor_declaration name: (identifier) @name body: (_) @body) @def
(field_declaration) @def
(constant_declaration) @def
(method_invocation !object name: (identifier) @callee arguments: (argument_list) @args)
(method_invocation object: (_) @recv name: (identifier) @callee arguments: (argument_list) @args)
(object_creation_expression type: (_) @type arguments: (argument_list) @args)
(explicit_constructor_invocation constructor: (_) @ctor arguments: (argument_list) @args)
(method_reference) @methodref
(superclass (_) @extends)
(super_interfaces (type_list (_) @implements))
(extends_interfaces (type_list (_) @extends))
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name !dimensions))
(formal_parameter type: (_) @type name: (identifier) @name !dimensions)
(catch_formal_parameter (catch_type . (_) @type .) name: (identifier) @name !dimensions)
(enhanced_for_statement type: (_) @type name: (identifier) @name !dimensions)
(resource type: (_) @type name: (identifier) @name !dimensions)
(instanceof_expression right: (_) @type name: (identifier) @name !dimensions)
(type_parameter . (type_identifier) @typeparam)
(interface_body (_) @member)
(annotation_type_body (_) @member)
(object_creation_expression type: (_) @base (class_body (_) @member) @anonymous)
(enum_declaration name: (identifier) @base body: (enum_body (enum_constant (class_body (_) @member) @anonymous)))
(record_declaration (_ (formal_parameter) @component))
[(formal_parameter type: (_) @type) (spread_parameter [(type_identifier) (scoped_type_identifier) (generic_type) (array_type)] @type) (local_variable_declaration type: (_) @type) (field_declaration type: (_) @type) (constant_declaration type: (_) @type) (method_declaration type: (_) @type) (annotation_type_element_declaration type: (_) @type) (catch_type (_) @type) (enhanced_for_statement type: (_) @type) (resource type: (_) @type) (instanceof_expression right: (_) @type) (cast_expression type: (_) @type) (array_creation_expression type: (_) @type) (throws (_) @type) (class_literal (_) @type) (type_bound (_) @type) (type_pattern . (_) @type) (record_pattern . (_) @type) (record_pattern_component . (_) @type) (permits (type_list (_) @type)) (method_invocation type_arguments: (_) @type) (object_creation_expression type_arguments: (_) @type) (explicit_constructor_invocation type_arguments: (_) @type)]
(switch_expression condition: (parenthesized_expression . (_) @subject .) body: (switch_block [(switch_block_statement_group (switch_label (identifier) @case)) (switch_rule (switch_label (identifier) @case))]))
`;

/** Pattern indices of `QUERY`, in order. */
const P = {
  Comment: 0,
  Package: 1,
  Import: 2,
  Class: 3,
  Record: 4,
  Interface: 5,
  AnnotationType: 6,
  Enum: 7,
  EnumConstant: 8,
  Method: 9,
  AnnotationElement: 10,
  Constructor: 11,
  CompactConstructor: 12,
  Field: 13,
  Constant: 14,
  Call: 15,
  CallOn: 16,
  New: 17,
  ConstructorCall: 18,
  MethodReference: 19,
  Superclass: 20,
  Implements: 21,
  ExtendsInterfaces: 22,
  LocalVariable: 23,
  Parameter: 24,
  CatchParameter: 25,
  ForVariable: 26,
  Resource: 27,
  InstanceofBinding: 28,
  TypeParameter: 29,
  InterfaceMember: 30,
  AnnotationMember: 31,
  AnonymousMember: 32,
  EnumConstantMember: 33,
  RecordComponent: 34,
  TypeUse: 35,
  CaseLabel: 36,
} as const;

const ANNOTATIONS = new Set(["marker_annotation", "annotation"]);
/** java.lang's annotations, the compiler's own markers: never a project type, so no reference worth recording. */
const LANGUAGE_ANNOTATIONS = new Set([
  "Override",
  "SuppressWarnings",
  "Deprecated",
  "FunctionalInterface",
  "SafeVarargs",
]);
const COMMENTS = new Set(["line_comment", "block_comment"]);
/** Containers of member declarations: a declaration whose parent is one of these is a member. */
const MEMBER_BODIES = new Set(["class_body", "interface_body", "annotation_type_body", "enum_body_declarations"]);

/** Words that look like names but are keywords or literals: a receiver holding one is not a plain name. */
const RESERVED = new Set(
  (
    "abstract assert boolean break byte case catch char class const continue default do double else enum " +
    "extends final finally float for goto if implements import instanceof int interface long native new " +
    "package private protected public return short static strictfp super switch synchronized this throw " +
    "throws transient try void volatile while true false null"
  ).split(" "),
);

/** Primitive type keywords: `typeName` has no name for them. */
const PRIMITIVES = new Set(["int", "long", "short", "byte", "char", "float", "double", "boolean", "void"]);

/** ASCII names joined by dots, then the `.` before a method name: a receiver written plainly. */
const PLAIN_RECEIVER = /^([A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*){0,8})\s*\.\s*$/;
/** ASCII names joined by dots, nothing else: a package or import path written plainly. */
const PLAIN_PATH = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*){0,8}$/;

type Visibility = ExtractedSymbol["visibility"];

/** An anonymous class body and the supertype written for it: the type after `new`, or the constant's enum. */
interface AnonymousBody {
  base: Node;
  body: Node;
}

/** A member declaration's symbol options, built with every field so each has the same shape. */
interface MemberOptions {
  name: string;
  docNode: Node;
  visibility: Visibility;
  exported: boolean;
  isStatic: boolean;
  signatureEnd: number | undefined;
  paramCount: number | null;
}

interface Modifiers {
  visibility: Visibility;
  isStatic: boolean;
  /** First node of the declaration that is not an annotation: where its signature starts. */
  start: Node;
}

/** Collections whose one type argument is their elements' type. */
const COLLECTIONS = new Set([
  "List",
  "ArrayList",
  "LinkedList",
  "Collection",
  "Iterable",
  "Set",
  "HashSet",
  "LinkedHashSet",
  "TreeSet",
  "SortedSet",
  "Queue",
  "Deque",
  "ArrayDeque",
  "Stream",
  "Optional",
  "Iterator",
  "ListIterator",
]);

/** Maps, whose values stand for their elements (`byId.get(k)`, `for (var o : byId.values())`). */
const MAPS = new Set([
  "Map",
  "HashMap",
  "LinkedHashMap",
  "TreeMap",
  "SortedMap",
  "NavigableMap",
  "ConcurrentMap",
  "ConcurrentHashMap",
  "EnumMap",
  "Hashtable",
  "WeakHashMap",
  "IdentityHashMap",
]);

/** Collection, `Stream` and `Optional` methods whose lambda gets an element. */
const ELEMENT_LAMBDAS = new Set([
  "forEach",
  "map",
  "flatMap",
  "filter",
  "anyMatch",
  "allMatch",
  "noneMatch",
  "mapToInt",
  "mapToLong",
  "mapToDouble",
  "peek",
  "removeIf",
  "ifPresent",
  "takeWhile",
  "dropWhile",
]);

/** `a`, `this.repo`, `a.b.C`: a plain dotted name. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** Field ids of the grammar, looked up once instead of by name on every call. */
const FIELD_NAMES = [
  "name",
  "body",
  "type",
  "parameters",
  "declarator",
  "dimensions",
  "value",
  "object",
  "module",
  "operand",
  "package",
  "scope",
  "field",
  "element",
  "array",
] as const;
type Fields = Record<(typeof FIELD_NAMES)[number], number>;

/** The node captured under `name` in a match; each pattern names a capture once. */
const capture = captureFor("java");

function optionalCapture(m: QueryMatch, name: string): Node | null {
  for (const c of m.captures) if (c.name === name) return c.node;
  return null;
}

/**
 * A block comment's range read from the source instead of from WASM: it runs to the first `*` + `/`
 * after its opening, and its end row counts the line breaks in between (as tree-sitter does).
 */
function commentSpan(source: string, node: Node): Node {
  const start = node.startIndex;
  let end = source.indexOf("*/", start + 2);
  if (!source.startsWith("/*", start) || end < 0) return node;
  end += 2;
  return spanTo(source, node, end);
}

/** Named children that are not comments. */
function namedKids(node: Node): Node[] {
  const out: Node[] = [];
  for (const c of node.namedChildren) if (c && !COMMENTS.has(c.type)) out.push(c);
  return out;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/** A node-shaped position on no line, so the builder finds no comment above it. */
const NO_DOC = { startPosition: { row: -2, column: 0 } } as Node;

/**
 * The first sibling after `mods` that is not a comment. `mods` is the declaration's first child, so
 * its siblings are read by index from the declaration instead of through `nextSibling` (which finds
 * the parent by descending from the root).
 */
function nextNonComment(def: Node, mods: Node): Node | null {
  if (def.child(0)?.id !== mods.id) {
    let next = mods.nextSibling;
    while (next && COMMENTS.has(next.type)) next = next.nextSibling;
    return next;
  }
  for (let i = 1; ; i++) {
    const next = def.child(i);
    if (!next || !COMMENTS.has(next.type)) return next;
  }
}

class JavaFile {
  packageName: string | null = null;
  /** Names declared as type parameters (`<T>`) anywhere in the file: not classes a variable can be typed with. */
  private readonly typeParams = new Set<string>();
  /** Type parameters' bounds, by name (see `typeParameter`). */
  private readonly bounds = new Map<string, string>();
  private readonly pendingTypes: { at: Node; name: string; typeName: string }[] = [];
  /** Node ids of the members of interface and annotation bodies: implicitly public. */
  private readonly interfaceMembers = new Set<number>();
  /**
   * The anonymous class bodies (`new Foo() { ... }`, an enum constant's body) by the node ids of their
   * members. The class is no symbol: its members are symbols under the declaration around it (the
   * method writing `new`, the enum constant), as Kotlin's object expressions' are, so that what they
   * call is known, they are seen to override the supertype's methods (`overrides` refs, see
   * `anonymousOverride`), and calls between them resolve (see ANONYMOUS_BODY).
   */
  private readonly anonymousBodies = new Map<number, AnonymousBody>();
  /** Ranges of record components (`record R(Repo repo)`): fields, not local variables. */
  private readonly components: { start: number; end: number }[] = [];
  /**
   * Written types (see `typeRefs`), walked once the whole file is matched: a name is a type parameter
   * if the file declares one so, which may be after its use.
   */
  private readonly typeUses: Node[] = [];
  /** Type declarations' headers, from their name to their body: a use of its own name there is none. */
  private readonly headers: { start: number; end: number; name: string }[] = [];
  /** Names of the types declared in the file, to look in `headers` only for those. */
  private readonly declaredTypes = new Set<string>();
  /** Where the types of receiver parameters (`void close(Conn this)`) start: the declaring class, no use of it. */
  private readonly receiverTypes = new Set<number>();
  /**
   * Whether a type of the file has a supertype written (`extends`, `implements`, an anonymous class's
   * base), or the file imports a class's static members wholesale: then a bare constant neither
   * declared nor imported by name may still be one the types around it reach (see `readsBare`).
   */
  private reachesMore = false;
  /** Names in capitals the file declares as locals or parameters (`int LIMIT = 9`), wherever. */
  private readonly capitalLocals = new Set<string>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly f: Fields,
    private readonly clean: boolean,
  ) {}

  /**
   * Text of an identifier. In a tree without errors every identifier is a whole token, so its ASCII
   * text is the run of identifier characters at its start, read without asking WASM for its end; a
   * name running into a non-ASCII character, or any name in a tree with errors (which may hold
   * zero-width MISSING nodes), is sliced by its range.
   */
  private ident(n: Node): string {
    if (this.clean) {
      const src = this.b.source;
      const start = n.startIndex;
      const end = asciiIdentifierEnd(src, start, true);
      if (end > start) return src.slice(start, end);
    }
    return this.b.text(n);
  }

  handle(m: QueryMatch): void {
    const p = m.patternIndex;
    switch (p) {
      case P.Comment: {
        const node = m.captures[0]!.node;
        if (this.b.source.startsWith("/**", node.startIndex)) this.b.comment(commentSpan(this.b.source, node));
        return;
      }
      case P.Package:
        return this.packageDeclaration(m.captures[0]!.node);
      case P.Import:
        return this.importDeclaration(m.captures[0]!.node);
      case P.Class:
      case P.Record:
      case P.Interface:
      case P.AnnotationType:
      case P.Enum:
        return this.typeDeclaration(p, capture(m, "def"), capture(m, "name"), capture(m, "body"));
      case P.EnumConstant:
      case P.Method:
      case P.AnnotationElement:
      case P.Constructor:
      case P.CompactConstructor:
        return this.callable(p, capture(m, "def"), capture(m, "name"), optionalCapture(m, "body"));
      case P.Field:
      case P.Constant:
        return this.field(p, m.captures[0]!.node);
      case P.Call:
      case P.CallOn: {
        const callee = capture(m, "callee");
        const recv = p === P.CallOn ? capture(m, "recv") : null;
        const receiver = recv ? this.receiver(recv, callee) : null;
        const args = capture(m, "args");
        const name = this.ident(callee);
        this.b.ref("calls", callee, name, receiver, this.argCount(args));
        if (receiver && receiver !== "?" && ELEMENT_LAMBDAS.has(name)) this.elementLambda(receiver, args);
        else if (receiver !== "?") this.signatureLambdas(receiver ? `${receiver}.${name}` : name, args);
        return;
      }
      case P.New:
        return this.instantiation(capture(m, "type"), capture(m, "args"));
      case P.ConstructorCall: {
        const ctor = capture(m, "ctor");
        return this.b.ref("calls", ctor, "constructor", this.b.text(ctor), this.argCount(capture(m, "args")));
      }
      case P.MethodReference:
        return this.methodReference(m.captures[0]!.node);
      case P.Superclass:
      case P.ExtendsInterfaces:
        return this.heritage("extends", m.captures[0]!.node);
      case P.Implements:
        return this.heritage("implements", m.captures[0]!.node);
      case P.LocalVariable:
      case P.Parameter:
      case P.CatchParameter:
      case P.ForVariable:
      case P.Resource:
      case P.InstanceofBinding:
        return this.localType(p, capture(m, "name"), capture(m, "type"));
      case P.TypeParameter:
        return this.typeParameter(m.captures[0]!.node);
      case P.InterfaceMember:
      case P.AnnotationMember:
        this.interfaceMembers.add(m.captures[0]!.node.id);
        return;
      case P.AnonymousMember:
      case P.EnumConstantMember:
        this.reachesMore = true;
        this.anonymousBodies.set(capture(m, "member").id, { base: capture(m, "base"), body: capture(m, "anonymous") });
        return;
      case P.RecordComponent: {
        const node = m.captures[0]!.node;
        this.components.push({ start: node.startIndex, end: node.endIndex });
        return;
      }
      case P.TypeUse:
        this.typeUses.push(m.captures[0]!.node);
        return;
      case P.CaseLabel:
        return this.caseLabel(capture(m, "subject"), capture(m, "case"));
    }
  }

  /**
   * Modifier keywords of a declaration (a small walk over its `modifiers` node), and where its head
   * starts. Modifiers of keywords only (no annotation, no comment) in a tree without errors are read
   * from their text. Each annotation is a `references` ref placed at `name`: the declaration's span
   * starts after its annotations, so placed where written it would belong to the enclosing one.
   */
  private modifiersOf(def: Node, name: Node | null): Modifiers {
    let visibility: Visibility = null;
    let isStatic = false;
    let start: Node = def;
    const mods = def.namedChild(0);
    if (mods?.type === "modifiers") {
      if (this.clean) {
        const text = this.b.text(mods);
        if (!text.includes("@") && !text.includes("/")) {
          for (const word of text.split(/\s+/)) {
            if (word === "public" || word === "private" || word === "protected") visibility = word;
            else if (word === "static") isStatic = true;
          }
          // The first keyword starts where the modifiers do.
          return { visibility, isStatic, start: mods };
        }
      }
      let sawKeyword = false;
      for (const m of mods.children) {
        if (!m) continue;
        const t = m.type;
        if (ANNOTATIONS.has(t)) {
          if (name) this.annotationRef(m, name);
          continue;
        }
        if (COMMENTS.has(t)) continue;
        if (!sawKeyword) {
          start = m;
          sawKeyword = true;
        }
        if (t === "public" || t === "private" || t === "protected") visibility = t;
        else if (t === "static") isStatic = true;
      }
      if (!sawKeyword) {
        // Only annotations: the head starts at the next token after them.
        const next = nextNonComment(def, mods);
        if (next) start = next;
      }
    }
    return { visibility, isStatic, start };
  }

  /** `@Entity`, `@a.b.Audited(..)` on a declaration: a use of the annotation type. */
  private annotationRef(annotation: Node, at: Node): void {
    const written = annotation.childForFieldId(this.f.name);
    const dotted = written ? this.dotted(written) : null;
    if (!dotted || LANGUAGE_ANNOTATIONS.has(dotted)) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("references", at, name, receiver);
  }

  /**
   * `T extends Spliterator<X>`: T's bound, which stands for T where a variable is typed by it. A name
   * bound differently by two declarations in the file has none.
   */
  private typeParameter(name: Node): void {
    const text = this.b.text(name);
    const bound = name.parent?.namedChildren.find((c) => c?.type === "type_bound")?.namedChild(0);
    const boundName = bound ? this.typeName(bound) : null;
    const known = this.typeParams.has(text);
    this.typeParams.add(text);
    if (boundName && !known) this.bounds.set(text, boundName);
    else if (known && this.bounds.get(text) !== boundName) this.bounds.delete(text);
  }

  /**
   * Hand the collected variable types to the builder, minus those typed by a type parameter: a
   * bounded one is typed by its bound (`T_SPLITR s` as a `Spliterator`).
   */
  flushTypes(): void {
    for (const t of this.pendingTypes) {
      const dot = t.typeName.indexOf(".");
      const head = dot < 0 ? t.typeName : t.typeName.slice(0, dot);
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
      else if (dot < 0 && this.bounds.has(head)) this.b.localType(t.at, t.name, this.bounds.get(head)!);
    }
  }

  /** Hand each written type's uses to the builder as `references` refs, in match order. */
  flushTypeUses(): void {
    this.headers.sort((a, b) => a.start - b.start);
    for (const t of this.typeUses) {
      if (this.receiverTypes.has(t.startIndex)) continue;
      const plain = this.clean ? this.plainType(t) : undefined;
      if (plain === undefined) this.typeRefs(t, 0);
      else if (plain !== null) this.typeUse(t, plain);
    }
  }

  /**
   * A type written as one ASCII word (`Order o`, `(Order) o`, `throws Order,`), read from the source
   * in a tree without errors, which spares a call into WASM for the node's type (most written types
   * are such words): the word, or null for a primitive. Undefined when more follows the word
   * (`Order<T>`, `a.Order`, `Order[]`, `Order...`, a comment) or none starts it (`@A Order`), which
   * `typeRefs` then reads from the tree.
   */
  private plainType(t: Node): string | null | undefined {
    const src = this.b.source;
    const start = t.startIndex;
    const end = asciiIdentifierEnd(src, start, true);
    if (end <= start) return undefined;
    let i = end;
    while (isBlank(src.charCodeAt(i))) i++;
    const next = src.charCodeAt(i);
    // `<`, `.`, `[`, `/`, `@`
    if (next === 60 || next === 46 || next === 91 || next === 47 || next === 64) return undefined;
    const word = src.slice(start, end);
    return PRIMITIVES.has(word) ? null : word;
  }

  /** A use of the type named `name`, unless that is `var`, a type parameter or the type being declared. */
  private typeUse(at: Node, name: string): void {
    if (name !== "var" && !this.typeParams.has(name) && !this.inOwnHeader(name, at.startIndex))
      this.b.ref("references", at, name, null);
  }

  /**
   * Each type a written type uses (`Order`, `List<? extends Order>`, `Order[]`, `a.b.Order`,
   * `Map.Entry<K, Order>`) as a `references` ref: what `impact` and `callers --all-uses` follow to a
   * parameter's, return type's, field's, variable's, cast's or catch's type. Primitives are not
   * `type_identifier`s; `var` is no type, and a type parameter (`T`) no project type.
   */
  private typeRefs(t: Node, depth: number): void {
    if (depth > 8) return;
    switch (t.type) {
      // `identifier`: a record pattern's head (`o instanceof Point(int x, int y)`) is a plain name.
      case "type_identifier":
      case "identifier":
        return this.typeUse(t, this.ident(t));
      case "scoped_type_identifier":
      case "scoped_identifier": {
        const dotted = this.typeName(t);
        if (dotted) {
          const { receiver, name } = splitLast(dotted);
          this.b.ref("references", t, name, receiver);
        }
        // `Outer<Order>.Inner`: the arguments of a generic type on the left.
        let left = t.namedChild(0);
        while (left?.type === "scoped_type_identifier") left = left.namedChild(0);
        if (left?.type === "generic_type") this.typeArguments(left, depth);
        return;
      }
      case "generic_type": {
        const head = t.namedChild(0);
        if (head) this.typeRefs(head, depth + 1);
        this.typeArguments(t, depth);
        return;
      }
      case "array_type": {
        const element = t.childForFieldId(this.f.element);
        if (element) this.typeRefs(element, depth + 1);
        return;
      }
      case "annotated_type": {
        const inner = t.lastNamedChild;
        if (inner) this.typeRefs(inner, depth + 1);
        return;
      }
      case "type_arguments":
      case "wildcard":
        for (const k of t.namedChildren) if (k) this.typeRefs(k, depth + 1);
        return;
    }
  }

  /**
   * `enum Planet implements Comparable<Planet>`, `class Node<N extends Node<N>>`: the declared type
   * itself, in its own header. Headers do not overlap (a nested type's is in its outer one's body).
   */
  private inOwnHeader(name: string, at: number): boolean {
    if (!this.declaredTypes.has(name)) return false;
    const header = lastStartingBy(this.headers, at);
    return header !== undefined && at < header.end && header.name === name;
  }

  /** The type arguments of a generic type (`List<Order>`'s `Order`), not its head. */
  private typeArguments(generic: Node, depth: number): void {
    const args = generic.lastNamedChild;
    if (args?.type === "type_arguments") this.typeRefs(args, depth + 1);
  }

  /** Options every member shares; interface members are implicitly public unless declared private. */
  private options(def: Node, mods: Modifiers, name: string): MemberOptions {
    const visibility: Visibility = mods.visibility ?? (this.interfaceMembers.has(def.id) ? "public" : null);
    return {
      name,
      docNode: def,
      visibility,
      exported: visibility === "public",
      isStatic: mods.isStatic,
      signatureEnd: undefined,
      paramCount: null,
    };
  }

  /** Classes, records, interfaces, annotation types and enums. */
  private typeDeclaration(p: number, def: Node, name: Node, body: Node): void {
    const mods = this.modifiersOf(def, name);
    const options = this.options(def, mods, this.ident(name));
    this.headers.push({ start: name.startIndex, end: body.startIndex, name: options.name });
    this.declaredTypes.add(options.name);
    const nodeKind: NodeKind =
      p === P.Enum ? "enum" : p === P.Interface || p === P.AnnotationType ? "interface" : "class";
    // Member interfaces, records, enums and annotation types are implicitly static, and so is every
    // member type of an interface.
    if (!options.isStatic && (p !== P.Class || this.interfaceMembers.has(def.id))) {
      options.isStatic = this.interfaceMembers.has(def.id) || MEMBER_BODIES.has(def.parent?.type ?? "");
    }
    options.signatureEnd = body.startIndex;
    this.b.symbol(nodeKind, spanOf(mods.start, def), name, options);
    if (p === P.Record) this.recordComponents(def);
  }

  /** Enum constants, methods, annotation elements and constructors. */
  private callable(p: number, def: Node, name: Node, body: Node | null): void {
    const b = this.b;
    const mods = this.modifiersOf(def, name);
    const options = this.options(def, mods, this.ident(name));
    const node = spanOf(mods.start, def);
    switch (p) {
      case P.EnumConstant:
        // Enum constants are implicitly public static final.
        options.visibility = "public";
        options.exported = true;
        options.isStatic = true;
        options.signatureEnd = (body ?? def.childForFieldId(this.f.body))?.startIndex;
        b.symbol("enum_member", node, name, options);
        return;
      case P.Method:
      case P.AnnotationElement: {
        const methodBody = body ?? def.childForFieldId(this.f.body);
        let end: number;
        if (methodBody) end = methodBody.startIndex;
        else {
          end = def.endIndex;
          if (b.source.endsWith(";", end)) end--;
        }
        options.signatureEnd = end;
        options.paramCount = p === P.AnnotationElement ? 0 : this.paramCount(def.childForFieldId(this.f.parameters));
        b.symbol("method", node, name, options);
        const anonymous = this.anonymousBodies.get(def.id);
        if (anonymous) this.anonymousMethod(name, options, anonymous);
        // Its return type, for chains through it (`var c = this.newConn(); c.serve()`).
        const returns = p === P.Method ? def.childForFieldId(this.f.type) : null;
        const typeName = returns ? this.typeName(returns) : null;
        if (typeName) this.addType(name, "()", typeName);
        this.addElementType(name, "()", returns);
        return;
      }
      case P.Constructor:
        options.signatureEnd = body?.startIndex;
        options.paramCount = this.paramCount(def.childForFieldId(this.f.parameters));
        b.symbol("constructor", node, name, options);
        return;
      case P.CompactConstructor: {
        // `record R(int x) { R { ... } }`: the canonical constructor, taking every component.
        const record = def.parent?.parent;
        const params = record?.type === "record_declaration" ? record.childForFieldId(this.f.parameters) : null;
        options.signatureEnd = body?.startIndex;
        options.paramCount = this.paramCount(params);
        b.symbol("constructor", node, name, options);
        return;
      }
    }
  }

  /**
   * A method of an anonymous class overrides the method of its name in the type after `new` (an enum
   * constant's body: in the enum), unless private or static (as a class's, see `mayOverride` in
   * records.ts). The class is no symbol, so no heritage ref of it can name that type: the `overrides`
   * ref names it as its receiver, which the resolver looks up from where the class is written. The
   * method is marked as the body's (ANONYMOUS_BODY), for the calls made in the body.
   */
  private anonymousMethod(name: Node, options: MemberOptions, anonymous: AnonymousBody): void {
    const dotted = this.typeName(anonymous.base);
    this.b.localType(name, ANONYMOUS_BODY, anonymousBody(anonymous.body.startIndex, dotted ? [dotted] : []));
    if (dotted && options.visibility !== "private" && !options.isStatic)
      this.b.ref("overrides", name, options.name, dotted);
  }

  /** Formal parameter count; null for varargs. The receiver parameter `Foo this` does not count. */
  private paramCount(params: Node | null): number | null {
    if (!params) return null;
    if (this.clean) {
      // Without varargs, a receiver parameter or comments, every named child is a parameter.
      const text = this.b.text(params);
      if (!text.includes("...") && !text.includes("this") && !text.includes("/")) return params.namedChildCount;
    }
    let n = 0;
    for (const p of params.namedChildren) {
      if (!p) continue;
      const t = p.type;
      if (t === "spread_parameter") return null;
      if (t === "receiver_parameter" || COMMENTS.has(t)) continue;
      if (t === "formal_parameter") {
        const name = p.childForFieldId(this.f.name);
        if (name && this.b.source.startsWith("this", name.startIndex) && name.type === "this") continue;
      }
      n++;
    }
    return n;
  }

  /** Arguments in a list, not counting comments: only a list with a `/` inside needs a closer look. */
  private argCount(args: Node): number {
    const count = args.namedChildCount;
    if (count === 0) return 0;
    const src = this.b.source;
    const end = args.endIndex;
    for (let i = src.indexOf("/", args.startIndex); i >= 0 && i < end; i = src.indexOf("/", i + 1)) {
      const next = src.charCodeAt(i + 1);
      if (next === 47 || next === 42) return namedKids(args).length;
    }
    return count;
  }

  /** One property per declarator: `int a = 1, b;` gives `a` and `b`, with non-overlapping spans. */
  private field(p: number, def: Node): void {
    // An anonymous class's field is no field of the named type around it, whose `this.x` its type would be.
    const typed = !this.anonymousBodies.has(def.id);
    const declarators = def.childrenForFieldId(this.f.declarator);
    const mods = this.modifiersOf(def, declarators[0]?.childForFieldId(this.f.name) ?? null);
    const common = this.options(def, mods, "");
    const type = def.childForFieldId(this.f.type);
    const typeName = type ? this.typeName(type) : null;
    // Interface fields are constants: implicitly public static final.
    const isStatic = common.isStatic || p === P.Constant || this.interfaceMembers.has(def.id);
    // A plain loop: `filter` and `forEach` here made V8 discard this method's optimised code (wrong map).
    for (let i = 0; i < declarators.length; i++) {
      const d = declarators[i];
      const name = d?.childForFieldId(this.f.name);
      if (!d || !name) continue;
      const node = i === 0 ? spanOf(mods.start, declarators.length === 1 ? def : d) : d;
      const nameText = this.ident(name);
      this.b.symbol("property", node, name, {
        name: nameText,
        docNode: common.docNode,
        visibility: common.visibility,
        exported: common.exported,
        isStatic,
        signatureEnd: d.endIndex,
        paramCount: null,
      });
      // Array declarators (`Foo xs[]`) hold arrays, not a Foo.
      if (!typed || d.childForFieldId(this.f.dimensions)) continue;
      if (typeName) this.addType(d, `this.${nameText}`, typeName);
      this.addElementType(d, `this.${nameText}`, type);
    }
  }

  /** `record R(Repo repo)`: each component is a private final field of the record. */
  private recordComponents(record: Node): void {
    const params = record.childForFieldId(this.f.parameters);
    if (!params) return;
    for (const p of namedKids(params)) {
      const name =
        p.childForFieldId(this.f.name) ??
        (p.type === "spread_parameter" ? p.lastNamedChild?.childForFieldId(this.f.name) : null);
      if (!name) continue;
      // The record's own doc comment sits above the header these components are written on.
      this.b.symbol("property", p, name, { visibility: "private", docNode: NO_DOC });
      const type = p.childForFieldId(this.f.type);
      const typeName = type && p.type === "formal_parameter" ? this.typeName(type) : null;
      if (typeName) this.addType(p, `this.${this.b.text(name)}`, typeName);
    }
  }

  /** `new Foo()`, `new a.b.Foo<>()`, `new Foo() { ... }`, `outer.new Inner()`. */
  private instantiation(type: Node, args: Node): void {
    const dotted = this.typeName(type);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("instantiates", type, name, receiver, this.argCount(args));
    this.typeArgumentUses(type);
  }

  /** `new Box<Order>()`, `extends Base<Order>`: the class is instantiated or extended, its arguments used. */
  private typeArgumentUses(type: Node): void {
    if (type.type !== "generic_type") return;
    const args = type.lastNamedChild;
    if (args?.type === "type_arguments") this.typeUses.push(args);
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
    this.b.ref("references", last, this.b.text(last), this.receiver(target, null));
  }

  private heritage(kind: "extends" | "implements", node: Node): void {
    this.reachesMore = true;
    const dotted = this.typeName(node);
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref(kind, node, name, receiver);
    this.typeArgumentUses(node);
  }

  private localType(p: number, name: Node, type: Node): void {
    const nameText = this.ident(name);
    if (isConstantName(nameText)) this.capitalLocals.add(nameText);
    if (nameText === "this") {
      this.receiverTypes.add(type.startIndex);
      return;
    }
    // Record components are fields (`this.x`, recorded with the record), not locals.
    if (p === P.Parameter && this.inComponent(name.startIndex)) return;
    if (p === P.Parameter) this.lambdaParameters(name.parent!, type);
    let typeName = this.typeName(type);
    this.addElementType(name, nameText, type);
    if (typeName === "var" && p === P.ForVariable) {
      // `for (var o : orders)`: in the body, o is an element of orders.
      const loop = name.parent;
      const of = loop?.childForFieldId(this.f.value);
      const body = loop?.childForFieldId(this.f.body);
      const chain = of ? this.receiver(of, null) : "?";
      if (chain !== "?" && body) this.b.bindElement(nameText, body.startIndex, body.endIndex, chain);
      return;
    }
    if (typeName === "var") {
      // `var x = new Foo()`: the type is whatever is constructed; `var x = make()`, what the call returns.
      const value = name.parent?.childForFieldId(this.f.value);
      if (value?.type === "object_creation_expression" || value?.type === "cast_expression") {
        // `var r = (Repo) x` is a Repo too.
        const created = value.childForFieldId(this.f.type);
        typeName = created ? this.typeName(created) : null;
      } else
        typeName =
          value?.type === "method_invocation"
            ? this.callChain(value, 0)
            : value?.type === "array_access"
              ? this.elementOf(value)
              : value?.type === "field_access" && DOTTED_NAME.test(this.b.text(value))
                ? this.b.text(value) // `var repo = this.repo`: of the field's type
                : null;
    }
    if (typeName) this.addType(name, nameText, typeName);
  }

  /**
   * A call as a chain the resolver can follow to a type: `make()`, `this.open()`, `Conn.open()`,
   * `a.b.get()`, `this.repo.find()`, `repo().find()`. Null for anything else in the chain (a literal,
   * a cast, an array element).
   */
  private callChain(call: Node, depth: number): string | null {
    const name = call.childForFieldId(this.f.name);
    if (!name || depth > 4) return null;
    const object = call.childForFieldId(this.f.object);
    const method = `${this.ident(name)}()`;
    if (!object) return method;
    if (object.type === "method_invocation") {
      const left = this.callChain(object, depth + 1);
      return left ? `${left}.${method}` : null;
    }
    const cast = this.cast(object);
    if (cast) return `${cast}.${method}`;
    const text = this.b.text(object);
    return DOTTED_NAME.test(text) ? `${text}.${method}` : null;
  }

  private inComponent(at: number): boolean {
    for (const c of this.components) if (c.start <= at && at < c.end) return true;
    return false;
  }

  private addType(at: Node, name: string, typeName: string): void {
    this.pendingTypes.push({ at, name, typeName });
  }

  /**
   * The elements' type of a written collection or array type, as the type of `name[0]`
   * (`List<Order> orders`, `Order[] orders`: `orders[0]` is an Order, see ELEMENT); a map's values'
   * (`Map<String, Order> byId`: `byId.get(k)` is an Order).
   */
  private addElementType(at: Node, name: string, type: Node | null): void {
    if (!type) return;
    let element: string | null = null;
    if (type.type === "array_type") {
      const inner = type.childForFieldId(this.f.element);
      element = inner ? this.typeName(inner) : null;
    } else if (type.type === "generic_type") {
      const head = type.namedChild(0);
      const args = type.namedChild(1)?.namedChildren;
      const collection = head ? this.b.text(head) : "";
      if (args?.length === 1 && COLLECTIONS.has(collection)) element = this.typeName(args[0]!);
      else if (args?.length === 2 && MAPS.has(collection)) element = this.typeName(args[1]!);
    }
    if (element) this.addType(at, `${name}${ELEMENT}`, element);
  }

  /** `orders.forEach(o -> o.ship())`, `orders.stream().map(o -> ...)`: in the lambda, o is an element of the receiver. */
  private elementLambda(receiver: string, args: Node): void {
    const lambda = args.namedChild(0);
    if (lambda?.type !== "lambda_expression") return;
    const names = this.lambdaParameterNames(lambda);
    const name = names.length === 1 ? names[0] : null;
    if (name?.type === "identifier") this.b.bindElement(this.ident(name), lambda.startIndex, lambda.endIndex, receiver);
  }

  /** An untyped lambda's parameters in order (`o -> ..`, `(a, b) -> ..`); none for typed ones, typed already. */
  private lambdaParameterNames(lambda: Node): Node[] {
    const params = lambda.childForFieldId(this.f.parameters);
    if (params?.type === "identifier") return [params];
    return params?.type === "inferred_parameters" ? namedKids(params) : [];
  }

  /**
   * `void each(Consumer<Order> f)`: what a lambda given as argument i gets as its parameter j, recorded
   * as `()#i:j` in the method's scope (a position of the call, as TUPLE's are), for
   * `each(o -> o.save())` (see `signatureLambdas`). Library function types only (JAVA_FUNCTIONAL_TYPES).
   */
  private lambdaParameters(param: Node, type: Node): void {
    if (type.type !== "generic_type" || param.parent?.type !== "formal_parameters") return;
    const head = type.namedChild(0);
    const positions = head ? JAVA_FUNCTIONAL_TYPES.get(splitLast(this.b.text(head)).name) : undefined;
    const typeArgs = type.namedChild(1);
    if (!positions || typeArgs?.type !== "type_arguments") return;
    const args = namedKids(typeArgs);
    const i = namedKids(param.parent).findIndex((c) => c.id === param.id);
    positions.forEach((k, j) => {
      let arg = args[k];
      // `Consumer<? super Order>`: the bound.
      if (arg?.type === "wildcard") arg = arg.lastNamedChild ?? undefined;
      const typeName = arg ? this.typeName(arg) : null;
      if (typeName) this.addType(param, `()${callbackPosition(i, j)}`, typeName);
    });
  }

  /**
   * `each(o -> o.save())`, `store.with("a", (id, o) -> ..)`: a lambda's parameters stand for what the
   * callee's signature says they get (see `lambdaParameters`), positions `i:0`, `i:1` of the call.
   */
  private signatureLambdas(callee: string, args: Node): void {
    if (!this.b.source.slice(args.startIndex, args.endIndex).includes("->")) return;
    namedKids(args).forEach((lambda, i) => {
      if (lambda.type !== "lambda_expression") return;
      this.lambdaParameterNames(lambda).forEach((name, j) => {
        if (name.type === "identifier")
          this.b.bindValue(
            this.ident(name),
            lambda.startIndex,
            lambda.endIndex,
            `${callee}()${callbackPosition(i, j)}`,
          );
      });
    });
  }

  /**
   * The dotted name of a class type with generics stripped: `Foo`, `a.b.Foo`, `Map<K, V>` → `Map`,
   * `Outer<T>.Inner` → `Outer.Inner`. Null for primitives, arrays and wildcards.
   */
  private typeName(type: Node): string | null {
    if (this.clean) {
      const simple = this.simpleType(type);
      if (simple !== undefined) return simple;
    }
    switch (type.type) {
      case "type_identifier":
      case "identifier":
        return this.ident(type);
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

  /**
   * A type written as one ASCII word followed by a name (`Foo x`, `int i`), read from the source: the
   * word, or null for a primitive. Undefined when the type is not written that way (`Foo<T>`, `a.Foo`,
   * `Foo[]`, `@A Foo`, `new Foo()`, a comment after it), which `typeName` then reads from the tree.
   */
  private simpleType(type: Node): string | null | undefined {
    const src = this.b.source;
    const start = type.startIndex;
    const i = asciiIdentifierEnd(src, start, true);
    if (i <= start) return undefined;
    let j = i;
    for (;;) {
      const c = src.charCodeAt(j);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) j++;
      else break;
    }
    if (j === i) return undefined;
    const d = src.charCodeAt(j);
    if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || d === 95 || d === 36)) return undefined;
    const word = src.slice(start, i);
    if (PRIMITIVES.has(word)) return null;
    if (RESERVED.has(word)) return undefined;
    return word;
  }

  /**
   * Receiver text: `x`, `this`, `super`, `a.b`, `this.repo`, `new Foo()`; `Outer.this` is `Outer`;
   * anything computed is `?`. A receiver written plainly up to the `.` before `callee` (no spaces,
   * comments or keywords past a leading `this`/`super`) in a tree without errors is read from the
   * source text.
   */
  private receiver(node: Node, callee: Node | null): string {
    let dotted: string | null | undefined;
    if (this.clean && callee) {
      const m = PLAIN_RECEIVER.exec(this.b.source.slice(node.startIndex, callee.startIndex));
      if (m) {
        const parts = m[1]!.split(".");
        const head = parts[0]!;
        if (head === "this" || head === "super" || !RESERVED.has(head)) {
          let plain = true;
          for (let i = 1; i < parts.length; i++) if (RESERVED.has(parts[i]!)) plain = false;
          if (plain) dotted = m[1]!;
        }
      }
    }
    if (dotted === undefined)
      dotted =
        node.type === "object_creation_expression"
          ? this.created(node)
          : node.type === "method_invocation"
            ? this.callChain(node, 0)
            : node.type === "array_access"
              ? this.elementOf(node)
              : (this.cast(node) ?? this.dotted(node));
    if (!dotted) return "?";
    const m = /^(.+)\.(this|super)$/.exec(dotted);
    return m ? m[1]! : dotted;
  }

  /**
   * `case HIGH:` in `switch (level)`: a bare name in a case label names a constant of the subject's
   * type when that is an enum (`Level.HIGH`), so it is read through the subject, as `level.HIGH`
   * would be; a switch on a number or string reads it bare (`constantReads`), and the resolver finds
   * no member of such a type. Not `switch (this)`, inside the enum itself, where the bare read finds
   * the same constant.
   */
  private caseLabel(subject: Node, label: Node): void {
    const through = this.receiver(subject, null);
    if (through !== "?" && through !== "this")
      this.b.ref("references", label, this.ident(label), `${READ_VALUE}${through}`);
  }

  /** `orders[i]` as a receiver: an element of orders (see ELEMENT). */
  private elementOf(access: Node): string | null {
    const array = access.childForFieldId(this.f.array);
    const of = array ? this.receiver(array, null) : "?";
    return of === "?" ? null : `${of}${ELEMENT}`;
  }

  /**
   * `((TreeNode<K,V>) p)` as a receiver: a value of the type it is cast to, written as one made
   * (`new TreeNode()`, see `created`); null for anything but a cast to a class name.
   */
  private cast(node: Node): string | null {
    while (node.type === "parenthesized_expression") {
      const inner = node.namedChild(0);
      if (!inner) return null;
      node = inner;
    }
    if (node.type !== "cast_expression") return null;
    const type = node.childForFieldId(this.f.type);
    const name = type ? this.dotted(type) : null;
    return name ? valueOfType(name) : null;
  }

  /** `new Foo(x)` (also `new Foo<T>()`, `new a.Foo()`) as a receiver, `new Foo()`; null for an anonymous class. */
  private created(node: Node): string | null {
    if (node.namedChildren.some((c) => c?.type === "class_body")) return null;
    const type = node.childForFieldName("type");
    const name = type ? this.dotted(type) : null;
    return name ? valueOfType(name) : null;
  }

  /**
   * `dottedName` of `ts-helpers` for the node types of this grammar, with field ids: `Foo`, `a.b.Foo`,
   * `Foo<T>` → `Foo`, `this.repo`; null for anything computed.
   */
  private dotted(node: Node, depth = 0): string | null {
    if (depth > 8) return null;
    const t = node.type;
    switch (t) {
      case "identifier":
      case "type_identifier":
      case "this":
      case "super":
        return this.b.text(node);
      case "scoped_identifier":
      case "scoped_type_identifier":
      case "field_access": {
        const f = this.f;
        const left =
          node.childForFieldId(f.object) ??
          node.childForFieldId(f.module) ??
          node.childForFieldId(f.operand) ??
          node.childForFieldId(f.package) ??
          node.childForFieldId(f.scope) ??
          node.namedChild(0);
        const right =
          node.childForFieldId(f.name) ?? node.childForFieldId(f.field) ?? node.namedChild(node.namedChildCount - 1);
        if (!left || !right || left.equals(right)) return null;
        const l = this.dotted(left, depth + 1);
        return l ? `${l}.${this.b.text(right)}` : null;
      }
      case "generic_type": {
        const inner = node.childForFieldId(this.f.name) ?? node.namedChild(0);
        return inner ? this.dotted(inner, depth + 1) : null;
      }
      case "parenthesized_expression": {
        const inner = node.namedChild(0);
        return inner ? this.dotted(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** A package or import path: read from the source when written plainly, else `dotted`. */
  private path(node: Node): string | null {
    if (this.clean) {
      const text = this.b.text(node);
      if (PLAIN_PATH.test(text) && !text.split(".").some((s) => RESERVED.has(s))) return text;
    }
    return this.dotted(node);
  }

  private importDeclaration(decl: Node): void {
    let path: Node | null = null;
    let wildcard = false;
    for (const k of namedKids(decl)) {
      if (k.type === "asterisk") wildcard = true;
      else if (k.type === "scoped_identifier" || k.type === "identifier") path = k;
    }
    if (!path) return;
    const dotted = this.path(path);
    if (!dotted) return;
    const line = decl.startPosition.row + 1;
    let local: string;
    let specifier: string;
    if (wildcard) {
      if (/^import\s+static\b/.test(this.b.text(decl))) this.reachesMore = true;
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

  /**
   * Whether a bare constant the file neither declares nor imports by name may be read all the same:
   * a supertype's (`GregorianCalendar` reads `Calendar`'s `MONTH`, `ZipFile` the `ZipConstants` it
   * implements) or a static import's, which the resolver looks for as it would a call's name. Not
   * where the file has a local or parameter of the name anywhere, which would be read instead.
   */
  readsBare(name: string): boolean {
    return this.reachesMore && !this.capitalLocals.has(name);
  }

  private packageDeclaration(decl: Node): void {
    const path = namedKids(decl).find((k) => k.type === "scoped_identifier" || k.type === "identifier");
    if (path) this.packageName = this.path(path);
  }
}

/** What a bare constant read may name in Java: a field (`static final`) or an enum's constant of the file's types. */
const FIELD_KINDS: ReadonlySet<NodeKind> = new Set(["property", "enum_member"]);

export const javaExtractor: LanguageExtractor = {
  id: "java",
  grammar: "tree-sitter-java.wasm",
  prepare(language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    const fields: Fields = fieldIds(language, "tree-sitter-java", FIELD_NAMES);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new JavaFile(b, fields, !root.hasError);
      for (const m of query.matches(root)) file.handle(m);
      file.flushTypes();
      file.flushTypeUses();
      constantReads(b, root, {
        nameType: "identifier",
        declaredKinds: FIELD_KINDS,
        separator: ".",
        declaredIn: "enum_constant",
        undeclared: (name) => file.readsBare(name),
      });
      return b.finish(file.packageName, countSyntaxErrors(root));
    };
  },
};
