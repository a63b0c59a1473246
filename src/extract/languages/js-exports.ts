import type { Node } from "web-tree-sitter";
import { MODULE_EXPORTS } from "../../core/extraction.js";
import type { ExtractionBuilder } from "../builder.js";
import { FUNCTION_VALUES, paramCount } from "../ts-helpers.js";

/**
 * What a CommonJS module exports, from the assignments that export it:
 *
 *     module.exports = { parse, format: fmt };        // re-exports of the file's own declarations
 *     module.exports = Parser;                        // the module is Parser (see MODULE_EXPORTS)
 *     module.exports = function debounce(fn) { .. };  // the module is this function, a declaration
 *     exports.parse = function (text) { .. };         // an exported function `parse`
 *     module.exports.format = format;                 // a re-export of `format`
 *
 * Functions are declared only by statements at the top of the file: inside a function, such an
 * assignment may run any number of times, or never.
 */
export class CommonJsExports {
  constructor(
    private readonly b: ExtractionBuilder,
    /** Reads the JSDoc above a declared function (its parameters' and return types). */
    private readonly jsDoc: (fn: Node, docNode: Node) => void,
  ) {}

  /** An assignment to `module.exports`, `module.exports.x` or `exports.x`: says whether it was one. */
  assignment(left: Node, object: Node, property: Node, value: Node): boolean {
    if (this.isModuleExports(object, property)) {
      this.moduleAssigned(left, value);
      return true;
    }
    const onExports =
      (object.type === "identifier" && this.b.text(object) === "exports") ||
      (object.type === "member_expression" &&
        this.isModuleExports(object.childForFieldName("object"), object.childForFieldName("property")));
    if (!onExports || property.type !== "property_identifier") return false;
    const statement = this.topLevelStatement(left);
    const name = this.b.text(property);
    if (statement && FUNCTION_VALUES.has(value.type)) this.declare(statement, property, value);
    else if (value.type === "identifier") this.reexport(name, this.b.text(value), left);
    return true;
  }

  private moduleAssigned(left: Node, value: Node): void {
    if (value.type === "object") return this.objectExports(value);
    if (value.type === "identifier") return this.reexport(MODULE_EXPORTS, this.b.text(value), left);
    const name = FUNCTION_VALUES.has(value.type) ? value.childForFieldName("name") : null;
    const statement = this.topLevelStatement(left);
    if (!name || !statement) return;
    this.declare(statement, name, value);
    this.reexport(MODULE_EXPORTS, this.b.text(name), left);
  }

  /** `module.exports = { a, b: c }`: a and b, the file's a and c. */
  private objectExports(obj: Node): void {
    for (const p of obj.namedChildren) {
      if (p?.type === "shorthand_property_identifier") {
        const name = this.b.text(p);
        this.reexport(name, name, obj);
      } else if (p?.type === "pair") {
        const key = p.childForFieldName("key");
        const value = p.childForFieldName("value");
        if (key && value?.type === "identifier") this.reexport(this.b.text(key), this.b.text(value), obj);
      }
    }
  }

  private declare(statement: Node, name: Node, fn: Node): void {
    this.b.symbol("function", statement, name, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      exported: true,
      paramCount: paramCount(fn),
      docNode: statement,
    });
    this.jsDoc(fn, statement);
  }

  private reexport(local: string, imported: string, at: Node): void {
    this.b.import({ local, imported, specifier: "", line: at.startPosition.row + 1, reexport: true });
  }

  private isModuleExports(object: Node | null, property: Node | null): boolean {
    return (
      object?.type === "identifier" &&
      property !== null &&
      this.b.text(object) === "module" &&
      this.b.text(property) === "exports"
    );
  }

  /** The statement an assignment is, when it stands at the top of the file. */
  private topLevelStatement(left: Node): Node | null {
    const statement = left.parent?.parent;
    return statement?.type === "expression_statement" && statement.parent?.type === "program" ? statement : null;
  }
}
