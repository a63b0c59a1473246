import type { Node, QueryMatch } from "web-tree-sitter";

/**
 * The TypeScript/JavaScript query, and what its matches capture.
 *
 * Patterns name one node and no child, but for the most frequent: tree-sitter analyses the
 * grammar's parse states for each node type whose children a pattern reaches into, when the query
 * is compiled, and that is paid once per parse worker and once per sync of a few files. With the
 * parts matched by the query, TypeScript's compiled in 56 ms on V8's baseline tier (what a sync runs
 * on), a quarter of a one-file sync; now in 23 ms. The parts are read here instead (`capturesOf`),
 * into the same capture names the patterns gave them, so the extractor reads a match as it did.
 * Calls, assignments and declarators are the most frequent matches, whose parts the query hands
 * over for less than reading them here costs (three.js: 4% more extraction time with every pattern
 * flat); a returned object and a function-valued key are matched as before, as most returns and
 * keys are neither. Those five add 3 ms to the compile; each pattern left flat had cost 1 to 6.
 * What a declaration's type, value or return type says of local types is read by the extractor
 * from the node its symbol matched (`declaredTypes`, `memberType`, `ownReturnType`), and an
 * interface's or object type's members from its own (`signatureMembers`), for the same reason.
 */

export type Dialect = "ts" | "js";

/** Patterns shared by every dialect. */
const COMMON = `
(comment) @comment
(function_declaration) @def.function
(generator_function_declaration) @def.function
(method_definition) @def.method
(variable_declarator name: (_) @declarator.name) @declarator
(call_expression function: (_) @fn arguments: (_) @args) @call
(new_expression) @new
(return_statement (object) @lt.returnsObject)
(arrow_function) @arrow
(pair key: (_) @name value: [(arrow_function) (function_expression)] @body) @def.member
(for_in_statement) @forof
(catch_clause) @catch
"instanceof" @narrow
(import_statement) @import
(export_statement) @export
(assignment_expression left: (_) @assign.left right: (_) @assign.right)
(pair value: (identifier) @value)
(array (identifier) @value)
(object (shorthand_property_identifier) @value)
`;

const TS_ONLY = `
(return_statement (as_expression) @return.as)
(type_parameter) @tp
(function_signature) @def.signature
(class_declaration) @def.class
(abstract_class_declaration) @def.class
(interface_declaration) @def.interface
(type_alias_declaration) @def.type_alias
(enum_declaration) @def.enum
(enum_body) @enum_body
(enum_assignment) @def.enum_member
(internal_module) @def.namespace
(module) @def.namespace
(abstract_method_signature) @def.method
(public_field_definition) @def.property
(extends_clause) @extends_clause
(implements_clause) @implements_clause
(extends_type_clause) @extends_type_clause
(required_parameter) @param
(optional_parameter) @param
(method_signature) @method_signature
(type_annotation) @type_annotation
(type_arguments) @type_arguments
`;

/** Rendering a component is calling it: `<PriceTag />` calls PriceTag. Lower-case tags are HTML. */
const JSX = `
(jsx_self_closing_element) @jsx
(jsx_opening_element) @jsx
(jsx_expression) @jsx.value
`;

const JS_ONLY = `
(class_declaration) @def.class
(field_definition) @def.property
(class_heritage) @class_heritage
`;

export function queryFor(dialect: Dialect, jsx: boolean): string {
  return COMMON + (jsx ? JSX : "") + (dialect === "ts" ? TS_ONLY : JS_ONLY);
}

type Captures = Map<string, Node>;

const NONE: readonly Captures[] = [];

/** The captures of a pattern that reaches into its node's parts (a call, an assignment, a declarator, a key). */
function partsMatched(m: QueryMatch, dialect: Dialect): readonly Captures[] {
  const c: Captures = new Map();
  for (const { name, node } of m.captures) c.set(name, node);
  const declarator = c.get("declarator");
  if (declarator) {
    const id = c.get("declarator.name")!;
    if (id.type === "identifier") return one(["def.variable", declarator], ["name", id]);
    const value = id.type === "object_pattern" ? field(declarator, "value") : null;
    return value ? one(["lt.pattern", id], ["lt.from", value]) : NONE;
  }
  const left = c.get("assign.left")?.type;
  // CommonJS's `module.exports = ..` and `exports.x = ..` (see CommonJsExports); in JavaScript also a
  // variable declared apart from its value, as CoffeeScript writes every one.
  if (left && left !== "member_expression" && (dialect === "ts" || left !== "identifier")) return NONE;
  return [c];
}

/** A named node's field, as a query's `field: (_)` reads it (an anonymous child does not match). */
function field(node: Node, name: string): Node | null {
  const child = node.childForFieldName(name);
  return child?.isNamed ? child : null;
}

/** The named children of a node, comments included, as a query's `(parent (_) @x)` reads them. */
export function named(node: Node): Node[] {
  // `namedChild` has a fast path (see wasm-glue.ts); `namedChildren` walks a cursor in the library.
  const out: Node[] = [];
  for (let i = 0, n = node.namedChildCount; i < n; i++) {
    const child = node.namedChild(i);
    if (child) out.push(child);
  }
  return out;
}

/** The named children of a node in one field (`extends A, B`). */
function namedInField(node: Node, name: string): Node[] {
  const out: Node[] = [];
  for (const child of node.childrenForFieldName(name)) if (child?.isNamed) out.push(child);
  return out;
}

function one(...pairs: [string, Node][]): readonly Captures[] {
  return [new Map(pairs)];
}

function each(nodes: Node[], capture: string): readonly Captures[] {
  return nodes.map((n) => new Map([[capture, n]]));
}

/**
 * Definitions: the field that names each, the type that name must have (none: any named node),
 * and whether a body is required (a match lacking one was no match).
 */
const DEFINITIONS: Record<string, { name: string; nameType?: string; body?: true }> = {
  function_declaration: { name: "name", nameType: "identifier", body: true },
  generator_function_declaration: { name: "name", nameType: "identifier", body: true },
  method_definition: { name: "name", body: true },
  function_signature: { name: "name", nameType: "identifier" },
  class_declaration: { name: "name", body: true },
  abstract_class_declaration: { name: "name", body: true },
  interface_declaration: { name: "name", body: true },
  type_alias_declaration: { name: "name" },
  enum_declaration: { name: "name", body: true },
  enum_assignment: { name: "name", nameType: "property_identifier" },
  internal_module: { name: "name", body: true },
  module: { name: "name", body: true },
  abstract_method_signature: { name: "name" },
  public_field_definition: { name: "name" },
  field_definition: { name: "property" },
};

function definition(capture: string, def: Node): readonly Captures[] {
  const spec = DEFINITIONS[def.type];
  if (!spec) return NONE;
  const name = field(def, spec.name);
  if (!name || (spec.nameType && name.type !== spec.nameType)) return NONE;
  if (!spec.body) return one([capture, def], ["name", name]);
  const body = field(def, "body");
  return body ? one([capture, def], ["name", name], ["body", body]) : NONE;
}

/** `: T`: the type written, under the capture the matching pattern gave it. */
function annotationType(annotation: Node | null, capture: string, pairs: [string, Node][] = []): Captures[] {
  if (annotation?.type !== "type_annotation") return [];
  return named(annotation).map((t) => new Map([...pairs, [capture, t]]));
}

/** An object literal directly in `node` (a returned `{..}`), as `(node (object) @x)` finds it. */
function objectsIn(node: Node): Captures[] {
  return named(node)
    .filter((n) => n.type === "object")
    .map((n) => new Map([["lt.returnsObject", n]]));
}

/**
 * The captures of one match, as the patterns that matched parts of the node gave them: none when
 * those patterns would not have matched, several when several would (or one would, more than once).
 */
export function capturesOf(m: QueryMatch, dialect: Dialect): readonly Captures[] {
  if (m.captures.length > 1) return partsMatched(m, dialect);
  const capture = m.captures[0]!;
  const node = capture.node;
  const name = capture.name;
  if (name.startsWith("def.")) return definition(name, node);
  switch (name) {
    case "comment":
    case "lt.returnsObject":
    case "narrow":
    case "import":
    case "export":
      return one([name, node]);
    case "new": {
      const fn = field(node, "constructor");
      return fn ? one(["new", node], ["fn", fn]) : NONE;
    }
    case "return.as":
      return objectsIn(node);
    case "arrow": {
      const body = field(node, "body");
      const found = body?.type === "parenthesized_expression" ? objectsIn(body) : [];
      if (dialect === "ts") found.push(...annotationType(field(node, "return_type"), "lt.return"));
      return found;
    }
    case "catch": {
      const param = field(node, "parameter");
      return param?.type === "identifier" ? one(["catch", param]) : NONE;
    }
    case "forof": {
      const left = field(node, "left");
      return left?.type === "identifier" ? one(["forof", node], ["forof.name", left]) : NONE;
    }
    case "value":
      return one([name, node]);
    case "jsx.value": {
      // `onClick={handleClick}`, `onClick={this.handleClick}`: a name as the whole expression.
      const value = node.namedChildCount === 1 ? node.namedChild(0) : null;
      return value?.type === "identifier" || value?.type === "member_expression" ? one(["value", value]) : NONE;
    }
    case "jsx": {
      const tag = field(node, "name");
      return tag?.type === "identifier" || tag?.type === "member_expression" ? one(["jsx", tag]) : NONE;
    }
    case "tp": {
      const id = field(node, "name");
      if (id?.type !== "type_identifier") return NONE;
      // Every type parameter declares its name where it is written (see `TsFile.typeParameter`).
      const declared: Captures[] = [new Map([["tp.decl", id]])];
      const constraint = field(node, "constraint");
      if (constraint?.type !== "constraint") return declared;
      return [
        ...declared,
        ...named(constraint).map(
          (bound) =>
            new Map([
              ["tp.name", id],
              ["tp.bound", bound],
            ]),
        ),
      ];
    }
    case "enum_body":
      return each(
        namedInField(node, "name").filter((n) => n.type === "property_identifier"),
        "def.enum_member",
      );
    case "extends_clause":
      return each(namedInField(node, "value"), "extends");
    case "extends_type_clause":
      return each(namedInField(node, "type"), "extends");
    case "implements_clause":
      return each(named(node), "implements");
    case "class_heritage":
      return each(named(node), "extends");
    case "param": {
      const id = field(node, "pattern");
      if (id?.type !== "identifier") return NONE;
      return annotationType(field(node, "type"), "lt.type", [
        ["lt.param", node],
        ["lt.name", id],
      ]);
    }
    case "method_signature":
      return annotationType(field(node, "return_type"), "lt.return");
    case "type_annotation": {
      const found: Captures[] = [];
      for (const t of named(node)) {
        // `: Foo`, `: a.Foo`, `: Foo<T>` (whose name only, when it is a plain one).
        const ref = t.type === "generic_type" ? field(t, "name") : t;
        if (ref && (ref.type === "type_identifier" || t.type === "nested_type_identifier"))
          found.push(new Map([["typeref", ref]]));
      }
      return found;
    }
    case "type_arguments":
      return each(
        named(node).filter((t) => t.type === "type_identifier"),
        "typeref",
      );
    default:
      return NONE;
  }
}
