import { jsDocParamType, jsDocReturnType, jsDocType } from "../jsdoc.js";
import type { Language, Node, Query, Tree } from "web-tree-sitter";
import {
  ELEMENT,
  NAMED_VALUE,
  MODULE_EXPORTS,
  OBJECT_TYPE,
  TYPE_BOUND,
  WRITTEN_IN,
  callbackPosition,
  type ExtractResult,
  valueOfType,
} from "../../core/extraction.js";
import { CALLABLE_KINDS, type NodeKind } from "../../core/kinds.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor, LanguageId } from "../language.js";
import type { Span } from "../spans.js";
import {
  FUNCTION_VALUES,
  constructedTypeName,
  dottedName,
  memberKeyName,
  paramCount,
  receiverExpression,
  splitLast,
  typeNameOf,
  unquote,
  wrappedFunction,
} from "../ts-helpers.js";
import { CommonJsExports } from "./js-exports.js";
import { CONSTRUCTED_TYPE, LocalCallSites } from "./js-local-calls.js";
import { JsReads } from "./js-reads.js";
import { bindingNames, JsScopes } from "./js-scopes.js";
import { objectMixin } from "./js-mixins.js";
import { PrototypeMembers } from "./js-prototype.js";
import { tsxParseText, typeScriptParseText } from "./ts-parse-text.js";
import { type Dialect, capturesOf, named, queryFor } from "./ts-query.js";

/** Where an object literal's function members are worth indexing as methods. */
const OBJECT_HOLDERS = new Set([
  "variable_declarator",
  "return_statement",
  "parenthesized_expression",
  "export_statement",
]);

/** The names a destructuring pattern binds. */
const PATTERN_NAMES = ["identifier", "shorthand_property_identifier_pattern"];

/** What `x.push(..)` may fill with a known element type: an array variable, or a field of `this`. */
const PUSHED_INTO = /^(?:this\.)?[A-Za-z_$][\w$]*$/;
/** The values of a plain assignment (`x = ..`) that type the variable as a declaration's would. */
const REASSIGNED_VALUES = new Set([
  "new_expression",
  "call_expression",
  "member_expression",
  "subscript_expression",
  "await_expression",
]);

/** Array methods whose callback gets an element, by the parameters that hold one. */
const ELEMENT_CALLBACKS = new Map<string, readonly number[]>([
  ["forEach", [0]],
  ["map", [0]],
  ["flatMap", [0]],
  ["filter", [0]],
  ["find", [0]],
  ["findLast", [0]],
  ["findIndex", [0]],
  ["some", [0]],
  ["every", [0]],
  ["reduce", [1]],
  ["reduceRight", [1]],
  ["sort", [0, 1]],
]);
/** `then`'s callback: its first parameter is the promise's value (see `elementCallback`). */
const THEN_VALUE: readonly number[] = [0];
const TOP_LEVEL_PARENTS = new Set(["program", "export_statement"]);

/** Modifiers written before a member's name: `private static async foo`. */
function modifiers(b: ExtractionBuilder, def: Node, name: Node | undefined) {
  const prefix = b.source.slice(def.startIndex, name ? name.startIndex : def.startIndex);
  const visibility = /\bprivate\b/.test(prefix)
    ? ("private" as const)
    : /\bprotected\b/.test(prefix)
      ? ("protected" as const)
      : /\bpublic\b/.test(prefix)
        ? ("public" as const)
        : name?.type === "private_property_identifier"
          ? ("private" as const)
          : null;
  return { visibility, isStatic: /\bstatic\b/.test(prefix) };
}

/** The type a `: T` annotation writes (a node's `type` or `return_type`); none for another node. */
function annotated(annotation: Node | null): Node[] {
  if (annotation?.type !== "type_annotation") return [];
  const types: Node[] = [];
  for (const t of annotation.namedChildren) if (t) types.push(t);
  return types;
}

/** A parameter's name when its type is not written: `v`, `v = 1` (JavaScript), `v?` (TypeScript). */
function untypedParameter(p: Node): Node | null {
  if (p.type === "identifier") return p;
  if (p.type === "assignment_pattern") {
    const left = p.childForFieldName("left");
    return left?.type === "identifier" ? left : null;
  }
  if ((p.type === "required_parameter" || p.type === "optional_parameter") && !p.childForFieldName("type")) {
    const pattern = p.childForFieldName("pattern");
    return pattern?.type === "identifier" ? pattern : null;
  }
  return null;
}

/** Nodes whose `parameters` are a function's own (see `fieldFromParameter`). */
const FUNCTIONS = new Set([
  "method_definition",
  "function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "generator_function_declaration",
  "generator_function",
]);

/** A function value's parameters by position (comments left out): the name, or null for a pattern. */
function parameterNames(fn: Node): (Node | null)[] {
  const single = fn.childForFieldName("parameter");
  const params = single ? [single] : (fn.childForFieldName("parameters")?.namedChildren ?? []);
  const names: (Node | null)[] = [];
  for (const p of params) {
    if (!p || p.type === "comment") continue;
    const id = p.type === "identifier" ? p : p.childForFieldName("pattern");
    names.push(id?.type === "identifier" ? id : null);
  }
  return names;
}

/** A parameter's position among its function's, comments left out; null outside a parameter list. */
function positionIn(param: Node): number | null {
  const list = param.parent;
  if (list?.type !== "formal_parameters") return null;
  let i = 0;
  for (const p of list.namedChildren) {
    if (p?.startIndex === param.startIndex) return i;
    if (p && p.type !== "comment") i++;
  }
  return null;
}

/** Types written with parameters, whose parameters are no variables (see `localType`). */
const SIGNATURE_TYPES = new Set(["function_type", "constructor_type"]);

/** What a name used as a value may be, when this file declares it: a function, method, class or enum. */
const VALUE_KINDS: ReadonlySet<NodeKind> = new Set([...CALLABLE_KINDS, "class", "enum"]);

/** A name that may stand for a function or class: `helper`, `{ Cart }`, or a method of `this` (`this.handleClick`). */
function isValueName(node: Node): boolean {
  if (node.type === "identifier" || node.type === "shorthand_property_identifier") return true;
  if (node.type !== "member_expression") return false;
  return (
    node.childForFieldName("object")?.type === "this" &&
    node.childForFieldName("property")?.type === "property_identifier"
  );
}

/** The statement a top-level declaration hangs from, and whether it is exported. */
function exportInfo(decl: Node): { exported: boolean; docNode: Node } {
  const parent = decl.parent;
  if (parent?.type === "export_statement") return { exported: true, docNode: parent };
  return { exported: false, docNode: decl };
}

class TsFile {
  private readonly prototypes: PrototypeMembers;
  private readonly commonJs: CommonJsExports;
  private readonly reads: JsReads;
  private readonly scopes: JsScopes;
  private readonly localCalls: LocalCallSites;
  /** Names used as values (an argument, a property's value, `onClick={f}`): functions among them are used. */
  private readonly values: Node[] = [];
  /** Class fields holding a function (`handleClick = () => ..`), which `this.handleClick` names as one. */
  private readonly functionFields = new Set<string>();
  /** Pushes by function and array (see `pushed`): the first site, and the type all agree on so far. */
  private readonly pushes = new Map<string, { site: Node; name: string; type: string | null }>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly isDeclarationFile: boolean,
  ) {
    this.prototypes = new PrototypeMembers(b);
    this.scopes = new JsScopes(b);
    this.localCalls = new LocalCallSites(b, this.scopes);
    this.commonJs = new CommonJsExports(b, (fn, docNode) => this.jsDoc(fn, docNode));
    this.reads = new JsReads(b, this.scopes);
  }

  handle(c: Map<string, Node>): void {
    const comment = c.get("comment");
    if (comment) {
      this.b.comment(comment);
      return this.b.jsDocAcrossBlankLines(comment);
    }
    for (const [name, node] of c) {
      if (name.startsWith("def.")) return this.definition(name.slice(4), node, c);
    }
    if (c.has("call") || c.has("new")) return this.call(c);
    const value = c.get("value");
    if (value) {
      if (isValueName(value)) this.values.push(value);
      return;
    }
    if (c.has("extends")) return this.heritage("extends", c.get("extends")!);
    if (c.has("implements")) return this.heritage("implements", c.get("implements")!);
    if (c.has("lt.param")) return this.parameterType(c.get("lt.param")!, c.get("lt.name")!, c.get("lt.type")!);
    if (c.has("lt.pattern")) return this.destructured(c.get("lt.pattern")!, c.get("lt.from")!);
    if (c.has("tp.decl")) return this.typeParameter(c.get("tp.decl")!);
    if (c.has("tp.name")) return this.typeBound(c.get("tp.name")!, c.get("tp.bound")!);
    if (c.has("forof")) return this.forOf(c.get("forof")!, c.get("forof.name")!);
    // `catch (error)`: a value of the function around it, which hides any function of its name.
    if (c.has("catch")) return this.scopes.declaredValue(c.get("catch")!);
    if (c.has("narrow")) return this.narrowed(c.get("narrow")!);
    // An object literal is its own type: its function-valued members are the methods of the function
    // that returns it (`createManager()` returning `{ batch() {} }`), as of a variable that holds it.
    if (c.has("lt.returnsObject")) return this.b.localType(c.get("lt.returnsObject")!, "()", OBJECT_TYPE);
    if (c.has("lt.return")) return this.returnType(c.get("lt.return")!);
    if (c.has("typeref")) return this.typeRef(c.get("typeref")!);
    if (c.has("jsx")) return this.jsxElement(c.get("jsx")!);
    if (c.has("assign.left")) return this.assignment(c.get("assign.left")!, c.get("assign.right")!);
    if (c.has("import")) return this.importStatement(c.get("import")!);
    if (c.has("export")) return this.exportStatement(c.get("export")!);
  }

  private definition(kind: string, def: Node, c: Map<string, Node>): void {
    const b = this.b;
    const name = c.get("name");
    const body = c.get("body");
    switch (kind) {
      case "function":
      case "class":
      case "interface":
      case "type_alias":
      case "enum":
      case "namespace": {
        const { exported, docNode } = exportInfo(def);
        const nodeKind: NodeKind = kind as NodeKind;
        if (def.type === "function_declaration") {
          this.ownReturnType(def);
          if (name) {
            this.scopes.declared(name);
            this.localCalls.declaration(def, b.text(name));
          }
        }
        b.symbol(nodeKind, def, name ?? null, {
          signatureEnd: body?.startIndex,
          exported: exported || this.isDeclarationFile,
          paramCount: kind === "function" ? paramCount(def) : null,
          docNode,
          ...(kind === "namespace" && name ? { name: unquote(b.text(name)) } : {}),
        });
        if (kind === "function") this.jsDoc(def, docNode);
        if (kind === "interface" && body?.type === "interface_body") this.signatureMembers(body);
        const value = kind === "type_alias" ? def.childForFieldName("value") : null;
        if (value?.type === "object_type") this.signatureMembers(value);
        return;
      }
      case "signature": {
        this.ownReturnType(def);
        // Overload signatures precede an implementation we already index; keep only ambient ones.
        if (!this.isDeclarationFile && def.parent?.type !== "ambient_declaration") return;
        b.symbol("function", def, name ?? null, { exported: true, paramCount: paramCount(def) });
        return;
      }
      case "method": {
        // `module.exports = { format(v) {..} }`: an exported function, declared with the assignment.
        if (this.commonJs.exportedMethods.has(def.id)) return;
        // A method signature's return type has a pattern of its own: not every one is a symbol.
        if (def.type !== "method_signature") this.ownReturnType(def);
        const nameText = name ? b.text(name) : "";
        const mods = modifiers(b, def, name);
        const owner = def.parent?.type === "object" ? this.prototypes.prototypeObjectOwner(def.parent) : null;
        b.symbol(nameText === "constructor" ? "constructor" : "method", def, name ?? null, {
          ...this.keyName(name),
          signatureEnd: body?.startIndex,
          paramCount: paramCount(def),
          ...mods,
          ...(owner === null ? {} : { memberOf: owner }),
        });
        this.jsDoc(def, def);
        return;
      }
      case "property": {
        b.symbol("property", def, name ?? null, { ...this.keyName(name), ...modifiers(b, def, name) });
        if (!name) return;
        this.memberType(def, name);
        // `handleClick = () => ..`: a method in all but kind, named as a value through `this`.
        const value = def.childForFieldName("value");
        if (value && FUNCTION_VALUES.has(value.type)) this.functionFields.add(b.text(name));
        return;
      }
      case "member": {
        // Function-valued keys of an object literal that is held or returned, not of every argument.
        let holder = def.parent?.parent;
        if (holder?.type === "as_expression") holder = holder.parent;
        if (!holder) return;
        const owner = OBJECT_HOLDERS.has(holder.type) ? null : this.prototypes.prototypeObjectOwner(def.parent!);
        if (owner === null && !OBJECT_HOLDERS.has(holder.type)) return;
        b.symbol("method", def, name ?? null, {
          ...this.keyName(name),
          signatureEnd: body?.childForFieldName("body")?.startIndex,
          paramCount: paramCount(body ?? null),
          ...(owner === null ? {} : { memberOf: owner }),
        });
        return;
      }
      case "enum_member":
        b.symbol("enum_member", def, name ?? def);
        return;
      case "variable":
        return this.variable(def, name);
    }
  }

  /** The name of a member keyed by a string or a computed key (see `memberKeyName`), as a symbol option. */
  private keyName(key: Node | undefined): { name?: string } {
    const name = key ? memberKeyName(key, (n) => this.b.text(n)) : null;
    return name === null ? {} : { name };
  }

  /** An interface's or object type alias's method and property signatures are its members. */
  private signatureMembers(body: Node): void {
    for (const member of body.namedChildren) {
      const kind =
        member?.type === "method_signature" ? "method" : member?.type === "property_signature" ? "property" : null;
      const name = kind ? member!.childForFieldName("name") : null;
      if (name) this.definition(kind!, member!, new Map([["name", name]]));
    }
  }

  /**
   * What a JSDoc comment above a function types that its signature does not: its parameters
   * (`@param {Vector3} v`) and what it returns (`@returns {Box3}`).
   */
  private jsDoc(fn: Node, docNode: Node): void {
    const doc = this.b.commentAbove(docNode.startPosition.row);
    if (!doc?.startsWith("/**") || !doc.includes("@")) return;
    const params = fn.childForFieldName("parameters");
    if (!params) return;
    for (const p of params.namedChildren) {
      const id = p ? untypedParameter(p) : null;
      const type = id ? jsDocParamType(doc, this.b.text(id)) : null;
      if (id && type) this.b.localType(id, this.b.text(id), type);
    }
    const returns = fn.childForFieldName("return_type") ? null : jsDocReturnType(doc);
    // Anchored inside the function (its parameters), so that the type is its own.
    if (returns) this.b.localType(params, "()", returns);
  }

  /** A declarator: its symbol, if it is one; what it says its variable holds; a `require` it binds. */
  private variable(declarator: Node, name: Node | undefined): void {
    const target = name ?? declarator.childForFieldName("name");
    this.declaresNames(target);
    const value = declarator.childForFieldName("value");
    const taken = name?.type === "identifier" ? requiredMember(this.b, value) : null;
    // A plain value (no function, no `require`): in a function, a local no symbol stands for. Not one
    // declared bare (`var run, compile;`), which CoffeeScript assigns functions after, nor a class an
    // IIFE makes (`var Host = (function () { function Host() {} .. return Host; })()`): its function is one.
    if (
      target &&
      value &&
      !taken &&
      !FUNCTION_VALUES.has(value.type) &&
      !requiredSource(this.b, value) &&
      !(name?.type === "identifier" && this.prototypes.isIifeClass(this.b.text(name), value))
    )
      bindingNames(target, (id) => this.scopes.declaredValue(id));
    // `var normalizeType = require("./utils").normalizeType` imports it as `{ normalizeType }` would.
    if (taken) return requireBinding(this.b, name!, taken.source, taken.name);
    this.variableSymbol(declarator, name, value);
    if (!name) return;
    this.declaredTypes(declarator, name, value);
    const required = requiredSource(this.b, value);
    if (required) requireBinding(this.b, name, required);
  }

  /** The names a declarator's left side binds, for `JsScopes`: one, or a pattern's (`{ a, b: c }`). */
  private declaresNames(target: Node | null): void {
    if (target?.type === "identifier") return this.scopes.declared(target);
    if (target) for (const id of target.descendantsOfType(PATTERN_NAMES)) if (id) this.scopes.declared(id);
  }

  /** Only module-level variables are symbols; locals inside functions are not. */
  private variableSymbol(declarator: Node, name: Node | undefined, value: Node | null): void {
    const statement = declarator.parent;
    const container = statement?.parent;
    if (!statement || !container) return;
    const isFunction = value !== null && FUNCTION_VALUES.has(value.type);
    // Local functions (`const flush = () => ...` in a body) are symbols too: code calls them.
    const inNamespace = container.type === "statement_block" && container.parent?.type === "internal_module";
    // A bare block at the top of a script (`{ 'use strict'; const SelectBox = {..}; window.SelectBox =
    // SelectBox; }`, Django's admin scripts) scopes its declarations as a module would.
    const inTopBlock = container.type === "statement_block" && container.parent?.type === "program";
    const topLevel =
      (TOP_LEVEL_PARENTS.has(container.type) || inNamespace || inTopBlock) &&
      (container.type !== "export_statement" || container.parent?.type === "program" || inNamespace);
    if (!topLevel && !isFunction) return;
    if (!isFunction && value && name && this.prototypes.isIifeClass(this.b.text(name), value)) return;
    // `var run, compile;` above `run = function ..`: the assignment declares it (see `finish`).
    if (!value && name) return void this.bareDeclarators.push({ declarator, name });
    this.declareVariable(declarator, name ?? null, value, isFunction);
  }

  /** Top-level declarators without a value, declared by `finish` unless an assignment declared them. */
  private readonly bareDeclarators: { declarator: Node; name: Node }[] = [];
  /** Names `variableAssigned` declared: `run` of `run = function () {..}`. */
  private readonly assignedNames = new Set<string>();

  /**
   * What is left once every match is handled: the bare declarators (`var run, compile;`, as
   * CoffeeScript declares a module's variables) whose names no assignment declared. Such a name
   * declared twice would be ambiguous, and every call of `run` would reach nothing.
   */
  finish(root: Node): void {
    for (const { declarator, name } of this.bareDeclarators)
      if (!this.assignedNames.has(this.b.text(name))) this.declareVariable(declarator, name, null, false);
    this.finishPushes();
    this.localCalls.finish();
    this.namedValues();
    this.reads.finish(root);
  }

  /**
   * Names used as values that may be functions or classes (`NAMED_VALUE`): a function, method, class
   * or enum this file declares, or an import; not a parameter or plain local of that name.
   */
  private namedValues(): void {
    if (!this.values.length) return;
    const callables = this.b.namesOf(CALLABLE_KINDS);
    const declared = this.b.namesOf(VALUE_KINDS);
    for (const value of this.values) {
      if (value.type === "member_expression") {
        // `this.handleClick`: a method of the class around it, or a field holding a function, which
        // this file declares.
        const property = value.childForFieldName("property")!;
        const name = this.b.text(property);
        if (callables.has(name) || this.functionFields.has(name))
          this.b.ref("references", property, name, `${NAMED_VALUE}this`);
        continue;
      }
      const name = this.b.text(value);
      if (!declared.has(name) && !this.b.imported(name)) continue;
      if (this.commonJs.exportedValues.has(value.startIndex)) continue;
      if (!this.scopes.hides(name, value)) this.b.ref("references", value, name, NAMED_VALUE);
    }
  }

  private declareVariable(declarator: Node, name: Node | null, value: Node | null, isFunction: boolean): void {
    const statement = declarator.parent!;
    const isConst = this.b.source.startsWith("const", statement.startIndex);
    const { exported, docNode } = exportInfo(statement);
    const kind: NodeKind = isFunction ? "function" : isConst ? "constant" : "variable";
    this.b.symbol(kind, declarator, name, {
      signatureEnd: isFunction ? value!.childForFieldName("body")?.startIndex : undefined,
      signatureText: name && !isFunction ? this.overloadedSignature(declarator, name) : undefined,
      exported: exported || this.isDeclarationFile,
      paramCount: isFunction ? paramCount(value) : null,
      docNode,
    });
  }

  /**
   * A constant typed by call signatures, as libraries declare overloads (`const retry: { (n: number):
   * ...; <A>(self: A, n: number): A } = dual(2, ...)`): its name and first signature, and how many more
   * there are. Its head alone would read `retry:`, its type opening on the next line.
   */
  private overloadedSignature(declarator: Node, name: Node): string | undefined {
    const type = declarator.childForFieldName("type")?.namedChild(0);
    if (type?.type !== "object_type") return undefined;
    const signatures = type.namedChildren.filter((c) => c?.type === "call_signature");
    const first = signatures[0];
    if (!first) return undefined;
    const more = signatures.length - 1;
    return `${this.b.text(name)}${this.b.text(first)}${more ? ` (+${more} overload${more > 1 ? "s" : ""})` : ""}`;
  }

  /**
   * `f(x)`, `recv.f(x)`, `super(x)`, `new F(x)`, `new recv.F(x)`, told apart here: one query pattern
   * per shape costs several milliseconds each to compile, in every parse worker.
   */
  private call(c: Map<string, Node>): void {
    const site = c.get("call") ?? c.get("new")!;
    const fn = c.get("fn")!;
    const args = c.get("args") ?? site.childForFieldName("arguments");
    const argList = args ? named(args) : null;
    const argCount = argList ? argList.length : null;
    if (argList) for (const arg of argList) if (isValueName(arg)) this.values.push(arg);
    const kind = c.has("new") ? "instantiates" : "calls";
    if (fn.type === "super") {
      if (kind === "calls") this.b.ref("calls", fn, "constructor", "super", argCount);
      return;
    }
    const member = fn.type === "member_expression";
    const callee = member ? fn.childForFieldName("property") : fn.type === "identifier" ? fn : null;
    const recv = member ? fn.childForFieldName("object") : null;
    if (!callee || (member && !recv)) return;
    const name = this.b.text(callee);
    if (kind === "calls" && !recv && name === "require") return;
    if (kind === "calls" && args) {
      if (!recv) this.localCalls.call(name, site, args);
      this.prototypes.call(name, site, args);
      objectMixin(this.b, name, site, args, this.commonJs);
    }
    // A parameter or plain local of that name is what is called, not a project symbol: no edge.
    let receiver = recv
      ? (receiverExpression(recv, (n) => this.b.text(n)) ?? "?")
      : this.hiddenByLocal(name, site)
        ? "?"
        : null;
    // `exports.parse(text)` in a CommonJS module calls its own `exports.parse = function ..`.
    if (receiver === "exports" || receiver === "module.exports") receiver = null;
    else if (receiver === "this" && this.commonJs.thisIsModule(site)) receiver = MODULE_EXPORTS;
    this.b.ref(kind, callee, name, receiver, argCount);
    if (!args || receiver === "?") return;
    if (name === "push" && receiver && kind === "calls") this.pushed(receiver, site, args);
    if (receiver && (ELEMENT_CALLBACKS.has(name) || name === "then")) this.elementCallback(name, receiver, args);
    else if (kind === "calls") this.callbackArguments(receiver ? `${receiver}.${name}` : name, argList!);
  }

  /** `let windows = [new Subject()]`: an array of Subjects (the first element's type, as inference starts). */
  private arrayOfNew(name: Node, constructor: Node): void {
    const type = dottedName(constructor, (n) => this.b.text(n));
    if (type) this.b.localType(name, this.b.text(name), `${type}[]`);
  }

  /** `for (const x of items)`: in the body, x is an element of items (`for..in` gives keys). */
  private forOf(loop: Node, name: Node): void {
    // The loop's variable is a value of the function around it (see `JsScopes.hides`).
    this.scopes.declaredValue(name);
    // Read here rather than matched: `right: (_) body: (_)` in the pattern was two fifths of the
    // JavaScript query's compile time, which each parse worker pays on its cold start.
    const value = loop.childForFieldName("right");
    const body = loop.childForFieldName("body");
    if (!value || !body) return;
    if (!/^[\s)]*of\b/.test(this.b.source.slice(name.endIndex, value.startIndex))) return;
    const of = receiverExpression(value, (n) => this.b.text(n));
    if (of) this.b.bindElement(this.b.text(name), body.startIndex, body.endIndex, of);
  }

  /**
   * `if (x instanceof Foo) { .. }`: in the branch taken, x is a Foo (a value of it, `new Foo()`), whatever
   * it is declared as; and past `if (!(x instanceof Foo)) return;` (or `throw`), with no `else`, to the
   * end of the block holding it. Only a whole condition narrows (not `a && x instanceof Foo`). The
   * query finds the `instanceof` keyword alone: a pattern for the whole test was a sixth of the time
   * TypeScript's query takes to compile, which every sync pays.
   */
  private narrowed(keyword: Node): void {
    const test = keyword.parent;
    if (test?.type !== "binary_expression") return;
    const name = test.childForFieldName("left");
    const type = test.childForFieldName("right");
    // `x instanceof Order` uses the class, whatever `x` is.
    if (type?.type === "identifier") this.values.push(type);
    if (name?.type !== "identifier" || (type?.type !== "identifier" && type?.type !== "member_expression")) return;
    const typeName = dottedName(type, (n) => this.b.text(n));
    if (!typeName) return;
    const bind = (start: number, end: number) => this.b.narrow(this.b.text(name), start, end, valueOfType(typeName));
    let condition = test.parent;
    const negated = condition?.type === "parenthesized_expression" && condition.parent?.type === "unary_expression";
    if (negated) {
      const not = condition!.parent!;
      if (!this.b.text(not).startsWith("!")) return;
      condition = not.parent;
    }
    const statement = condition?.type === "parenthesized_expression" ? condition.parent : null;
    const body = statement?.type === "if_statement" ? statement.childForFieldName("consequence") : null;
    if (!body) return;
    if (!negated) return bind(body.startIndex, body.endIndex);
    const last = body.type === "statement_block" ? body.namedChild(body.namedChildCount - 1) : body;
    const exits = last?.type === "return_statement" || last?.type === "throw_statement";
    const holder = statement!.parent;
    if (exits && holder && !statement!.childForFieldName("alternative")) bind(statement!.endIndex, holder.endIndex);
  }

  /**
   * `this.stack.push(layer)` after `var layer = new Layer(..)`, or `stack.push(new Layer(..))`: the
   * array holds Layers, as TypeScript's evolving `[]` does. Only a type named with a capital (`Layer`,
   * `Layer()`, `ns.Layer`): the entry is read where the array is, a scope where a lower-case name
   * the pushing function declared would mean something else. Read once per array and function (see
   * `finishPushes`).
   */
  private pushed(receiver: string, site: Node, args: Node): void {
    if (!PUSHED_INTO.test(receiver)) return;
    const value = args.namedChild(0);
    let type: string | null = null;
    if (value?.type === "new_expression") {
      const constructor = value.childForFieldName("constructor");
      type = constructor ? constructedTypeName(constructor, (n) => this.b.text(n)) : null;
    } else if (value?.type === "identifier") {
      type = this.scopes.typeOfLocal(this.b.text(value), site);
    }
    if (type !== null && !CONSTRUCTED_TYPE.test(type)) type = null;
    const key = `${this.scopes.innermostFunction(site)?.startIndex ?? -1}\0${receiver}`;
    const seen = this.pushes.get(key);
    if (!seen) this.pushes.set(key, { site, name: `${receiver}${ELEMENT}`, type });
    else if (seen.type !== type) seen.type = null;
  }

  /**
   * An array's element type where every push into it in one function agrees on one; none where
   * they differ (a union) or one is unknown. Otherwise a table built of 20,000 pushes of 50 types
   * would have given the resolver 20,000 typings of one name to read at every use.
   */
  private finishPushes(): void {
    for (const { site, name, type } of this.pushes.values()) if (type) this.b.localType(site, name, type);
  }

  /** `items.forEach((x) => ...)`, `.map`, `.filter`, `.reduce((acc, x) => ...)`: in the callback, x is an element of items. */
  private elementCallback(method: string, receiver: string, args: Node): void {
    // `load().then((user) => ..)`: a promise's callback gets its value, which is what the receiver's
    // type names (a `Promise<User>` is read as a User).
    const positions = method === "then" ? THEN_VALUE : ELEMENT_CALLBACKS.get(method);
    const fn = positions && args.namedChild(0);
    if (!fn || !FUNCTION_VALUES.has(fn.type)) return;
    const names = parameterNames(fn);
    for (const at of positions) {
      const id = names[at];
      if (!id) continue;
      if (positions === THEN_VALUE) this.b.bindValue(this.b.text(id), fn.startIndex, fn.endIndex, receiver);
      else this.b.bindElement(this.b.text(id), fn.startIndex, fn.endIndex, receiver);
    }
  }

  private heritage(kind: "extends" | "implements", node: Node): void {
    const dotted = dottedName(node, (n) => this.b.text(n));
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref(kind, node, name, receiver);
  }

  private typeRef(node: Node): void {
    const dotted = dottedName(node, (n) => this.b.text(n));
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    // A type parameter (`function id<Props>(v: Props)`) is no type of the project named like it.
    const parameter = !receiver && this.typeParameters.get(name)?.some((d) => within(node, d));
    this.b.ref("references", node, name, parameter ? "?" : receiver);
  }

  /** Where each type parameter's name stands for it: the declaration that lists it, whole. */
  private readonly typeParameters = new Map<string, Span[]>();

  /** A type parameter's name (`T` of `class Box<T>`, `<T,>(v: T) => v`), declared for its declaration. */
  private typeParameter(id: Node): void {
    const params = id.parent?.parent;
    const declaration = params?.parent;
    // Only a declaration's own list: a parse gone wrong (Flow's `{ ...$Diff<Props, ..> }`) makes others.
    if (params?.type !== "type_parameters" || !declaration || !GENERIC_DECLARATIONS.has(declaration.type)) return;
    const name = this.b.text(id);
    let list = this.typeParameters.get(name);
    if (!list) this.typeParameters.set(name, (list = []));
    list.push({ start: declaration.startIndex, end: declaration.endIndex });
  }

  /** A parameter's written type (`repo: Repo`, `fn: (u: User) => void`). */
  private parameterType(param: Node, name: Node, type: Node): void {
    const text = (n: Node) => this.b.text(n);
    if (type.type === "function_type") this.callbackParameters(param, type);
    const typeName = constructedTypeName(type, text);
    if (!typeName) return;
    // A parameter of a function type (`f: (clock: C) => void`) is no variable, but the function
    // given for it names its own the same way (Effect's `dual<(self: TQueue) => ..>(2, (self) => ..)`),
    // so its type stands; unless an import has the name, which it would hide (the module `clock`).
    if (SIGNATURE_TYPES.has(param.parent?.parent?.type ?? "") && this.b.imported(text(name))) return;
    this.b.localType(name, text(name), typeName);
    // `constructor(private repo: Repo)` also declares the field `this.repo`.
    if (param.namedChild(0)?.type === "accessibility_modifier") {
      this.b.localType(name, `this.${text(name)}`, typeName);
    }
  }

  /**
   * What a declarator says its variable holds: its written type (`let x: Repo`), what its value
   * constructs (`new Repo()`, `[new A(), new B()]`, `{..} as Repo`), or the call or chain it is
   * (`a.b()`, `await a.b()`, `a[0]`), which the resolver follows to the callee's return type.
   */
  private declaredTypes(declarator: Node, name: Node, value: Node | null): void {
    const text = (n: Node) => this.b.text(n);
    const holds = (typeName: string | null) => {
      if (typeName) this.b.localType(name, text(name), typeName);
    };
    for (const type of annotated(declarator.childForFieldName("type"))) holds(constructedTypeName(type, text));
    if (!value) return;
    switch (value.type) {
      case "new_expression": {
        const constructor = value.childForFieldName("constructor");
        if (constructor) holds(constructedTypeName(constructor, text));
        return;
      }
      case "call_expression":
        this.mappedElements(name, value);
        return holds(receiverExpression(value, text));
      case "member_expression":
      case "subscript_expression":
        return holds(receiverExpression(value, text));
      case "await_expression":
        for (const inner of value.namedChildren)
          if (inner?.type === "call_expression") holds(receiverExpression(inner, text));
        return;
      case "parenthesized_expression":
        for (const inner of value.namedChildren)
          if (inner?.type === "assignment_expression") holds(receiverExpression(value, text));
        return;
      // `const self = this`: a method's `self.paint()` is `this.paint()` (before arrow functions kept `this`).
      case "this":
        return holds("this");
      // An object literal is its own type: its function-valued members are the variable's methods.
      case "object":
        return holds(OBJECT_TYPE);
      case "array":
        for (const element of value.namedChildren) {
          const constructor = element?.type === "new_expression" ? element.childForFieldName("constructor") : null;
          if (constructor) this.arrayOfNew(name, constructor);
        }
        return;
      case "as_expression": {
        const parts = value.namedChildren;
        for (const part of parts) if (part?.type === "object") holds(OBJECT_TYPE);
        for (let i = 1; i < parts.length; i++) holds(constructedTypeName(parts[i]!, text));
        return;
      }
    }
  }

  /**
   * `const observers = matches.map((m) => m.observer)`: an array of what the callback's expression
   * is, its parameter an element of `matches`: `matches[0].observer[]`. Recorded ahead of the call
   * chain (`matches.map()`), which the resolver reads when this says nothing: a project type's own
   * `map` (an Option's, a List's) returns what it declares.
   */
  private mappedElements(name: Node, call: Node): void {
    const text = (n: Node) => this.b.text(n);
    const fn = call.childForFieldName("function");
    const method = fn?.type === "member_expression" ? fn.childForFieldName("property") : null;
    if (!method || text(method) !== "map") return;
    const callback = call.childForFieldName("arguments")?.namedChild(0);
    const body = callback?.type === "arrow_function" ? callback.childForFieldName("body") : null;
    if (!body || body.type === "statement_block") return;
    const items = receiverExpression(fn!.childForFieldName("object")!, text);
    const param = parameterNames(callback!)[0];
    let element = receiverExpression(body, text);
    if (!items || !element) return;
    const head = param ? text(param) : null;
    const rest = head && element.startsWith(head) ? element.slice(head.length) : null;
    if (rest !== null && (rest === "" || /^[.[(]/.test(rest))) element = `${items}${ELEMENT}${rest}`;
    this.b.localType(name, text(name), `${element}[]`);
  }

  /** A field's or property signature's type (`repo: Repo`, `repo = new Repo()`) is `this.repo`'s. */
  private memberType(def: Node, name: Node): void {
    for (const type of annotated(def.childForFieldName("type"))) this.fieldType(name, type);
    const value = def.childForFieldName("value");
    const constructor = value?.type === "new_expression" ? value.childForFieldName("constructor") : null;
    if (constructor) this.fieldType(name, constructor);
  }

  /** `this.field` holds what `type` names or constructs. */
  private fieldType(field: Node, type: Node): void {
    const typeName = constructedTypeName(type, (n) => this.b.text(n));
    if (typeName) this.b.localType(field, `this.${this.b.text(field)}`, typeName);
  }

  /** A function's, method's or signature's written return type (see `returnType`). */
  private ownReturnType(fn: Node): void {
    for (const type of annotated(fn.childForFieldName("return_type"))) this.returnType(type);
  }

  /**
   * `each(items: User[], fn: (u: User) => void)`: what a function given as argument 1 gets as its
   * parameter 0, recorded as `()#1:0` typed User in the callee's scope (a position of the call, as
   * TUPLE's are), for `each(list, (u) => u.save())` (see `callbackArguments`).
   */
  private callbackParameters(param: Node, fnType: Node): void {
    const at = positionIn(param);
    const inner = fnType.childForFieldName("parameters")?.namedChildren ?? [];
    let j = 0;
    for (const p of inner) {
      if (!p || p.type === "comment") continue;
      const type = p.childForFieldName("type")?.namedChild(0);
      const typeName = type ? constructedTypeName(type, (n) => this.b.text(n)) : null;
      if (at !== null && typeName) this.b.localType(param, `()${callbackPosition(at, j)}`, typeName);
      j++;
    }
  }

  /**
   * `each(list, (u) => u.save())`: a function given as an argument gets what the callee's signature
   * says its parameters are (see `callbackParameters`). Not for the array methods, whose callbacks get
   * elements (`elementCallback`).
   */
  private callbackArguments(callee: string, args: Node[]): void {
    let i = 0;
    for (const arg of args) {
      if (arg.type === "comment") continue;
      if (FUNCTION_VALUES.has(arg.type))
        parameterNames(arg).forEach((id, j) => {
          if (id)
            this.b.bindValue(this.b.text(id), arg.startIndex, arg.endIndex, `${callee}()${callbackPosition(i, j)}`);
        });
      i++;
    }
  }

  /** `<T extends Repo>`: T's bound, which the resolver reads where a value is typed T (see TYPE_BOUND). */
  private typeBound(name: Node, bound: Node): void {
    const typeName = typeNameOf(bound, (n) => this.b.text(n));
    if (typeName) this.b.localType(name, `${TYPE_BOUND}${this.b.text(name)}`, typeName);
  }

  /** `const { repo, store: s } = this.deps`: each name has the type of the member it takes. */
  private destructured(pattern: Node, from: Node): void {
    const required = requiredSource(this.b, from);
    if (required) return requireBinding(this.b, pattern, required);
    // Plain values of the function around them (see `JsScopes.hides`), as `const x = ..` declares.
    bindingNames(pattern, (id) => this.scopes.declaredValue(id));
    const text = (n: Node) => this.b.text(n);
    const chain = receiverExpression(from, text);
    // `const { a } = require("./x")` binds imports (see requireBinding), not typed values.
    if (!chain || chain === "require()") return;
    for (const p of pattern.namedChildren) {
      if (p?.type === "shorthand_property_identifier_pattern") this.b.localType(p, text(p), `${chain}.${text(p)}`);
      else if (p?.type === "pair_pattern") {
        const key = p.childForFieldName("key");
        const value = p.childForFieldName("value");
        if (key?.type === "property_identifier" && value?.type === "identifier")
          this.b.localType(value, text(value), `${chain}.${text(key)}`);
      }
    }
  }

  /**
   * A callable's declared return type, recorded as the type of `()` in its scope; a getter's is also
   * its property's (`get repo(): Repo` types `this.repo`).
   */
  private returnType(node: Node): void {
    const typeName = typeNameOf(node, (n) => this.b.text(n));
    if (!typeName) return;
    this.b.localType(node, "()", typeName);
    const method = node.parent?.parent;
    if (method?.type !== "method_definition" || !method.children.some((k) => k?.type === "get")) return;
    const name = method.childForFieldName("name");
    if (name?.type === "property_identifier") this.b.localType(node, `this.${this.b.text(name)}`, typeName);
  }

  private jsxElement(name: Node): void {
    const dotted = dottedName(name, (n) => this.b.text(n));
    if (!dotted) return;
    const { receiver, name: last } = splitLast(dotted);
    if (!receiver && !/^[A-Z]/.test(last)) return; // <div>, <span>: HTML, not a component
    // `decorators: [Story => <Story />]`: the parameter is rendered, not a symbol named Story.
    this.b.ref("calls", name, last, !receiver && this.hiddenByLocal(last, name) ? "?" : receiver, null);
  }

  /**
   * Whether a bare name is a parameter or plain local of a function around `site` (see `JsScopes.hides`),
   * unless it holds a member read off a receiver: a local bound to a method (`const save = repo.save;
   * save()`) is followed by the resolver.
   */
  private hiddenByLocal(name: string, site: Node): boolean {
    if (!this.scopes.hides(name, site)) return false;
    return !this.b.hasRecordedType(name) || !this.scopes.typeOfLocal(name, site)?.includes(".");
  }

  /**
   * `this.x = new X()` types field x; `module.exports = { ... }` re-exports. One pattern for both, told
   * apart here: a pattern through an assignment's parts costs several milliseconds each to compile.
   */
  private assignment(left: Node, right: Node): void {
    if (left.type === "identifier") return this.variableAssigned(left, right);
    if (isValueName(right)) this.values.push(right);
    const object = left.childForFieldName("object");
    const property = left.childForFieldName("property");
    if (!object || !property) return;
    if (
      object.type === "this" &&
      FUNCTION_VALUES.has(right.type) &&
      (this.constructorMethod(left, property, right) || this.prototypes.constructorMember(left, property, right))
    )
      return this.jsDoc(right, left.parent!.parent!);
    if (
      object.type !== "this" &&
      FUNCTION_VALUES.has(right.type) &&
      this.prototypes.method(left, object, property, right)
    )
      return this.jsDoc(right, left.parent!.parent!);
    if (this.prototypes.prototypeAssigned(object, property, right)) return;
    if (object.type === "this" && right.type !== "new_expression") {
      if (this.typedField(left, property) || right.type !== "identifier") return;
      return this.fieldFromParameter(left, property, this.b.text(right));
    }
    if (object.type === "this" && right.type === "new_expression") {
      const type = right.childForFieldName("constructor");
      if (type) this.fieldType(property, type);
    } else this.commonJs.assignment(left, object, property, right);
  }

  /**
   * `fs = require("fs")` and `run = function () {..}` where they run once as the module loads (see
   * CommonJsExports.runsOnce): the variable holds the module, or is the function, as a declarator's
   * would. The statement may assign others beside it (`ref = require("./a"), b = ref.b`), or the
   * same value on (`exports.run = run = function () {..}`).
   */
  private variableAssigned(name: Node, value: Node): void {
    const required = requiredSource(this.b, value);
    const taken = required ? null : requiredMember(this.b, value);
    const isFunction = FUNCTION_VALUES.has(value.type);
    const wrapped = required || taken || isFunction ? null : wrappedFunction(value);
    // `layer = stack[idx++]` after `var layer;`: typed as a declaration's value would type it.
    if (!required && !taken && !isFunction && !wrapped) {
      if (REASSIGNED_VALUES.has(value.type)) this.declaredTypes(name.parent!, name, value);
      return;
    }
    let statement = name.parent?.parent;
    while (statement?.type === "sequence_expression" || statement?.type === "assignment_expression")
      statement = statement.parent;
    if (statement?.type !== "expression_statement" || !this.commonJs.runsOnce(statement)) return;
    if (required) return requireBinding(this.b, name, required);
    this.assignedNames.add(this.b.text(name));
    if (taken) return requireBinding(this.b, name, taken.source, taken.name);
    if (wrapped) return this.commonJs.declareWrapped(name.parent!, name, wrapped, false);
    this.b.symbol("function", name.parent!, name, {
      signatureEnd: value.childForFieldName("body")?.startIndex,
      paramCount: paramCount(value),
      docNode: statement,
    });
    this.jsDoc(value, statement);
  }

  /**
   * `this.render = function (scene, camera) {..}` in a class's constructor: a method of the class, as
   * three.js's `WebGLRenderer` defines its 47 (closures over the constructor's state). Only a
   * statement of the constructor's own body: elsewhere such an assignment sets a callback.
   */
  private constructorMethod(left: Node, property: Node, fn: Node): boolean {
    const statement = left.parent?.parent;
    const ctor = statement?.type === "expression_statement" ? statement.parent?.parent : null;
    if (property.type !== "property_identifier" || ctor?.type !== "method_definition") return false;
    if (this.b.text(ctor.childForFieldName("name") ?? ctor) !== "constructor") return false;
    this.b.symbol("method", statement!, property, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      paramCount: paramCount(fn),
      docNode: statement!,
      typeMember: true,
    });
    this.b.localType(fn, WRITTEN_IN, "constructor");
    return true;
  }

  /** `this.backend = backend` under a JSDoc `@type {Backend}`: the field's type, as JSDoc writes it. */
  private typedField(left: Node, property: Node): boolean {
    // The comment is looked up first: most assignments have none, and asking the tree costs more.
    const doc = this.b.commentAbove(left.startPosition.row);
    const type = doc?.startsWith("/**") ? jsDocType(doc) : null;
    if (!type || property.type !== "property_identifier" || left.parent?.parent?.type !== "expression_statement")
      return false;
    this.b.localType(property, `this.${this.b.text(property)}`, type);
    return true;
  }

  /**
   * `this.mixer = mixer` with `mixer` a parameter of the enclosing function, typed in its signature
   * (`mixer: Mixer`) or its JSDoc (`@param {Mixer} mixer`): the field has that type. Only that
   * function's own parameters: a name from further out may be anything by then.
   */
  private fieldFromParameter(left: Node, property: Node, name: string): void {
    if (property.type !== "property_identifier") return;
    let fn = left.parent;
    while (fn && !FUNCTIONS.has(fn.type)) fn = fn.parent;
    const params = fn?.childForFieldName("parameters");
    if (!fn || !params) return;
    for (const p of params.namedChildren) {
      if (!p) continue;
      const pattern = p.childForFieldName("pattern");
      const annotation = pattern?.type === "identifier" ? p.childForFieldName("type")?.namedChild(0) : null;
      let type =
        annotation && this.b.text(pattern!) === name ? constructedTypeName(annotation, (n) => this.b.text(n)) : null;
      const untyped = type ? null : untypedParameter(p);
      if (untyped && this.b.text(untyped) === name) {
        const doc = this.b.commentAbove(exportInfo(fn).docNode.startPosition.row);
        type = doc?.startsWith("/**") ? jsDocParamType(doc, name) : null;
      }
      if (type) return this.b.localType(property, `this.${this.b.text(property)}`, type);
    }
  }

  /** `module.exports = { a, b: c }`: importers of this file see a and b. */
  private importStatement(stmt: Node): void {
    this.reads.skip(stmt);
    // `import Shape = require("./shape")`: TypeScript's CommonJS import, of what the module's
    // `export =` (or `module.exports =`) is.
    const required = stmt.namedChild(0)?.type === "import_require_clause" ? stmt.namedChild(0)! : null;
    const source = (required ?? stmt).childForFieldName("source");
    if (!source) return;
    if (required) {
      const id = required.namedChild(0);
      if (id?.type === "identifier") this.binding(id, this.b.text(id), "*", unquote(this.b.text(source)), false);
      return;
    }
    const specifier = unquote(this.b.text(source));
    const line = stmt.startPosition.row + 1;
    const clause = stmt.namedChildren.find((n) => n?.type === "import_clause");
    if (!clause) {
      this.b.import({ local: "", imported: null, specifier, line, reexport: false });
      return;
    }
    for (const part of clause.namedChildren) {
      if (!part) continue;
      if (part.type === "identifier") {
        this.binding(part, this.b.text(part), "default", specifier, false);
      } else if (part.type === "namespace_import") {
        const id = part.namedChild(0);
        if (id) this.binding(id, this.b.text(id), "*", specifier, false);
      } else if (part.type === "named_imports") {
        for (const spec of part.namedChildren) {
          if (spec?.type !== "import_specifier") continue;
          const imported = spec.childForFieldName("name");
          const alias = spec.childForFieldName("alias");
          if (imported) this.binding(spec, this.b.text(alias ?? imported), this.b.text(imported), specifier, false);
        }
      }
    }
  }

  private binding(at: Node, local: string, imported: string, specifier: string, reexport: boolean): void {
    const line = at.startPosition.row + 1;
    this.b.import({ local, imported, specifier, line, reexport });
    if (!reexport) this.b.symbol("import", at, null, { name: local });
  }

  private exportStatement(stmt: Node): void {
    const source = stmt.childForFieldName("source");
    const specifier = source ? unquote(this.b.text(source)) : "";
    const line = stmt.startPosition.row + 1;
    const clause = stmt.namedChildren.find((n) => n?.type === "export_clause");
    if (clause) {
      this.reads.skip(stmt);
      for (const spec of clause.namedChildren) {
        if (spec?.type !== "export_specifier") continue;
        const name = spec.childForFieldName("name");
        const alias = spec.childForFieldName("alias");
        if (!name) continue;
        this.b.import({
          local: this.b.text(alias ?? name),
          imported: this.b.text(name),
          specifier,
          line,
          reexport: true,
        });
      }
      return;
    }
    if (source) {
      const ns = stmt.namedChildren.find((n) => n?.type === "namespace_export");
      const id = ns?.namedChild(0);
      this.b.import({ local: id ? this.b.text(id) : "*", imported: "*", specifier, line, reexport: true });
      return;
    }
    // `export = Shape`: TypeScript's `module.exports = Shape`.
    const only = stmt.namedChildCount === 1 ? stmt.namedChild(0) : null;
    if (only?.type === "identifier" && /^export\s*=/.test(this.b.text(stmt))) {
      this.b.import({ local: MODULE_EXPORTS, imported: this.b.text(only), specifier: "", line, reexport: true });
      return;
    }
    // `export default <declaration or name>`: record which local name the default is.
    if (!this.b.source.startsWith("default", stmt.startIndex + "export".length + 1)) return;
    const decl = stmt.childForFieldName("declaration") ?? stmt.childForFieldName("value");
    const named = decl?.childForFieldName("name") ?? (decl?.type === "identifier" ? decl : null);
    if (named) this.b.import({ local: "default", imported: this.b.text(named), specifier: "", line, reexport: true });
  }
}

/** The string of `require("x")`, its one argument; null for any other value. */
function requiredSource(b: ExtractionBuilder, value: Node | null): Node | null {
  if (value?.type !== "call_expression") return null;
  const fn = value.childForFieldName("function");
  if (fn?.type !== "identifier" || b.text(fn) !== "require") return null;
  const args = value.childForFieldName("arguments");
  const only = args?.type === "arguments" && args.namedChildCount === 1 ? args.namedChild(0) : null;
  return only?.type === "string" ? only : null;
}

/** `require("./utils").normalizeType`: the module's specifier and the name taken from it. */
function requiredMember(b: ExtractionBuilder, value: Node | null): { source: Node; name: string } | null {
  if (value?.type !== "member_expression") return null;
  const object = value.childForFieldName("object");
  const property = value.childForFieldName("property");
  const source = object ? requiredSource(b, object) : null;
  return source && property?.type === "property_identifier" ? { source, name: b.text(property) } : null;
}

/**
 * `const x = require("./m")` binds x to the module; `const { a, b: c } = require(..)` imports a and b,
 * and so does `const a = require(..).a` (`member`).
 */
function requireBinding(b: ExtractionBuilder, target: Node, source: Node, member?: string): void {
  const specifier = unquote(b.text(source));
  const line = target.startPosition.row + 1;
  // One name the module offers, bound to `local`: an import node of its own.
  const take = (local: Node, imported: string) => {
    b.import({ local: b.text(local), imported, specifier, line, reexport: false });
    b.symbol("import", local, null, { name: b.text(local) });
  };
  if (member !== undefined) return take(target, member);
  if (target.type === "identifier") {
    // The variable itself is already a symbol; the binding makes `x.f()` resolve into the module.
    b.import({ local: b.text(target), imported: "*", specifier, line, reexport: false });
    return;
  }
  for (const p of target.namedChildren) {
    if (p?.type === "shorthand_property_identifier_pattern") take(p, b.text(p));
    else if (p?.type === "pair_pattern") {
      const key = p.childForFieldName("key");
      const value = p.childForFieldName("value");
      if (key && value?.type === "identifier") take(value, b.text(key));
    }
  }
}

/** The comments a file opens with, after any `#!` line (the header Flow's `@flow` pragma must sit in). */
const HEADER_COMMENTS = /^(?:#![^\n]*)?(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;

/**
 * A JavaScript file with Flow's `@flow` pragma in its opening comments. The JavaScript grammar reads
 * Flow's type annotations as syntax errors (React Native's Flow files: 13,577 error nodes in 400
 * files, against 1,501 with the TSX grammar), losing what follows them.
 */
function isFlow(source: string): boolean {
  const header = HEADER_COMMENTS.exec(source.slice(0, 4096))![0];
  return /@flow\b/.test(header) && !/@noflow\b/.test(header);
}

function makeExtractor(id: LanguageId, dialect: Dialect, jsx: boolean, grammar: string): LanguageExtractor {
  return {
    id,
    grammar,
    dialect:
      id === "javascript"
        ? (source) => (isFlow(source) ? { parseAs: "tsx", language: "javascript" } : null)
        : undefined,
    parseText: id === "typescript" ? typeScriptParseText : id === "tsx" ? tsxParseText : undefined,
    prepare(_language: Language, compile: (source: string) => Query) {
      const query = compile(queryFor(dialect, jsx));
      return (tree: Tree, source: string, path: string): ExtractResult => {
        const b = new ExtractionBuilder(source);
        const file = new TsFile(b, path.endsWith(".d.ts"));
        const root = tree.rootNode;
        for (const m of query.matches(root)) for (const c of capturesOf(m, dialect)) file.handle(c);
        file.finish(root);
        return b.finish(null, countSyntaxErrors(root));
      };
    },
  };
}

/** TypeScript, TSX and JavaScript/JSX: one grammar family, three parsers. */
export const typescriptExtractors: LanguageExtractor[] = [
  makeExtractor("typescript", "ts", false, "tree-sitter-typescript.wasm"),
  makeExtractor("tsx", "ts", true, "tree-sitter-tsx.wasm"),
  makeExtractor("javascript", "js", true, "tree-sitter-javascript.wasm"),
];

/** What declares type parameters (`<T>`): functions, methods, classes, interfaces, aliases, signatures. */
const GENERIC_DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "arrow_function",
  "method_definition",
  "method_signature",
  "abstract_method_signature",
  "function_signature",
  "call_signature",
  "construct_signature",
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "interface_declaration",
  "type_alias_declaration",
  "function_type",
  "constructor_type",
]);

/** Whether a node lies inside a span of the source. */
function within(node: Node, span: Span): boolean {
  return node.startIndex >= span.start && node.endIndex <= span.end;
}
