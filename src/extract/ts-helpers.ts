import type { Node } from "web-tree-sitter";
import { ELEMENT, valueOfType } from "../core/extraction.js";

/** Node types whose whole text is one name. */
const SIMPLE_NAMES = new Set([
  "identifier",
  "type_identifier",
  "property_identifier",
  "private_property_identifier",
  "field_identifier",
  "package_identifier",
  "this",
  "super",
  "self",
]);

/**
 * The resolvable name of a type or callee expression: `Foo`, `ns.Foo`, `Foo<T>` → `Foo`,
 * `this.repo`. Returns null for anything computed (calls, indexing, literals).
 */
export function dottedName(node: Node, text: (n: Node) => string, depth = 0): string | null {
  if (depth > 8) return null;
  const t = node.type;
  if (SIMPLE_NAMES.has(t)) return text(node);
  switch (t) {
    case "member_expression":
    case "nested_type_identifier":
    case "nested_identifier":
    case "selector_expression":
    case "qualified_type":
    case "scoped_identifier":
    case "scoped_type_identifier":
    case "field_access":
    case "attribute":
    case "qualified_name": {
      const left =
        node.childForFieldName("object") ??
        node.childForFieldName("module") ??
        node.childForFieldName("operand") ??
        node.childForFieldName("package") ??
        node.childForFieldName("scope") ??
        node.namedChild(0);
      const right =
        node.childForFieldName("property") ??
        node.childForFieldName("name") ??
        node.childForFieldName("field") ??
        node.childForFieldName("attribute") ??
        node.namedChild(node.namedChildCount - 1);
      if (!left || !right || left.equals(right)) return null;
      const l = dottedName(left, text, depth + 1);
      return l ? `${l}.${text(right)}` : null;
    }
    case "generic_type":
    case "parameterized_type": {
      const inner = node.childForFieldName("name") ?? node.namedChild(0);
      return inner ? dottedName(inner, text, depth + 1) : null;
    }
    case "type_annotation":
    case "parenthesized_expression":
    case "non_null_expression": {
      const inner = node.namedChild(0);
      return inner ? dottedName(inner, text, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** Split `a.b.c` into receiver `a.b` and name `c`. */
export function splitLast(dotted: string): { receiver: string | null; name: string } {
  const i = dotted.lastIndexOf(".");
  return i < 0 ? { receiver: null, name: dotted } : { receiver: dotted.slice(0, i), name: dotted.slice(i + 1) };
}

/** Strip the quotes from a string literal's text. */
export function unquote(s: string): string {
  return s.replace(/^['"`]|['"`]$/g, "");
}

/**
 * A class, interface or object member's name as a reader would type it, when its key is not a plain
 * name: a quoted key without its quotes (`'quoted-name'() {}` is `quoted-name`), a computed key that
 * is only a string as that string (`["literal"]`), and any other computed key as written, without
 * the spaces just inside its brackets and with runs of spaces made one (`*[ Symbol.iterator ]()` is
 * `[Symbol.iterator]`, as most code spells it, and as an agent asks for it). Null for a plain name
 * (an identifier, `#private`, a number).
 */
export function memberKeyName(key: Node, text: (node: Node) => string): string | null {
  const type = key.type;
  if (type === "string") return unquote(text(key));
  if (type !== "computed_property_name") return null;
  const inner = key.namedChildren[0];
  if (!inner) return null;
  const plainString =
    inner.type === "string" ||
    (inner.type === "template_string" && !inner.namedChildren.some((c) => c?.type === "template_substitution"));
  return plainString ? unquote(text(inner)) : `[${text(inner).replace(/\s+/g, " ")}]`;
}

/** Type names that carry no project type: `x?: Foo | undefined` is a Foo. */
const EMPTY_TYPES = new Set(["undefined", "null", "void", "never"]);

/**
 * The one project type a type annotation names: `Foo`, `ns.Foo`, `Foo<T>`, `Foo | undefined`, `Foo[]`
 * is not one. Returns null for unions of several types, literals, functions and built-ins.
 */
/** Generic types whose one argument is their elements' type: `Array<Item>` is written `Item[]`. */
const COLLECTIONS = new Set([
  "Array",
  "ReadonlyArray",
  "Set",
  "ReadonlySet",
  "Iterable",
  "IterableIterator",
  "AsyncIterable",
  "AsyncIterableIterator",
]);

/**
 * A written type's name, or, for the constructor of `new Set<Item>()` or `new Array<Item>()`, the
 * collection's, written `Item[]` as `Set<Item>` is.
 */
export function constructedTypeName(node: Node, text: (n: Node) => string): string | null {
  const made = node.parent?.type === "new_expression" ? node.parent : null;
  const args = made?.childForFieldName("type_arguments")?.namedChildren;
  if (made && args?.length === 1 && COLLECTIONS.has(text(node))) {
    const inner = typeNameOf(args[0]!, text);
    return inner ? `${inner}[]` : null;
  }
  return typeNameOf(node, text);
}

const PROMISES = new Set(["Promise", "PromiseLike"]);

export function typeNameOf(node: Node, text: (n: Node) => string, depth = 0): string | null {
  if (depth > 6) return null;
  switch (node.type) {
    case "union_type": {
      const named: string[] = [];
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "predefined_type" || child.type === "literal_type") {
          if (!EMPTY_TYPES.has(text(child))) return null;
          continue;
        }
        const inner = typeNameOf(child, text, depth + 1);
        if (!inner) return null;
        named.push(inner);
      }
      return named.length === 1 ? named[0]! : null;
    }
    case "parenthesized_type":
    case "readonly_type": {
      const inner = node.namedChild(0);
      return inner ? typeNameOf(inner, text, depth + 1) : null;
    }
    case "array_type": {
      // `Item[]`: written so, an element of it is an Item (see ELEMENT).
      const element = node.namedChild(0);
      const inner = element ? typeNameOf(element, text, depth + 1) : null;
      return inner ? `${inner}[]` : null;
    }
    case "generic_type": {
      const name = node.childForFieldName("name");
      const args = node.childForFieldName("type_arguments")?.namedChildren;
      if (name && args?.length === 1 && COLLECTIONS.has(text(name))) {
        const inner = typeNameOf(args[0]!, text, depth + 1);
        return inner ? `${inner}[]` : null;
      }
      // `Promise<Repo>`: what awaiting it gives, which is how it is used (`(await find()).save()`,
      // `const r = await find()`); `find().then(..)` finds no `then` on Repo and makes no edge.
      if (name && args?.length === 1 && PROMISES.has(text(name))) return typeNameOf(args[0]!, text, depth + 1);
      return dottedName(node, text, depth + 1);
    }
    case "this_type":
      // `setA(): this`: the type the member belongs to (the resolver reads it so).
      return "this";
    case "predefined_type":
    case "literal_type":
    case "tuple_type":
    case "function_type":
    case "object_type":
      return null;
    default:
      return dottedName(node, text, depth + 1);
  }
}

/** A name without dots: what a cast's value is written with here, as `new Foo()` above (see `valueOfType`). */
const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * A receiver as a chain the resolver can follow: `this.#client.getCache()` (calls keep `()`, their
 * arguments dropped), `a!.b`, `new Foo()`, `(x as Foo)` as a Foo. Null for anything else.
 */
export function receiverExpression(node: Node, text: (n: Node) => string, depth = 0): string | null {
  if (depth > 8) return null;
  switch (node.type) {
    case "identifier":
    case "this":
    case "super":
    case "property_identifier":
    case "private_property_identifier":
      return text(node);
    case "member_expression": {
      const obj = node.childForFieldName("object");
      const prop = node.childForFieldName("property");
      if (!obj || !prop) return null;
      const left = receiverExpression(obj, text, depth + 1);
      return left ? `${left}.${text(prop)}` : null;
    }
    case "call_expression": {
      const fn = node.childForFieldName("function");
      const callee = fn ? receiverExpression(fn, text, depth + 1) : null;
      return callee ? `${callee}()` : null;
    }
    case "new_expression": {
      // `new Foo().m()`: an instance of Foo. Only a plain name: the resolver splits receivers at dots.
      const ctor = node.childForFieldName("constructor");
      return ctor?.type === "identifier" ? valueOfType(text(ctor)) : null;
    }
    case "as_expression":
    case "type_assertion": {
      // `(x as Repo).save()`, `(<Repo>x).save()`: a value of the type cast to, written as a made one.
      const type = node.type === "type_assertion" ? node.namedChild(0)?.namedChild(0) : node.namedChild(1);
      const name = type ? typeNameOf(type, text) : null;
      return name && PLAIN_NAME.test(name) ? valueOfType(name) : null;
    }
    case "subscript_expression": {
      // `items[i]`: an element of items.
      const obj = node.childForFieldName("object");
      const left = obj ? receiverExpression(obj, text, depth + 1) : null;
      return left ? `${left}${ELEMENT}` : null;
    }
    case "non_null_expression":
    case "parenthesized_expression":
    case "await_expression": {
      const inner = node.namedChild(0);
      return inner ? receiverExpression(inner, text, depth + 1) : null;
    }
    case "assignment_expression": {
      // `(this.#retryer = createRetryer(..))`: the value assigned.
      const right = node.childForFieldName("right");
      return right ? receiverExpression(right, text, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** How many parameters a function takes, as written (`x => ..` takes one). */
export function paramCount(fn: Node | null): number | null {
  if (!fn) return null;
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (!params) return null;
  if (params.type !== "formal_parameters") return 1;
  let n = 0;
  for (const p of params.namedChildren) if (p && p.type !== "comment") n++;
  return n;
}

/**
 * The function a call wraps, `wrap(function (code) {..})` or `memoize((x) => ..)`: its first argument
 * that defines a function, or null. What such a call returns holds that function's code.
 */
export function wrappedFunction(value: Node): Node | null {
  if (value.type !== "call_expression") return null;
  for (const arg of value.childForFieldName("arguments")?.namedChildren ?? [])
    if (arg && FUNCTION_VALUES.has(arg.type)) return arg;
  return null;
}

/** Values that define a function: what a variable, a property or a prototype member may be given. */
export const FUNCTION_VALUES: ReadonlySet<string> = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);
