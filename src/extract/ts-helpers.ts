import type { Node } from "web-tree-sitter";

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
