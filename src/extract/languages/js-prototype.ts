import type { Node } from "web-tree-sitter";
import type { ExtractionBuilder } from "../builder.js";
import { WRITTEN_IN, WRITTEN_IN_CLASS } from "../../core/extraction.js";
import { FUNCTION_VALUES, dottedName, paramCount, splitLast } from "../ts-helpers.js";

/** Statements that declare a name a prototype can belong to. */
const DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "lexical_declaration",
  "variable_declaration",
]);

/**
 * Functions whose call `f(X, Base)` makes X extend Base: Node's `util.inherits`, TypeScript's ES5
 * `__extends(X, _super)`, Babel's `_inherits(X, _Base)` and, in its loose mode, `_inheritsLoose`.
 */
const INHERITS = new Set(["inherits", "__extends", "_inherits", "_inheritsLoose"]);

/**
 * CoffeeScript 1's helper for `class X extends Base`, `extend(X, superClass)`, named `extend1`,
 * `extend2`.. when the file has an `extend` of its own. Only called bare: `_.extend(X, mixin)` and
 * `$.extend(..)` copy properties. Either way X must be a class of the file (see `extends`).
 */
const COFFEE_EXTEND = /^extend\d*$/;

/**
 * JavaScript's classes from before `class`, as older libraries and ES5 builds still write them:
 *
 *     function Shape(name) { this.name = name; }
 *     Shape.prototype.area = function () { .. };   // a method of Shape, which makes Shape a class
 *     Shape.create = function (name) { .. };       // a static method, once Shape is a class
 *     Shape.prototype = Object.create(Base.prototype);   // or util.inherits(Shape, Base): Shape extends Base
 *     Shape.prototype = { perimeter: function () { .. }, scale() { .. } };   // methods of Shape
 *     Object.assign(Shape.prototype, Emitter.prototype, { .. });   // Emitter's methods, and these
 *     function Shape(name) { this.draw = function () { .. }; }     // a method, once Shape is a class
 *
 * Only for a declaration of the same block, written before the assignment (`function Shape` at the
 * top of the file, the assignments below it). A name imported from elsewhere, or bound later, is
 * left alone: the assignment may patch anything there.
 */
export class PrototypeMembers {
  /** Per block (by node id): what its statements declare. */
  private readonly blocks = new Map<number, BlockNames>();

  constructor(private readonly b: ExtractionBuilder) {}

  /**
   * `X.prototype.m = function ..` or `X.m = function ..` as a statement: records the method and says
   * whether it did (the caller then reads its JSDoc).
   */
  method(left: Node, object: Node, property: Node, fn: Node): boolean {
    const statement = left.parent?.parent;
    if (statement?.type !== "expression_statement" || property.type !== "property_identifier") return false;
    let onPrototype = object.type === "member_expression" && this.isPrototype(object);
    const ownerName = onPrototype ? object.childForFieldName("object") : object;
    if (ownerName?.type !== "identifier") return false;
    let name = this.b.text(ownerName);
    // `var _proto = Shape.prototype; _proto.area = function ..`, as Babel writes a class for ES5.
    const alias = onPrototype ? undefined : this.namesIn(statement)?.prototypes.get(name);
    if (alias !== undefined) [name, onPrototype] = [alias, true];
    const owner = this.declarationOf(name, statement);
    if (owner === null) return false;
    this.member(statement, property, fn, owner, { onlyOfClass: !onPrototype, isStatic: !onPrototype });
    return true;
  }

  /**
   * `this.m = function ..` as a statement of function X's body: a method of X when X is a class
   * (it has prototype methods), as a class's constructor defines them. Says whether it was that.
   */
  constructorMember(left: Node, property: Node, fn: Node): boolean {
    const statement = left.parent?.parent;
    const body = statement?.type === "expression_statement" ? statement.parent : null;
    const owner = body?.type === "statement_block" ? body.parent : null;
    if (!owner || property.type !== "property_identifier") return false;
    // Where the function's symbol starts: its declaration, or the declarator of `var X = function`.
    const declarator = owner.type === "function_expression" ? owner.parent : null;
    const start =
      owner.type === "function_declaration"
        ? owner.startIndex
        : declarator?.type === "variable_declarator"
          ? declarator.startIndex
          : null;
    if (start === null) return false;
    this.member(statement!, property, fn, start, { onlyOfClass: true });
    this.b.localType(fn, WRITTEN_IN, WRITTEN_IN_CLASS);
    return true;
  }

  /** A method `fn` of the declaration starting at `owner`, written apart from it as `statement`. */
  private member(
    statement: Node,
    name: Node,
    fn: Node,
    owner: number,
    options: { onlyOfClass: boolean; isStatic?: boolean },
  ): void {
    this.b.symbol("method", statement, name, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      paramCount: paramCount(fn),
      docNode: statement,
      memberOf: owner,
      ...options,
    });
  }

  /** A call as a statement that shapes a class: `util.inherits`, `__extends`, `Object.assign`. */
  call(name: string, call: Node, args: Node): void {
    if (INHERITS.has(name) || (COFFEE_EXTEND.test(name) && call.childForFieldName("function")?.type === "identifier"))
      this.inherits(call, args);
    else if (name === "assign") this.prototypeMixins(call, args);
  }

  /**
   * `X.prototype = { m: function () {..}, n() {..} }` or `Object.assign(X.prototype, { .. })` as a
   * statement: where X's declaration starts, for the object's methods to be X's. Null for any other
   * object.
   */
  prototypeObjectOwner(object: Node): number | null {
    const parent = object.parent;
    const call = parent?.type === "arguments" ? parent.parent : null;
    const statement = (call ?? parent)?.parent;
    if (statement?.type !== "expression_statement") return null;
    let target: Node | null = null;
    if (parent?.type === "assignment_expression") target = parent.childForFieldName("left");
    else if (call && this.isObjectAssign(call) && parent!.namedChild(0)?.id !== object.id)
      target = parent!.namedChild(0);
    if (target?.type !== "member_expression" || !this.isPrototype(target)) return null;
    const owner = target.childForFieldName("object");
    return owner?.type === "identifier" ? this.declarationOf(this.b.text(owner), statement) : null;
  }

  /**
   * `Object.assign(X.prototype, Base.prototype, { .. })` as a statement: X takes Base's methods, as
   * if it extended it. (The object's methods are X's, see `prototypeObjectOwner`.)
   */
  private prototypeMixins(call: Node, args: Node): void {
    const target = args.namedChild(0);
    if (call.parent?.type !== "expression_statement" || !this.isObjectAssign(call)) return;
    if (target?.type !== "member_expression" || !this.isPrototype(target)) return;
    const owner = target.childForFieldName("object");
    if (owner?.type !== "identifier") return;
    for (const source of args.namedChildren.slice(1))
      if (source?.type === "member_expression" && this.isPrototype(source))
        this.extends(this.b.text(owner), source.childForFieldName("object")!);
  }

  private isObjectAssign(call: Node): boolean {
    const fn = call.childForFieldName("function");
    return fn !== null && this.b.text(fn) === "Object.assign";
  }

  /** `X.prototype = Object.create(Base.prototype)`: X extends Base. Says whether it was that. */
  prototypeAssigned(object: Node, property: Node, value: Node): boolean {
    if (object.type !== "identifier" || this.b.text(property) !== "prototype") return false;
    if (
      value.type !== "call_expression" ||
      this.b.text(value.childForFieldName("function") ?? value) !== "Object.create"
    )
      return false;
    const base = value.childForFieldName("arguments")?.namedChild(0);
    if (base?.type === "member_expression" && this.isPrototype(base))
      this.extends(this.b.text(object), base.childForFieldName("object")!);
    return true;
  }

  /**
   * `util.inherits(X, Base)`, `inherits(X, Base)` as a statement: X extends Base. So do the helpers
   * compilers call in a class's IIFE, whose second argument is the IIFE's parameter for the base
   * (see INHERITS and COFFEE_EXTEND).
   */
  private inherits(call: Node, args: Node): void {
    if (call.parent?.type !== "expression_statement" || args.namedChildCount !== 2) return;
    const [derived, base] = [args.namedChild(0), args.namedChild(1)];
    if (derived?.type === "identifier" && base) this.extends(this.b.text(derived), this.iifeArgument(base) ?? base);
  }

  /**
   * `var Shape = (function () { function Shape() {..} Shape.prototype.area = ..; return Shape; }())`,
   * as TypeScript and Babel compile a class to ES5: the variable is the function the IIFE declares
   * and returns, so that function stands for it (the variable is no symbol of its own).
   */
  isIifeClass(name: string, value: Node): boolean {
    const fn = iifeFunction(value);
    const body = fn?.childForFieldName("body");
    if (body?.type !== "statement_block") return false;
    const statements = body.namedChildren.filter((c) => c !== null && c.type !== "comment");
    const last = statements[statements.length - 1];
    const returned = last?.type === "return_statement" ? last.namedChild(0) : null;
    if (returned?.type !== "identifier" || this.b.text(returned) !== name) return false;
    return statements.some(
      (c) => c!.type === "function_declaration" && this.b.text(c!.childForFieldName("name") ?? c!) === name,
    );
  }

  /** A parameter of the IIFE around `node` (`_super`): the argument the IIFE is called with for it. */
  private iifeArgument(node: Node): Node | null {
    if (node.type !== "identifier") return null;
    let fn = node.parent;
    while (fn && fn.type !== "function_expression") fn = fn.parent;
    const params = fn?.childForFieldName("parameters")?.namedChildren ?? [];
    const i = params.findIndex((p) => p?.type === "identifier" && this.b.text(p) === this.b.text(node));
    const call = fn?.parent?.type === "parenthesized_expression" ? fn.parent.parent : fn?.parent;
    if (i < 0 || call?.type !== "call_expression") return null;
    return call.childForFieldName("arguments")?.namedChild(i) ?? null;
  }

  private extends(derived: string, base: Node): void {
    const dotted = dottedName(base, (n) => this.b.text(n));
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    // Dropped by the builder unless `derived` is a class of the file by then (it has prototype methods).
    this.b.typeRef("extends", base, name, receiver, derived);
  }

  private isPrototype(member: Node): boolean {
    const property = member.childForFieldName("property");
    return property !== null && this.b.text(property) === "prototype";
  }

  /** Where the declaration of `name` in the statement's block starts, if it comes before the statement. */
  private declarationOf(name: string, statement: Node): number | null {
    const start = this.namesIn(statement)?.declared.get(name);
    return start !== undefined && start < statement.startIndex ? start : null;
  }

  private namesIn(statement: Node): BlockNames | null {
    const block = statement.parent;
    if (!block) return null;
    let names = this.blocks.get(block.id);
    if (!names) {
      names = this.declarationsIn(block);
      this.blocks.set(block.id, names);
    }
    return names;
  }

  private declarationsIn(block: Node): BlockNames {
    const names: BlockNames = { declared: new Map(), prototypes: new Map() };
    for (let statement of block.namedChildren) {
      if (statement?.type === "export_statement") statement = statement.childForFieldName("declaration");
      if (!statement || !DECLARATIONS.has(statement.type)) continue;
      const name = statement.childForFieldName("name");
      if (name) {
        names.declared.set(this.b.text(name), statement.startIndex);
        continue;
      }
      // `var Shape = function (name) {..}`: the declarator is the symbol. Not `var Router =
      // require("./router")`: a prototype patched there belongs to a class declared elsewhere.
      for (const declarator of statement.namedChildren) {
        if (declarator?.type !== "variable_declarator") continue;
        const id = declarator.childForFieldName("name");
        const value = declarator.childForFieldName("value");
        if (id?.type !== "identifier" || !value) continue;
        if (FUNCTION_VALUES.has(value.type) || value.type === "class")
          names.declared.set(this.b.text(id), declarator.startIndex);
        else if (value.type === "member_expression" && this.isPrototype(value)) {
          const owner = value.childForFieldName("object");
          if (owner?.type === "identifier") names.prototypes.set(this.b.text(id), this.b.text(owner));
        }
      }
    }
    return names;
  }
}

/** What a block's statements declare, by name: where each declaration starts; prototype aliases. */
interface BlockNames {
  declared: Map<string, number>;
  /** `var _proto = Shape.prototype`: `_proto` → `Shape`. */
  prototypes: Map<string, string>;
}

/** The function an IIFE calls: `(function () {..}())`, `(function () {..})()`. */
function iifeFunction(value: Node): Node | null {
  const call = value.type === "parenthesized_expression" ? value.namedChild(0) : value;
  if (call?.type !== "call_expression") return null;
  let fn = call.childForFieldName("function");
  if (fn?.type === "parenthesized_expression") fn = fn.namedChild(0);
  return fn?.type === "function_expression" ? fn : null;
}
