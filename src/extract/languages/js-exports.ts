import type { Node } from "web-tree-sitter";
import { MODULE_EXPORTS } from "../../core/extraction.js";
import type { ExtractionBuilder } from "../builder.js";
import { FUNCTION_VALUES, paramCount, wrappedFunction } from "../ts-helpers.js";

/**
 * What a CommonJS module exports, from the assignments that export it:
 *
 *     module.exports = { parse, format: fmt };        // re-exports of the file's own declarations
 *     module.exports = Parser;                        // the module is Parser (see MODULE_EXPORTS)
 *     module.exports = function debounce(fn) { .. };  // the module is this function, a declaration
 *     exports.parse = function (text) { .. };         // an exported function `parse`
 *     module.exports.format = format;                 // a re-export of `format`
 *
 * Functions are declared only by statements that run once as the module loads (see `runsOnce`):
 * elsewhere in a function, such an assignment may run any number of times, or never.
 */
export class CommonJsExports {
  /**
   * Where the names the module exports by assignment are written (`module.exports = { parse }`,
   * `exports.format = format`): the `exports` edge is their use, not a `references` one too.
   */
  readonly exportedValues = new Set<number>();

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
    if (property.type !== "property_identifier") return false;
    const isFunction = FUNCTION_VALUES.has(value.type);
    const wrapped = isFunction ? null : wrappedFunction(value);
    // Only a function or a name is worth the walk to the enclosing function that an alias takes.
    const onExports =
      this.isExports(object) ||
      ((isFunction || wrapped || value.type === "identifier" || value.type === "assignment_expression") &&
        object.type === "identifier" &&
        (this.isExportsParameter(object, left) || this.isModuleObject(object, left)));
    if (!onExports) return false;
    const statement = this.topLevelStatement(left);
    const name = this.b.text(property);
    if (statement && isFunction) this.declare(statement, property, value);
    else if (statement && wrapped) this.declareWrapped(statement, property, wrapped, true);
    else if (value.type === "identifier") this.reexportValue(name, value, left);
    else if (value.type === "assignment_expression" && value.childForFieldName("left")?.type === "identifier") {
      // `exports.run = run = function () {..}`, as CoffeeScript exports a function it also calls.
      this.reexport(name, this.b.text(value.childForFieldName("left")!), left);
    } else if (statement && value.type === "assignment_expression") this.chained(statement, name, value);
    return true;
  }

  /**
   * `req.get = req.header = function header(name) {..}`, as Express names one function twice: it is
   * declared under the name it is assigned to last (`header`), and exported under the others too.
   * Every name must be the module's: `exports.x`, or a member of the module's object.
   */
  private chained(statement: Node, first: string, value: Node): void {
    const aliases = [first];
    for (let v: Node | null = value; v?.type === "assignment_expression"; v = v.childForFieldName("right")) {
      const left = v.childForFieldName("left");
      const object = left?.type === "member_expression" ? left.childForFieldName("object") : null;
      const property = left?.childForFieldName("property");
      if (object?.type !== "identifier" || property?.type !== "property_identifier") return;
      if (!this.isExports(object) && !this.isModuleVariable(this.b.text(object), statement)) return;
      const right = v.childForFieldName("right");
      if (right && FUNCTION_VALUES.has(right.type)) {
        this.declare(statement, property, right);
        for (const alias of aliases) this.reexport(alias, this.b.text(property), statement);
        return;
      }
      aliases.push(this.b.text(property));
    }
  }

  private moduleAssigned(left: Node, value: Node): void {
    if (value.type === "object") return this.objectExports(value, this.topLevelStatement(left) !== null);
    if (value.type === "identifier") return this.reexportValue(MODULE_EXPORTS, value, left);
    const name = FUNCTION_VALUES.has(value.type) ? value.childForFieldName("name") : null;
    const statement = this.topLevelStatement(left);
    if (!name || !statement) return;
    this.declare(statement, name, value);
    this.reexport(MODULE_EXPORTS, this.b.text(name), left);
  }

  /**
   * `module.exports = { a, b: c }`: a and b, the file's a and c. Where the statement runs once, its
   * functions are the module's too: `parse: function (s) {..}`, `format(v) {..}`. Not a getter
   * (`get Platform() { return require(..) }`, a lazy export): its value is what it returns.
   */
  private objectExports(obj: Node, runsOnce: boolean): void {
    for (const p of obj.namedChildren) {
      if (p?.type === "shorthand_property_identifier") {
        this.reexportValue(this.b.text(p), p, obj);
      } else if (p?.type === "pair") {
        const key = p.childForFieldName("key");
        const value = p.childForFieldName("value");
        if (key && value?.type === "identifier") this.reexportValue(this.b.text(key), value, obj);
        else if (runsOnce && key?.type === "property_identifier" && value && FUNCTION_VALUES.has(value.type))
          this.declare(p, key, value);
      } else if (runsOnce && p?.type === "method_definition" && !isAccessor(p)) {
        const name = p.childForFieldName("name");
        if (name?.type !== "property_identifier") continue;
        this.declare(p, name, p);
        this.exportedMethods.add(p.id);
      }
    }
  }

  /** Method definitions `objectExports` declared as exported functions: not methods as well. */
  readonly exportedMethods = new Set<number>();

  /** An exported function: `at` is what it spans and what its doc comment precedes. */
  private declare(at: Node, name: Node, fn: Node): void {
    this.b.symbol("function", at, name, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      exported: true,
      paramCount: paramCount(fn),
      docNode: at,
    });
    this.jsDoc(fn, at);
  }

  /**
   * `exports.tokens = withPrettyErrors(function (code) {..})`: a variable holding what the call makes
   * of the function, as a declarator `var tokens = withPrettyErrors(..)` would be one; the function's
   * calls are its. Not a function: the call may return anything (a server, a debounced function
   * that takes other arguments), so no parameter count either.
   */
  declareWrapped(at: Node, name: Node, fn: Node, exported: boolean): void {
    this.b.symbol("variable", at, name, {
      signatureEnd: fn.childForFieldName("body")?.startIndex,
      exported,
      docNode: at,
    });
  }

  private reexport(local: string, imported: string, at: Node): void {
    this.b.import({ local, imported, specifier: "", line: at.startPosition.row + 1, reexport: true });
  }

  /** A re-export of the name written at `value`, which is no other use of it (see `exportedValues`). */
  private reexportValue(local: string, value: Node, at: Node): void {
    this.exportedValues.add(value.startIndex);
    this.reexport(local, this.b.text(value), at);
  }

  /** `exports` or `module.exports`. */
  private isExports(n: Node | null): boolean {
    if (n?.type === "identifier") return this.b.text(n) === "exports";
    return (
      n?.type === "member_expression" &&
      this.isModuleExports(n.childForFieldName("object"), n.childForFieldName("property"))
    );
  }

  /**
   * `sax` in `(function (sax) { sax.parser = .. })(typeof exports === "undefined" ? (this.sax = {}) : exports)`:
   * a parameter of the function whose body an assignment's statement stands in, which its call binds
   * to the module's exports (`exports`, `module.exports`, or either branch of a condition).
   */
  private isExportsParameter(name: Node, left: Node): boolean {
    const fn = enclosingFunction(left.parent?.parent ?? null);
    const text = this.b.text(name);
    const params = fn?.childForFieldName("parameters")?.namedChildren ?? [];
    const i = params.findIndex((p) => p?.type === "identifier" && this.b.text(p) === text);
    // Only a call of the function itself binds its parameters to the arguments in order.
    const call = i < 0 ? null : directCall(fn!);
    let arg = call?.childForFieldName("arguments")?.namedChild(i) ?? null;
    while (arg?.type === "parenthesized_expression") arg = arg.namedChild(0);
    if (arg?.type !== "ternary_expression") return this.isExports(arg);
    return this.isExports(arg.childForFieldName("consequence")) || this.isExports(arg.childForFieldName("alternative"));
  }

  /**
   * `app` in `app.listen = function listen() {..}` at the top of a file whose module is that object:
   * `var app = exports = module.exports = {}` (Express's application), or `var res = Object.create(..);
   * module.exports = res` (its response).
   */
  private isModuleObject(name: Node, left: Node): boolean {
    const program = left.parent?.parent?.parent;
    return program?.type === "program" && this.isModuleVariable(this.b.text(name), program);
  }

  /**
   * Whether `this` at a node is the module's object: in `app[method] = function () {..}` (arrow
   * functions see through to it), where app is the module object or `exports`. Express declares its
   * `app.get`, `app.post`.. so, in a loop over the HTTP methods, each calling `this.lazyrouter()`.
   * A function declared by the assignment is the resolver's part (see `moduleThis`).
   */
  thisIsModule(at: Node): boolean {
    // Most files, TypeScript's all but always, have no module object: no walk up for their `this`.
    this.mentionsExports ??= this.b.source.includes("exports");
    if (!this.mentionsExports) return false;
    let fn = at.parent;
    while (fn && !THIS_BINDERS.has(fn.type)) fn = fn.parent;
    const assignment = fn?.type === "function_expression" ? fn.parent : null;
    if (assignment?.type !== "assignment_expression" || assignment.childForFieldName("right")?.id !== fn!.id)
      return false;
    const left = assignment.childForFieldName("left");
    if (left?.type !== "member_expression" && left?.type !== "subscript_expression") return false;
    const object = left.childForFieldName("object");
    if (object?.type !== "identifier") return false;
    return this.isExports(object) || this.isModuleVariable(this.b.text(object), at);
  }

  /**
   * Whether a top-level variable is the module's object: `var app = exports = module.exports = {}`.
   * `at` is any node of the file: its root is read once, when the file's module objects are found.
   */
  isModuleVariable(name: string, at: Node): boolean {
    this.moduleObjects ??= this.findModuleObjects(at.tree.rootNode);
    return this.moduleObjects.has(name);
  }

  private mentionsExports: boolean | null = null;

  /** The variables a file's top-level statements make its module (see `isModuleObject`). */
  private moduleObjects: Set<string> | null = null;

  private findModuleObjects(program: Node): Set<string> {
    const names = new Set<string>();
    for (const statement of program.namedChildren) {
      if (statement?.type === "variable_declaration" || statement?.type === "lexical_declaration") {
        for (const d of statement.namedChildren) {
          const name = d?.type === "variable_declarator" ? d.childForFieldName("name") : null;
          if (name?.type === "identifier" && this.assignsExports(d!.childForFieldName("value")))
            names.add(this.b.text(name));
        }
      } else if (statement?.type === "expression_statement") {
        // `module.exports = res`, `exports = module.exports = res`
        let value = statement.namedChild(0);
        if (value?.type !== "assignment_expression" || !this.isExports(value.childForFieldName("left"))) continue;
        while (value?.type === "assignment_expression") value = value.childForFieldName("right");
        if (value?.type === "identifier") names.add(this.b.text(value));
      }
    }
    return names;
  }

  /** Whether a value assigns the module's exports on its way: `exports = module.exports = {}`. */
  private assignsExports(value: Node | null): boolean {
    let v = value;
    while (v?.type === "parenthesized_expression") v = v.namedChild(0);
    for (; v?.type === "assignment_expression"; v = v.childForFieldName("right")) {
      if (this.isExports(v.childForFieldName("left"))) return true;
    }
    return false;
  }

  private isModuleExports(object: Node | null, property: Node | null): boolean {
    return (
      object?.type === "identifier" &&
      property !== null &&
      this.b.text(object) === "module" &&
      this.b.text(property) === "exports"
    );
  }

  /** The statement an assignment is, when it runs once as the module loads (see `runsOnce`). */
  private topLevelStatement(left: Node): Node | null {
    const statement = left.parent?.parent;
    return statement?.type === "expression_statement" && this.runsOnce(statement) ? statement : null;
  }

  /**
   * Whether a statement runs once, as the module loads: it stands at the top of the file, or at the
   * top of a function's body that is itself run once from such a statement. That function is called
   * where it stands (`(function () { .. })()`, `!function () { .. }()`, CoffeeScript's
   * `(function () { .. }).call(this)`), or is a module factory handed to a loader: a UMD wrapper's
   * (`})(this, function (exports) { .. })`) or AMD's `define`, told apart by a parameter for the
   * module (`exports`, `module`).
   */
  runsOnce(statement: Node, depth = 0): boolean {
    if (statement.parent?.type === "program") return true;
    const fn = depth > 4 ? null : enclosingFunction(statement);
    const call = fn ? this.callOf(fn) : null;
    let at = call?.parent;
    while (at && WRAPPERS.has(at.type)) at = at.parent;
    return at?.type === "expression_statement" && this.runsOnce(at, depth + 1);
  }

  /** The call that runs a function where it stands, or a module factory's loader call. */
  private callOf(fn: Node): Node | null {
    const direct = directCall(fn);
    if (direct) return direct;
    let at: Node = fn;
    while (at.parent?.type === "parenthesized_expression") at = at.parent;
    const parent = at.parent;
    if (parent?.type === "member_expression") {
      // `(function () {..}).call(this)`
      const method = this.b.text(parent.childForFieldName("property") ?? parent);
      const call = parent.parent;
      return (method === "call" || method === "apply") && call?.type === "call_expression" ? call : null;
    }
    if (parent?.type !== "arguments") return null;
    const params = fn.childForFieldName("parameters")?.namedChildren ?? [];
    return params.some((p) => p?.type === "identifier" && MODULE_PARAMS.has(this.b.text(p))) ? parent.parent : null;
  }
}

/** The function expression whose body a statement stands at the top of. */
function enclosingFunction(statement: Node | null): Node | null {
  const block = statement?.parent;
  const fn = block?.type === "statement_block" ? block.parent : null;
  return fn?.type === "function_expression" || fn?.type === "arrow_function" ? fn : null;
}

/** What gives `this` its value inside it: anything else (an arrow function, a block) sees through. */
const THIS_BINDERS = new Set([
  "function_expression",
  "function_declaration",
  "generator_function",
  "generator_function_declaration",
  "method_definition",
  "class_body",
  "program",
]);

/** The call of a function where it stands: `(function () {..})()`, `!function () {..}()`. */
function directCall(fn: Node): Node | null {
  let callee: Node = fn;
  while (callee.parent?.type === "parenthesized_expression") callee = callee.parent;
  const call = callee.parent;
  return call?.type === "call_expression" && call.childForFieldName("function")?.id === callee.id ? call : null;
}

/** What may stand between a call run once and its statement: `(..)`, `!..`, `a = ..`. */
const WRAPPERS = new Set(["parenthesized_expression", "unary_expression", "assignment_expression"]);

/** The parameter names that stand for the module being built, by CommonJS convention. */
const MODULE_PARAMS = new Set(["exports", "module"]);

/** `get x() {..}` or `set x(v) {..}`: read or written as a property, never called. */
function isAccessor(method: Node): boolean {
  const first = method.child(0);
  return first?.type === "get" || first?.type === "set";
}
