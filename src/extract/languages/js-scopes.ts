import type { Node } from "web-tree-sitter";
import type { ExtractionBuilder } from "../builder.js";
import { FUNCTION_VALUES } from "../ts-helpers.js";

const FUNCTION_DECLARATIONS = new Set(["function_declaration", "generator_function_declaration", "method_definition"]);

/**
 * Which function a node is in, and which names a function binds, as one file's extraction saw them:
 * enough to tell whether a local's recorded type means the same in another function. A node's
 * `parent` costs a walk down from the root in web-tree-sitter, so functions found are remembered,
 * and declarations are collected as the query reports them rather than searched for.
 */
export class JsScopes {
  /** Where each name is declared (`var`, `let`, `const`, a function declaration). */
  private readonly declarations = new Map<string, number[]>();
  private readonly functionOf = new Map<number, Node | null>();
  private readonly statementStart = new Map<number, number>();
  private readonly parameterNames = new Map<number, Set<string>>();
  /** Where a name is declared as a plain value (`const x = 1`), which no symbol stands for in a function. */
  private readonly values = new Map<string, Node[]>();
  /** A function's parameters by name only (no type or default value written in them), see `hides`. */
  private readonly boundParameters = new Map<number, Set<string>>();

  constructor(private readonly b: ExtractionBuilder) {}

  /** A declaration of `name` at `at` (its identifier). */
  declared(at: Node): void {
    const name = this.b.text(at);
    let list = this.declarations.get(name);
    if (!list) this.declarations.set(name, (list = []));
    list.push(at.startIndex);
  }

  /** A declaration of `name` at `at` that holds a value, not a function (see `hides`). */
  declaredValue(at: Node): void {
    const name = this.b.text(at);
    let list = this.values.get(name);
    if (!list) this.values.set(name, (list = []));
    list.push(at);
  }

  /**
   * Whether `name` at `site` is a parameter or a plain local variable of a function around it: a
   * value no symbol stands for, which hides any function, class or import of that name
   * (`function run(handler) { handler(); }`, `decorators: [Story => <Story />]`). A local function
   * (`function helper() {}`, `const flush = () => ..`) is a symbol, found by its scope: not hidden.
   */
  hides(name: string, site: Node): boolean {
    for (let fn = this.innermostFunction(site); fn; fn = this.innermostFunction(fn)) {
      if (this.parametersBound(fn).has(name)) return true;
      // Its own locals, not those of a function inside it (a bundle's one wrapper holds them all).
      if (this.values.get(name)?.some((at) => this.innermostFunction(at)?.id === fn!.id)) return true;
      const body = fn.childForFieldName("body");
      if (body && this.declarations.get(name)?.some((p) => p >= body.startIndex && p < body.endIndex)) return false;
    }
    return false;
  }

  /** The names a function's parameters bind: each parameter's name, and the names a pattern binds. */
  private parametersBound(fn: Node): Set<string> {
    let names = this.boundParameters.get(fn.id);
    if (!names) {
      names = new Set();
      const single = fn.childForFieldName("parameter");
      const params = single ? [single] : (fn.childForFieldName("parameters")?.namedChildren ?? []);
      for (const p of params) if (p) bindingNames(p, (id) => names!.add(this.b.text(id)));
      this.boundParameters.set(fn.id, names);
    }
    return names;
  }

  /** The function a node is in (its body or parameters): the one whose locals it sees first. */
  innermostFunction(node: Node): Node | null {
    const known = this.functionOf.get(node.id);
    if (known !== undefined) return known;
    // Every node passed on the way up is in the same function: remembered too, as sites share them.
    const passed: number[] = [];
    let found: Node | null = null;
    for (let n = node.parent; n; n = n.parent) {
      if (FUNCTION_VALUES.has(n.type) || FUNCTION_DECLARATIONS.has(n.type)) {
        found = n;
        break;
      }
      const above = this.functionOf.get(n.id);
      if (above !== undefined) {
        found = above;
        break;
      }
      passed.push(n.id);
    }
    this.functionOf.set(node.id, found);
    for (const id of passed) this.functionOf.set(id, found);
    return found;
  }

  /**
   * The type recorded for a local `name` as seen from `site`: the innermost function that types it,
   * looking outwards, and stopping at one where it is an untyped parameter or declared untyped.
   */
  typeOfLocal(name: string, site: Node): string | null {
    // Typings before the statement: in `keys = wrap(keys)` the argument is what keys held before.
    let before = this.statementStart.get(site.id);
    if (before === undefined) this.statementStart.set(site.id, (before = statementOf(site).startIndex));
    for (let fn = this.innermostFunction(site); fn; fn = this.innermostFunction(fn)) {
      const type = this.b.typeRecordedBetween(name, fn.startIndex, before);
      if (type) return type;
      if (this.binds(fn, name)) return null;
    }
    return null;
  }

  /** The names a function's parameter list binds (a default value's names too: more is safer here). */
  private parameters(fn: Node): Set<string> {
    let names = this.parameterNames.get(fn.id);
    if (!names) {
      const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
      names = new Set(params ? this.b.text(params).match(PARAMETER_WORDS) : []);
      this.parameterNames.set(fn.id, names);
    }
    return names;
  }

  /** Whether a function has `name` as a parameter or declares it in its body. */
  binds(fn: Node, name: string): boolean {
    if (this.parameters(fn).has(name)) return true;
    const body = fn.childForFieldName("body");
    const at = this.declarations.get(name);
    return !!body && !!at && at.some((p) => p >= body.startIndex && p < body.endIndex);
  }
}

/**
 * The names a parameter or a declaration's left side binds, not those of its type or default value:
 * `x`, `x = 1`, `x?: T`, `...rest`, `{ a, b: c, d = f() }`, `[e, [g]]`.
 */
export function bindingNames(node: Node, found: (id: Node) => void): void {
  switch (node.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      return found(node);
    case "required_parameter":
    case "optional_parameter": {
      const pattern = node.childForFieldName("pattern");
      return pattern ? bindingNames(pattern, found) : undefined;
    }
    case "assignment_pattern":
    case "object_assignment_pattern": {
      const left = node.childForFieldName("left");
      return left ? bindingNames(left, found) : undefined;
    }
    case "pair_pattern": {
      const value = node.childForFieldName("value");
      return value ? bindingNames(value, found) : undefined;
    }
    case "rest_pattern":
    case "object_pattern":
    case "array_pattern":
      for (const k of node.namedChildren) if (k) bindingNames(k, found);
  }
}

/** Every name written in a parameter list, not after a dot: its parameters, destructured ones too (`{ stack }`). */
const PARAMETER_WORDS = /(?<![\w$.])[A-Za-z_$][\w$]*/g;

/** The statement or declaration a node is part of (itself, if it is one). */
function statementOf(node: Node): Node {
  for (let n: Node | null = node; n; n = n.parent)
    if (n.type.endsWith("_statement") || n.type.endsWith("_declaration")) return n;
  return node;
}
