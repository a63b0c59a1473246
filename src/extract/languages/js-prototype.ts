import type { Node } from "web-tree-sitter";
import type { ExtractionBuilder } from "../builder.js";
import { dottedName, paramCount, splitLast } from "../ts-helpers.js";

/** Values that define a function (and so a method, when given to a prototype). */
export const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** Statements that declare a name a prototype can belong to. */
const DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "lexical_declaration",
  "variable_declaration",
]);

/**
 * JavaScript's classes from before `class`, as older libraries and ES5 builds still write them:
 *
 *     function Shape(name) { this.name = name; }
 *     Shape.prototype.area = function () { .. };   // a method of Shape, which makes Shape a class
 *     Shape.create = function (name) { .. };       // a static method, once Shape is a class
 *     Shape.prototype = Object.create(Base.prototype);   // or util.inherits(Shape, Base): Shape extends Base
 *     Shape.prototype = { perimeter: function () { .. }, scale() { .. } };   // methods of Shape
 *     function Shape(name) { this.draw = function () { .. }; }     // a method, once Shape is a class
 *
 * Only for a declaration of the same block, written before the assignment (`function Shape` at the
 * top of the file, the assignments below it). A name imported from elsewhere, or bound later, is
 * left alone: the assignment may patch anything there.
 */
export class PrototypeMembers {
  /** Per block (by node id): the start of each name's declaration in it, as its symbol starts. */
  private readonly declared = new Map<number, Map<string, number>>();

  constructor(private readonly b: ExtractionBuilder) {}

  /**
   * `X.prototype.m = function ..` or `X.m = function ..` as a statement: records the method and says
   * whether it did (the caller then reads its JSDoc).
   */
  method(left: Node, object: Node, property: Node, fn: Node): boolean {
    const statement = left.parent?.parent;
    if (statement?.type !== "expression_statement" || property.type !== "property_identifier") return false;
    const onPrototype = object.type === "member_expression" && this.isPrototype(object);
    const ownerName = onPrototype ? object.childForFieldName("object") : object;
    if (ownerName?.type !== "identifier") return false;
    const owner = this.declarationOf(this.b.text(ownerName), statement);
    if (owner === null) return false;
    this.b.symbol("method", statement, property, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      paramCount: paramCount(fn),
      docNode: statement,
      memberOf: owner,
      onlyOfClass: !onPrototype,
      isStatic: !onPrototype,
    });
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
    this.b.symbol("method", statement!, property, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      paramCount: paramCount(fn),
      docNode: statement!,
      memberOf: start,
      onlyOfClass: true,
    });
    return true;
  }

  /**
   * `X.prototype = { m: function () {..}, n() {..} }` as a statement: where X's declaration starts,
   * for the object's methods to be X's. Null for any other object.
   */
  prototypeObjectOwner(object: Node): number | null {
    const assignment = object.parent;
    const statement = assignment?.parent;
    if (assignment?.type !== "assignment_expression" || statement?.type !== "expression_statement") return null;
    const left = assignment.childForFieldName("left");
    if (left?.type !== "member_expression" || !this.isPrototype(left)) return null;
    const owner = left.childForFieldName("object");
    return owner?.type === "identifier" ? this.declarationOf(this.b.text(owner), statement) : null;
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

  /** `util.inherits(X, Base)`, `inherits(X, Base)` as a statement: X extends Base. */
  inherits(call: Node, args: Node): void {
    if (call.parent?.type !== "expression_statement" || args.namedChildCount !== 2) return;
    const [derived, base] = [args.namedChild(0), args.namedChild(1)];
    if (derived?.type === "identifier" && base) this.extends(this.b.text(derived), base);
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
    const block = statement.parent;
    if (!block) return null;
    let names = this.declared.get(block.id);
    if (!names) {
      names = this.declarationsIn(block);
      this.declared.set(block.id, names);
    }
    const start = names.get(name);
    return start !== undefined && start < statement.startIndex ? start : null;
  }

  private declarationsIn(block: Node): Map<string, number> {
    const names = new Map<string, number>();
    for (let statement of block.namedChildren) {
      if (statement?.type === "export_statement") statement = statement.childForFieldName("declaration");
      if (!statement || !DECLARATIONS.has(statement.type)) continue;
      const name = statement.childForFieldName("name");
      if (name) {
        names.set(this.b.text(name), statement.startIndex);
        continue;
      }
      // `var Shape = function (name) {..}`: the declarator is the symbol. Not `var Router =
      // require("./router")`: a prototype patched there belongs to a class declared elsewhere.
      for (const declarator of statement.namedChildren) {
        if (declarator?.type !== "variable_declarator") continue;
        const id = declarator.childForFieldName("name");
        const value = declarator.childForFieldName("value");
        if (id?.type === "identifier" && value && (FUNCTION_VALUES.has(value.type) || value.type === "class"))
          names.set(this.b.text(id), declarator.startIndex);
      }
    }
    return names;
  }
}
