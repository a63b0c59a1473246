import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { NAMED_VALUE, OWN_INSTANCE, type ExtractResult } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import { HASH_COMMENTS } from "../source-text.js";
import type { LanguageExtractor } from "../language.js";

/** Class-level calls that name instance methods by symbol to run around others (Rails' callbacks and validations). */
const CALLBACK_DECLARATIONS =
  /^(?:(?:prepend_|append_|skip_)?(?:before|after|around)_\w+|validate|validates|validates_with|helper_method|rescue_from)$/;
/** The options of such a call that name a method too (`if: :signed_in?`, `with: :handle_error`). */
const CALLBACK_KEYS = new Set(["if", "unless", "with"]);
/** Calls whose first symbol names a method of the receiver: with none written, of self. */
const SENDS = new Set(["send", "public_send", "__send__", "method", "instance_method"]);
/** A method's name as a symbol may write it (`:save`, `:valid?`, `:name=`). */
const METHOD_NAME = /^[A-Za-z_]\w*[?!=]?$/;

/**
 * Ruby. One flat query; matches are read twice. The first read collects the containers (modules,
 * classes, `class << self`, methods) with their ranges, the names each method binds as locals, and
 * the visibility markers of class bodies; the second emits symbols and references.
 *
 * Ruby has no declarations of locals, and tree-sitter-ruby parses a bare `foo` as an identifier
 * whether it is a local or a call of `self.foo`. An identifier that is not in a binding position is a
 * call when no parameter, assignment, block parameter or rescue variable of its method (anywhere in
 * it, blocks included: a name bound anywhere is taken for a local everywhere) binds that name. The
 * resolver still links it only to a method it finds on the enclosing class or its mixins.
 *
 * Conventions the resolver (`resolve/ruby.ts`) reads:
 * - qualified names join constant paths with dots (`ActiveRecord.Base.save`); `class A::B` nested in
 *   `module M` is `M.A.B`, as Ruby's lexical nesting has it;
 * - singleton methods (`def self.x`, methods of `class << self`) are methods marked with the local
 *   type `SINGLETON` (`isStatic` too, which the resolver cannot see);
 * - `include M` / `prepend M` are `implements` references from the class, `extend M` the same with
 *   `argCount` 1 (M's methods become the class's own singleton methods); `extend self` names `self`;
 * - `Foo.new(...)` is a call of `new` on `Foo`; `super` a call of the enclosing method's name on
 *   `super`; receivers are `self`, constant paths (`Foo.Bar`), locals, `@ivars` and `Foo.new()`.
 */
const QUERY = `
(comment) @comment
(module name: (_) @name) @def
(class name: (_) @name) @def
(singleton_class value: (_) @value) @def
(method name: (_) @name) @def
(singleton_method object: (_) @object name: (_) @name) @def
(call) @call
(super) @super
(identifier) @id
(assignment left: (_) @left right: (_) @right) @assign
(operator_assignment left: (_) @left right: (_) @right) @assign
(method_parameters) @params
(block_parameters) @params
(lambda_parameters) @params
(left_assignment_list) @lhs
(for pattern: (_) @lhs)
(exception_variable (identifier) @bind)
(alias) @skip
(undef) @skip
(class superclass: (superclass (_) @base))
(scope_resolution) @path
(constant) @const
(ERROR) @error
(case value: (identifier) @name (when pattern: (pattern (_) @type) body: (then) @body) @test)
`;

const P = {
  comment: 0,
  module: 1,
  class: 2,
  sclass: 3,
  method: 4,
  smethod: 5,
  call: 6,
  super: 7,
  id: 8,
  assign: 9,
  opAssign: 10,
  params: 11,
  blockParams: 12,
  lambdaParams: 13,
  lhs: 14,
  forPattern: 15,
  rescueVar: 16,
  alias: 17,
  undef: 18,
  superclass: 19,
  path: 20,
  constant: 21,
  error: 22,
  // `when Foo`: x is a Foo in that branch (`if x.is_a?(Foo)` is read from its call).
  narrowWhen: 23,
} as const;

/** The local type that marks a singleton method (`def self.x`, a method of `class << self`). */
export const SINGLETON = "(singleton)";

const VISIBILITY = new Set(["private", "protected", "public"]);
/** Methods that test a value's class: a branch they guard knows it. */
const TYPE_TESTS = new Set(["is_a?", "kind_of?", "instance_of?"]);
/** Calls that raise: the last statement of a guard clause, which leaves its body. */
const RAISES = new Set(["raise", "fail"]);
const ATTRS = new Set(["attr_accessor", "attr_reader", "attr_writer", "attr"]);
const MIXINS = new Set(["include", "extend", "prepend"]);
const REQUIRES = new Set(["require", "require_relative", "load", "autoload"]);
/** Bare words that are keywords or Kernel methods, never methods of the project's classes. */
const NOT_CALLS = new Set([
  "private",
  "protected",
  "public",
  "module_function",
  "private_constant",
  "binding",
  "block_given?",
  "__method__",
  "__dir__",
  "it",
  "_1",
  "_2",
  // Keywords, read as identifiers where the grammar recovers from an error.
  "end",
  "def",
  "class",
  "module",
  "do",
  "then",
  "else",
  "elsif",
  "when",
  "begin",
  "rescue",
  "ensure",
]);

interface Container {
  node: Node;
  start: number;
  end: number;
  kind: "module" | "class" | "sclass" | "method" | "smethod";
  parent: number;
  /** Qualified name of a module or class (dotted). */
  qname: string;
  /** Methods: names bound as locals in it. */
  locals: Set<string> | undefined;
  /** Class and module bodies: visibility markers by position, and `private :a, :b` names. */
  marks: { at: number; visibility: "private" | "protected" | "public" | "module_function" }[] | undefined;
  named: Map<string, "private" | "protected" | "public"> | undefined;
  /** Methods: whether it is a singleton method. */
  singleton: boolean;
  name: string;
}

/**
 * Every container is made here with all its fields, so they share one hidden class: fields added
 * later made V8 see several shapes, throw away its optimised code and compile it again (measured
 * on rails: `collect` compiled nine times).
 */
function container(def: Node, kind: Container["kind"]): Container {
  return {
    node: def,
    start: def.startIndex,
    end: def.endIndex,
    kind,
    parent: -1,
    qname: "",
    locals: kind === "method" || kind === "smethod" ? new Set() : undefined,
    marks: undefined,
    named: undefined,
    singleton: false,
    name: "",
  };
}

class RubyFile {
  private readonly containers: Container[] = [];
  private readonly starts: number[] = [];
  private readonly byStart = new Map<number, number>();
  /** Ranges of ERROR nodes: a bare word there may be a local whose binding the grammar lost. */
  private readonly errors: [number, number][] = [];
  /** Identifier positions that are not uses: definitions, parameters, assignment targets, call names. */
  private readonly notUses = new Set<number>();
  /** Calls (by node id) that are assignment targets (`a.b = 1`): setters, not recorded. */
  private readonly setters = new Set<number>();
  /** Constants (by node id) that are part of a bigger path, a class name, a call name: not references of their own. */
  private readonly notConstRefs = new Set<number>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly source: string,
  ) {}

  private text(n: Node): string {
    return this.source.slice(n.startIndex, n.endIndex);
  }

  run(matches: QueryMatch[]): void {
    this.collect(matches);
    for (const m of matches) this.emit(m);
  }

  /** Innermost container holding `at` whose kind passes `accept`; -1 for none. */
  private containerAt(at: number, accept: (c: Container) => boolean = () => true): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let idx = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= at) {
        idx = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (idx >= 0) {
      const c = this.containers[idx]!;
      if (c.end > at && c.start <= at && accept(c)) return idx;
      idx = c.parent;
    }
    return -1;
  }

  private isMethod = (c: Container) => c.kind === "method" || c.kind === "smethod";
  private isBody = (c: Container) => c.kind === "module" || c.kind === "class" || c.kind === "sclass";

  /** The method around `at`, or (outside methods) the module/class body; -1 for the file. */
  private localScope(at: number): number {
    return this.containerAt(at);
  }

  private collect(matches: QueryMatch[]): void {
    const raw: Container[] = [];
    for (const m of matches) {
      switch (m.patternIndex) {
        case P.module:
        case P.class: {
          raw.push(container(cap(m, "def"), m.patternIndex === P.module ? "module" : "class"));
          this.notConstRefs.add(cap(m, "name").id);
          break;
        }
        case P.sclass:
          raw.push(container(cap(m, "def"), "sclass"));
          break;
        case P.method:
        case P.smethod: {
          this.notUses.add(cap(m, "name").startIndex);
          raw.push(container(cap(m, "def"), m.patternIndex === P.method ? "method" : "smethod"));
          break;
        }
        default:
          break;
      }
    }
    raw.sort((a, b) => a.start - b.start || b.end - a.end);
    const stack: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]!;
      while (stack.length && raw[stack[stack.length - 1]!]!.end <= c.start) stack.pop();
      c.parent = stack.length ? stack[stack.length - 1]! : -1;
      stack.push(i);
      this.byStart.set(c.start, this.containers.length);
      this.containers.push(c);
      this.starts.push(c.start);
    }
    for (const c of this.containers) {
      if (c.kind === "module" || c.kind === "class") {
        const nameNode = c.node.childForFieldName("name");
        const written = nameNode ? constPath(nameNode, this.source) : null;
        const outer = this.bodyQname(c.parent);
        c.qname = written ? (outer ? `${outer}.${written}` : written) : "";
        c.name = written ? written.slice(written.lastIndexOf(".") + 1) : "";
      }
      if (this.isMethod(c)) {
        const body = c.parent >= 0 ? this.containers[c.parent]! : null;
        const obj = c.kind === "smethod" ? c.node.childForFieldName("object") : null;
        c.singleton = (obj !== null && obj.type === "self") || body?.kind === "sclass";
        // `def obj.x` on something else than self defines a method of that object: not the class's.
        if (obj && obj.type !== "self") c.singleton = false;
      }
    }
    // Second sweep: locals, visibility markers, non-use positions.
    for (const m of matches) {
      const c = m.captures;
      switch (m.patternIndex) {
        case P.params:
        case P.blockParams:
        case P.lambdaParams:
          this.bindParams(c[0]!.node);
          break;
        case P.lhs:
        case P.forPattern:
          this.bindTargets(c[0]!.node);
          break;
        case P.rescueVar:
          this.bind(c[0]!.node);
          break;
        case P.assign:
        case P.opAssign: {
          const left = cap(m, "left");
          if (left.type === "identifier") this.bind(left);
          else if (left.type === "call") this.setters.add(left.id);
          else if (left.type === "constant") this.notConstRefs.add(left.id);
          break;
        }
        case P.superclass:
          this.notConstRefs.add(c[0]!.node.id);
          break;
        case P.alias:
        case P.undef:
          for (const n of c[0]!.node.namedChildren) if (n) this.notUses.add(n.startIndex);
          break;
        case P.call: {
          const call = c[0]!.node;
          const callee = call.childForFieldName("method");
          if (!callee) break;
          this.notUses.add(callee.startIndex);
          this.notConstRefs.add(callee.id);
          const word = this.text(callee);
          if (MIXINS.has(word)) {
            // `include A::B`: the mixin is recorded as such, not as a reference too.
            const args = call.childForFieldName("arguments");
            for (const a of args?.namedChildren ?? []) if (a) this.notConstRefs.add(a.id);
          } else if (word === "new") {
            // `Foo.new`: the call instantiates Foo; a reference besides would say it twice.
            const recv = call.childForFieldName("receiver");
            if (recv) this.notConstRefs.add(recv.id);
          } else if (VISIBILITY.has(word) && !call.childForFieldName("receiver")) {
            // `private :a, :b` after the defs.
            const holderIdx = this.containerAt(call.startIndex);
            const holder = holderIdx >= 0 ? this.containers[holderIdx]! : null;
            const args = call.childForFieldName("arguments");
            if (holder && this.isBody(holder))
              for (const a of args?.namedChildren ?? [])
                if (a?.type === "simple_symbol")
                  (holder.named ??= new Map()).set(this.text(a).slice(1), word as "private");
          }
          break;
        }
        case P.path: {
          const path = c[0]!.node;
          // Only the outermost path is a reference: its parts are not.
          for (const part of path.namedChildren) if (part) this.notConstRefs.add(part.id);
          break;
        }
        case P.error:
          this.errors.push([c[0]!.node.startIndex, c[0]!.node.endIndex]);
          break;
        case P.id: {
          const id = c[0]!.node;
          const word = this.text(id);
          if (VISIBILITY.has(word) || word === "module_function") {
            const body = this.containerAt(id.startIndex);
            const holder = body >= 0 ? this.containers[body]! : null;
            if (holder && this.isBody(holder)) {
              (holder.marks ??= []).push({ at: id.startIndex, visibility: word as "private" });
            }
          }
          break;
        }
        default:
          break;
      }
    }
  }

  private bodyQname(idx: number): string {
    let i = idx;
    while (i >= 0) {
      const c = this.containers[i]!;
      if (c.kind === "module" || c.kind === "class") return c.qname;
      i = c.parent;
    }
    return "";
  }

  private bind(id: Node): void {
    this.notUses.add(id.startIndex);
    const scope = this.localScope(id.startIndex);
    const holder = scope >= 0 ? this.containers[scope]! : null;
    const word = this.text(id);
    if (holder) (holder.locals ??= new Set()).add(word);
    else this.fileLocals.add(word);
  }

  private readonly fileLocals = new Set<string>();

  /** Every identifier bound by a parameter list (defaults are uses, not bindings). */
  private bindParams(list: Node): void {
    for (const p of list.namedChildren) {
      if (!p) continue;
      switch (p.type) {
        case "identifier":
          this.bind(p);
          break;
        case "destructured_parameter":
          this.bindParams(p);
          break;
        default: {
          const name = p.childForFieldName("name");
          if (name?.type === "identifier") this.bind(name);
        }
      }
    }
  }

  private bindTargets(n: Node): void {
    if (n.type === "identifier") {
      this.bind(n);
      return;
    }
    if (
      n.type === "left_assignment_list" ||
      n.type === "destructured_left_assignment" ||
      n.type === "rest_assignment"
    ) {
      for (const child of n.namedChildren) if (child) this.bindTargets(child);
    }
  }

  private emit(m: QueryMatch): void {
    const c = m.captures;
    switch (m.patternIndex) {
      case P.comment:
        this.b.comment(c[0]!.node);
        return;
      case P.module:
      case P.class:
        this.typeDecl(cap(m, "def"), m.patternIndex === P.module ? "module" : "class");
        return;
      case P.method:
      case P.smethod:
        this.method(cap(m, "def"));
        return;
      case P.call: {
        // The method is read here: in the pattern, `method: (_)` was half of this query's compile time.
        const callee = c[0]!.node.childForFieldName("method");
        if (!callee) return;
        this.call(c[0]!.node, callee);
        if (TYPE_TESTS.has(this.text(callee))) this.typeTest(c[0]!.node, callee);
        return;
      }
      case P.super:
        this.superCall(c[0]!.node);
        return;
      case P.id:
        this.bare(c[0]!.node);
        return;
      case P.assign:
      case P.opAssign:
        this.assign(cap(m, "assign"), cap(m, "left"), cap(m, "right"));
        return;
      case P.superclass: {
        const base = c[0]!.node;
        const path = constPath(base, this.source);
        if (path) this.b.ref("extends", base, ...splitPath(path));
        return;
      }
      case P.path:
      case P.constant:
        this.constRef(c[0]!.node);
        return;
      case P.narrowWhen: {
        const body = cap(m, "body");
        this.narrowed(cap(m, "name"), cap(m, "test"), cap(m, "type"), body.startIndex, body.endIndex);
        return;
      }
      default:
        return;
    }
  }

  /**
   * `if x.is_a?(Foo)` (`kind_of?`, `instance_of?`), `elsif x.is_a?(Foo)` and `body if x.is_a?(Foo)`:
   * the branch the test guards. Read from the call rather than by a query pattern: the pattern, with
   * its three alternatives, was 35 of the 50 ms Ruby's query took to compile, which every sync of a
   * Ruby file pays.
   */
  private typeTest(call: Node, test: Node): void {
    const name = call.childForFieldName("receiver");
    const args = call.childForFieldName("arguments");
    const guarded = call.parent;
    if (name?.type !== "identifier" || args?.namedChildCount !== 1 || !guarded) return;
    if (guarded.childForFieldName("condition")?.id !== call.id) return;
    const type = args.namedChild(0)!;
    if (guarded.type === "unless_modifier" || guarded.type === "unless") {
      // A guard clause: past it, to the end of the body holding it.
      const holder = guarded.parent;
      if (holder && this.leavesWhenTaken(guarded)) this.narrowed(name, test, type, guarded.endIndex, holder.endIndex);
      return;
    }
    const body =
      guarded.type === "if_modifier"
        ? guarded.childForFieldName("body")
        : guarded.type === "if" || guarded.type === "elsif"
          ? guarded.childForFieldName("consequence")
          : null;
    if (body && (guarded.type === "if_modifier" || body.type === "then"))
      this.narrowed(name, test, type, body.startIndex, body.endIndex);
  }

  /**
   * Whether an `unless` leaves the body it is in whenever it is taken: `return unless ..`, `raise ..
   * unless ..` (`fail`, `next`, `break`), or a block form without `else` whose last statement does.
   */
  private leavesWhenTaken(guard: Node): boolean {
    let last: Node | null;
    if (guard.type === "unless_modifier") last = guard.childForFieldName("body");
    else {
      const then = guard.childForFieldName("consequence");
      if (guard.childForFieldName("alternative") || then?.type !== "then") return false;
      last = then.namedChild(then.namedChildCount - 1);
    }
    if (!last) return false;
    if (last.type === "return" || last.type === "next" || last.type === "break") return true;
    const raising =
      last.type === "call" && !last.childForFieldName("receiver") ? last.childForFieldName("method") : last;
    return raising?.type === "identifier" && RAISES.has(this.text(raising));
  }

  /**
   * `if x.is_a?(Foo)` (and the other forms `typeTest` reads), a guard clause `return unless
   * x.is_a?(Foo)`, and `case x` / `when Foo`: between the two offsets x is a Foo (`Foo.new()`, an
   * instance). A `when` of several patterns, a pattern that is no constant, and a top-level path
   * (`::Array`) narrow nothing.
   */
  private narrowed(name: Node, test: Node, type: Node, start: number, end: number): void {
    if (test.type === "when") {
      if (test.namedChildren.filter((k) => k?.type === "pattern").length !== 1) return;
    } else if (!TYPE_TESTS.has(this.text(test))) return;
    // `::Array` is the top-level constant, which a lookup from inside a module would not find first.
    const path = this.text(type).startsWith("::") ? null : constPath(type, this.source);
    if (path) this.b.narrow(this.text(name), start, end, `${path}.new()`);
  }

  private containerOf(node: Node): Container | undefined {
    const i = this.byStart.get(node.startIndex);
    return i === undefined ? undefined : this.containers[i];
  }

  private typeDecl(def: Node, kind: "module" | "class"): void {
    const c = this.containerOf(def);
    if (!c || !c.name) return;
    const nameNode = def.childForFieldName("name");
    const outer = this.bodyQname(c.parent);
    const prefix = c.qname.length > c.name.length ? c.qname.slice(0, c.qname.length - c.name.length - 1) : "";
    const superclass = def.childForFieldName("superclass");
    this.b.symbol(kind, def, null, {
      name: c.name,
      // `class A::B` inside `module M`: qualified as M.A.B, not through its parent alone.
      owner: prefix && prefix !== outer ? prefix : undefined,
      signatureEnd: (superclass ?? nameNode ?? def).endIndex,
      exported: true,
      visibility: "public",
    });
  }

  private visibilityOf(
    method: Container,
    name: string,
    holder: Container | null,
  ): { visibility: "private" | "protected" | "public"; alsoSingleton: boolean } {
    let visibility: "private" | "protected" | "public" = "public";
    let alsoSingleton = false;
    if (holder) {
      for (const mark of holder.marks ?? []) {
        if (mark.at > method.start) break;
        if (mark.visibility === "module_function") alsoSingleton = true;
        else visibility = mark.visibility;
      }
      const named = holder.named?.get(name);
      if (named) visibility = named;
    }
    // `private def x`: the call's name sits right before the def.
    const before = this.source.slice(Math.max(0, method.start - 20), method.start);
    const m = /\b(private|protected|public)\s*\(?\s*$/.exec(before);
    if (m) visibility = m[1] as "private";
    if (method.kind === "smethod" && method.singleton) visibility = "public";
    return { visibility, alsoSingleton };
  }

  private method(def: Node): void {
    const c = this.containerOf(def);
    if (!c) return;
    const nameNode = def.childForFieldName("name");
    if (!nameNode) return;
    const name = methodName(nameNode, this.source);
    if (!name) return;
    c.name = name;
    let holderIdx = c.parent;
    if (holderIdx >= 0 && this.containers[holderIdx]!.kind === "sclass") holderIdx = this.containers[holderIdx]!.parent;
    const holder = holderIdx >= 0 ? this.containers[holderIdx]! : null;
    const inBody = holder !== null && (holder.kind === "module" || holder.kind === "class");
    if (c.kind === "smethod" && !c.singleton) return;
    const direct = c.parent >= 0 ? this.containers[c.parent]! : null;
    const { visibility, alsoSingleton } = this.visibilityOf(c, name, direct && this.isBody(direct) ? direct : null);
    let kind: NodeKind = inBody ? "method" : "function";
    if (inBody && name === "initialize" && !c.singleton) kind = "constructor";
    const body = def.childForFieldName("body");
    const params = def.childForFieldName("parameters");
    this.b.symbol(kind, def, null, {
      name,
      signatureEnd: params ? params.endIndex : nameNode.endIndex,
      exported: visibility === "public",
      visibility: inBody ? visibility : null,
      paramCount: params ? paramCount(params) : 0,
      isStatic: c.singleton === true || alsoSingleton,
    });
    if (c.singleton || alsoSingleton) this.b.localType(body ?? nameNode, SINGLETON, "self");
  }

  /** `Foo.new`, `foo(x)`, `self.foo`, `@repo.save`, `require "x"`, `include M`, `attr_reader :a`. */
  private call(call: Node, callee: Node): void {
    if (this.setters.has(call.id)) return;
    const recv = call.childForFieldName("receiver");
    const args = call.childForFieldName("arguments");
    if (callee.type === "super") return; // superCall handles it
    const name = this.text(callee);
    if (!recv && args) {
      const scope = this.localScope(call.startIndex);
      const holder = scope >= 0 ? this.containers[scope]! : null;
      const inBody = holder !== null && this.isBody(holder);
      if (REQUIRES.has(name) && this.require(call, name, args)) return;
      if (inBody && MIXINS.has(name)) {
        for (const a of args.namedChildren) {
          if (!a) continue;
          if (a.type === "self" && name === "extend") this.b.ref("implements", a, "self", null, 1);
          const path = constPath(a, this.source);
          if (!path) continue;
          this.b.ref("implements", a, ...splitPath(path), name === "extend" ? 1 : null);
        }
        return;
      }
      if (inBody && ATTRS.has(name)) {
        // `attr_writer :x` defines only the writer `x=`: a bare `x` is never it (rails' DatabaseTasks
        // writes `env` with `attr_writer` and reads it with its own `def env`).
        const suffix = name === "attr_writer" ? "=" : "";
        for (const a of args.namedChildren) {
          if (a?.type !== "simple_symbol") continue;
          this.b.symbol("property", a, null, {
            name: this.text(a).slice(1) + suffix,
            signatureEnd: call.endIndex,
            exported: true,
            docNode: call,
            visibility: "public",
          });
        }
        return;
      }
      if (inBody && CALLBACK_DECLARATIONS.test(name)) this.callbackValues(args);
      else if (SENDS.has(name)) this.sentValue(args);
      if (inBody && (VISIBILITY.has(name) || name === "module_function" || name === "private_class_method")) {
        // Visibility by name was read in the first pass; `private def x` is read with the def.
        return;
      }
    }
    let receiver: string | null = null;
    if (recv) {
      receiver = this.receiver(recv);
      if (receiver === null) return;
    }
    this.b.ref("calls", callee, name, receiver, args ? argCount(args) : 0);
  }

  /**
   * `before_action :set_user, if: :signed_in?`, `validate :check_name`, `rescue_from E, with: :handle`:
   * the methods a class-level callback names by symbol are used (`NAMED_VALUE`), as its instance
   * methods (the resolver looks the names up as bare calls from the class).
   */
  private callbackValues(args: Node): void {
    for (const a of args.namedChildren) {
      if (a?.type === "simple_symbol") this.symbolValue(a, OWN_INSTANCE);
      else if (a?.type === "pair") {
        const key = a.childForFieldName("key");
        const value = a.childForFieldName("value");
        if (value?.type === "simple_symbol" && key && CALLBACK_KEYS.has(this.text(key)))
          this.symbolValue(value, OWN_INSTANCE);
      }
    }
  }

  /** `send(:helper, x)`, `method(:helper)`: the method named by the first argument is used. */
  private sentValue(args: Node): void {
    const first = args.namedChild(0);
    if (first?.type === "simple_symbol") this.symbolValue(first, "");
  }

  private symbolValue(symbol: Node, receiver: string): void {
    const name = this.text(symbol).slice(1);
    if (METHOD_NAME.test(name)) this.b.ref("references", symbol, name, `${NAMED_VALUE}${receiver}`);
  }

  /** A receiver as the resolver reads it, or null when it names nothing we can follow. */
  private receiver(recv: Node): string | null {
    switch (recv.type) {
      case "self":
        return "self";
      case "identifier":
        return this.text(recv);
      case "instance_variable":
        return this.text(recv);
      case "constant":
      case "scope_resolution":
        return constPath(recv, this.source) ?? "?";
      case "call": {
        const inner = recv.childForFieldName("receiver");
        const method = recv.childForFieldName("method");
        if (inner && method && this.text(method) === "new") {
          const path = constPath(inner, this.source);
          if (path) return `${path}.new()`;
        }
        // `self.class.m`: in an instance method, the class's own method.
        if (inner?.type === "self" && method && this.text(method) === "class" && !recv.childForFieldName("arguments")) {
          return "self.class";
        }
        return "?";
      }
      default:
        return "?";
    }
  }

  private require(call: Node, name: string, args: Node): boolean {
    const arg = args.namedChildren[name === "autoload" ? 1 : 0];
    if (!arg || arg.type !== "string") return false;
    if (arg.namedChildren.some((n) => n && n.type !== "string_content")) return false;
    let spec = this.text(arg).slice(1, -1);
    if (!spec) return false;
    if (name === "require_relative" && !spec.startsWith(".")) spec = `./${spec}`;
    this.b.import({ local: "", imported: null, specifier: spec, line: call.startPosition.row + 1, reexport: false });
    return true;
  }

  private superCall(node: Node): void {
    const scope = this.containerAt(node.startIndex, this.isMethod);
    const method = scope >= 0 ? this.containers[scope]! : null;
    if (!method) return;
    const name = method.node.childForFieldName("name");
    const methodText = name ? methodName(name, this.source) : null;
    if (!methodText) return;
    // `super(a, b)` is a call whose method is super; bare `super` passes the method's own arguments.
    let count: number | null = null;
    const parentCall = node.parent;
    if (parentCall?.type === "call") {
      const args = parentCall.childForFieldName("arguments");
      count = args ? argCount(args) : 0;
    }
    this.b.ref("calls", node, methodText, "super", count);
  }

  /** A bare identifier that is no local: a call of `self`'s method with no arguments. */
  private bare(id: Node): void {
    if (this.notUses.has(id.startIndex)) return;
    const word = this.text(id);
    if (NOT_CALLS.has(word)) return;
    const at = id.startIndex;
    if (this.errors.some(([start, end]) => start <= at && at < end)) return;
    const scope = this.containerAt(id.startIndex, this.isMethod);
    const locals = scope >= 0 ? this.containers[scope]!.locals : this.outsideLocals(id.startIndex);
    if (locals?.has(word)) return;
    this.b.ref("calls", id, word, null, 0);
  }

  private outsideLocals(at: number): Set<string> | undefined {
    const scope = this.containerAt(at);
    return scope >= 0 ? this.containers[scope]!.locals : this.fileLocals;
  }

  /** `x = Foo.new`, `@x ||= Foo::Bar.new(1)`, `x = @y`: the type of a local or instance variable. */
  private assign(assign: Node, left: Node, right: Node): void {
    if (left.type === "constant") {
      const scope = this.containerAt(left.startIndex);
      const holder = scope >= 0 ? this.containers[scope]! : null;
      if (holder && this.isMethod(holder)) return;
      if (assign.type !== "assignment") return;
      this.b.symbol(madeClass(right, this.source) ? "class" : "constant", assign, left, {
        exported: true,
        visibility: "public",
      });
      return;
    }
    if (right.type === "instance_variable" && left.type === "identifier") {
      // `repo = @repo`: the instance variable's class, which the resolver looks up.
      this.b.localType(left, this.text(left), this.text(right));
      return;
    }
    if (right.type !== "call") return;
    const method = right.childForFieldName("method");
    const recv = right.childForFieldName("receiver");
    if (!method || !recv || this.text(method) !== "new") return;
    const path = constPath(recv, this.source);
    if (!path) return;
    if (left.type === "identifier") this.b.localType(left, this.text(left), path);
    else if (left.type === "instance_variable") this.b.localType(left, `this.${this.text(left)}`, path);
  }

  private constRef(node: Node): void {
    if (this.notConstRefs.has(node.id)) return;
    const path = constPath(node, this.source);
    if (!path) return;
    this.b.ref("references", node, ...splitPath(path));
  }
}

/**
 * `Point = Struct.new(:x, :y) do .. end`, `Class.new(Base) { .. }`, `Data.define(:x) do .. end`: a
 * constant that is a class, whose block's `def`s are its methods (they nest in it already).
 */
function madeClass(right: Node, source: string): boolean {
  if (right.type !== "call" || !right.childForFieldName("block")) return false;
  const recv = right.childForFieldName("receiver");
  const method = right.childForFieldName("method");
  if (!recv || !method || recv.type !== "constant") return false;
  const made = `${source.slice(recv.startIndex, recv.endIndex)}.${source.slice(method.startIndex, method.endIndex)}`;
  return made === "Struct.new" || made === "Class.new" || made === "Data.define";
}

/** The node captured under `name` (every pattern's captures are fixed, so it is there). */
function cap(m: QueryMatch, name: string): Node {
  for (const c of m.captures) if (c.name === name) return c.node;
  throw new Error(`ruby query: no capture ${name} in pattern ${m.patternIndex}`);
}

/** `Foo`, `Foo::Bar` (and `::Foo`) as a dotted path; null for anything computed (`obj::Foo`). */
export function constPath(n: Node, source: string): string | null {
  if (n.type === "constant") return source.slice(n.startIndex, n.endIndex);
  if (n.type !== "scope_resolution") return null;
  const name = n.childForFieldName("name");
  const scope = n.childForFieldName("scope");
  if (!name || name.type !== "constant") return null;
  const last = source.slice(name.startIndex, name.endIndex);
  if (!scope) return last;
  const head = constPath(scope, source);
  return head ? `${head}.${last}` : null;
}

function splitPath(path: string): [string, string | null] {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? [path, null] : [path.slice(dot + 1), path.slice(0, dot)];
}

/** `foo`, `foo?`, `name=` (setter), `==` (operator), `[]`. */
function methodName(n: Node, source: string): string | null {
  const text = source.slice(n.startIndex, n.endIndex);
  if (n.type === "setter") return text;
  return text || null;
}

/** Required positional parameters; null when optional, splat or keyword parameters make it vary. */
function paramCount(params: Node): number | null {
  let count = 0;
  for (const p of params.namedChildren) {
    if (!p) continue;
    if (p.type === "identifier" || p.type === "destructured_parameter") count++;
    else if (p.type === "block_parameter") continue;
    else return null;
  }
  return count;
}

/** Arguments at a call site; null with a splat (`*args`, `**opts`), which can stand for any number. */
function argCount(args: Node): number | null {
  let count = 0;
  let pairs = false;
  for (const a of args.namedChildren) {
    if (!a) continue;
    if (a.type === "splat_argument" || a.type === "hash_splat_argument" || a.type === "forward_argument") return null;
    if (a.type === "block_argument") continue;
    // Keyword arguments travel as one hash.
    if (a.type === "pair") {
      if (!pairs) count++;
      pairs = true;
      continue;
    }
    count++;
  }
  return count;
}

export const rubyExtractor: LanguageExtractor = {
  id: "ruby",
  grammar: "tree-sitter-ruby.wasm",
  prepare(_language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source, HASH_COMMENTS);
      const root = tree.rootNode;
      new RubyFile(b, source).run(query.matches(root));
      return b.finish(null, countSyntaxErrors(root));
    };
  },
};
