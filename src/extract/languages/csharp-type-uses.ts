import type { Node } from "web-tree-sitter";
import type { ExtractionBuilder, Place } from "../builder.js";
import { splitLast } from "../ts-helpers.js";

/**
 * Identifiers written where a type goes that name none: `dynamic` (parsed as a name), `typeof(void)`,
 * the `notnull` and `unmanaged` constraints, and `var` where the grammar does not make it an implicit
 * type.
 */
const NOT_TYPES = new Set(["dynamic", "void", "var", "notnull", "unmanaged"]);

/** Nodes of a written type whose every named child is a type (or holds one). */
const WRAPPERS = new Set([
  "nullable_type",
  "pointer_type",
  "ref_type",
  "scoped_type",
  "tuple_type",
  "function_pointer_type",
  "function_pointer_parameter",
  "type_argument_list",
]);

/** Nodes of a bare name or a dotted one, in the places a pattern or a constraint may hold a type. */
const NAMES = new Set(["identifier", "generic_name", "qualified_name", "alias_qualified_name"]);

interface PendingUse {
  at: Place;
  name: string;
  receiver: string | null;
}

/**
 * Each project type a C# type written in a declaration or an expression uses (`Order`, `List<Order>`,
 * `A.B.Item?[]`, `(Order, Item)`), as a `references` ref of the symbol around it: what `impact` and
 * `callers --all-uses` follow to a parameter's, return's, field's, local's, cast's or constraint's
 * type. Predefined types are nodes of their own and never reach here; a name any type parameter of
 * the file bears is dropped at `flush`, once all are known (a method's are matched after its return
 * type), as the file's variable types are. A `new`'s type is an `instantiates` and a base an
 * `extends`: only their type arguments are walked here.
 */
export class CSharpTypeUses {
  private readonly pending: PendingUse[] = [];
  /** Written types already walked: a declaration of several variables matches once per variable. */
  private readonly walked = new Set<number>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly typeField: number,
    private readonly dotted: (node: Node) => string | null,
  ) {}

  /** A written type, once per node. */
  use(type: Node | null): void {
    if (!type || this.walked.has(type.id)) return;
    this.walked.add(type.id);
    this.walk(type, 0);
  }

  /** Only a type's type arguments (`new List<Order>()`, `: Repo<Order>`), minus the declaring type's own name. */
  argumentsOf(type: Node, except: string | null = null, depth = 0): void {
    if (depth > 8) return;
    if (type.type === "generic_name") {
      const args = type.namedChild(1);
      if (args) this.walk(args, depth + 1, except);
    } else if (type.type === "qualified_name")
      for (const part of type.namedChildren) if (part) this.argumentsOf(part, except, depth + 1);
  }

  /** A type read from text rather than a node (a primary constructor's parameter): dotted, generics gone. */
  named(at: Place, dotted: string): void {
    const { receiver, name } = splitLast(dotted);
    this.pending.push({ at, name, receiver });
  }

  /**
   * `[Foo]` names the class `FooAttribute` (or `Foo`, when so declared, rarely). `at` is where the
   * declaration's own text starts: its attributes are outside its span, yet they belong to it.
   */
  attributes(lists: Node[], at: number, nameField: number): void {
    for (const list of lists)
      for (const attr of list.namedChildren) {
        if (attr?.type !== "attribute") continue;
        const nameNode = attr.childForFieldId(nameField);
        const dotted = nameNode ? this.dotted(nameNode) : null;
        if (!nameNode || !dotted) continue;
        const full = dotted.endsWith("Attribute") ? dotted : `${dotted}Attribute`;
        this.named({ startIndex: at, startPosition: nameNode.startPosition }, full);
        this.argumentsOf(nameNode);
      }
  }

  /**
   * A type an expression or a pattern holds: `(Foo)x`, `x as Foo`, `x is Foo[]`, `typeof(Foo)`,
   * `default(Foo)`, `sizeof(Foo)`, `new Foo[n]`, `x is Foo`, `Foo { X: 1 }`, `where T : IFoo`. A
   * bare name in a constant pattern may be a constant instead: resolved, it reaches only types.
   */
  inExpression(node: Node, rightField: number): void {
    switch (node.type) {
      case "cast_expression":
      case "default_expression":
      case "type_constraint":
        return this.use(node.childForFieldId(this.typeField));
      case "as_expression":
      case "is_expression":
        return this.use(node.childForFieldId(rightField));
      case "type_of_expression":
      case "size_of_expression":
      case "type_pattern":
      case "array_creation_expression":
      case "stack_alloc_array_creation_expression":
        return this.use(node.namedChild(0));
      case "constant_pattern":
      case "recursive_pattern": {
        const first = node.namedChild(0);
        if (first && NAMES.has(first.type)) this.use(first);
        return;
      }
    }
  }

  /** Hand the uses to the builder, minus the type parameters declared anywhere in the file. */
  flush(typeParams: Set<string>): void {
    for (const u of this.pending)
      if (u.receiver !== null || !typeParams.has(u.name)) this.b.ref("references", u.at, u.name, u.receiver);
  }

  private walk(t: Node, depth: number, except: string | null = null): void {
    if (depth > 12) return;
    switch (t.type) {
      case "identifier": {
        const name = this.b.text(t);
        if (!NOT_TYPES.has(name) && name !== except) this.pending.push({ at: t, name, receiver: null });
        return;
      }
      case "generic_name": {
        const head = t.namedChild(0);
        const name = head ? this.b.text(head) : "";
        if (name && name !== except) this.pending.push({ at: t, name, receiver: null });
        return this.argumentsOf(t, except, depth + 1);
      }
      case "qualified_name":
      case "alias_qualified_name": {
        const dotted = this.dotted(t);
        if (dotted) this.named(t, dotted);
        return this.argumentsOf(t, except, depth + 1);
      }
      case "array_type":
      case "tuple_element": {
        // An array's rank holds its lengths, a tuple element its name: values, not types.
        const inner = t.childForFieldId(this.typeField);
        if (inner) this.walk(inner, depth + 1, except);
        return;
      }
      default:
        if (WRAPPERS.has(t.type)) for (const k of t.namedChildren) if (k) this.walk(k, depth + 1, except);
    }
  }
}
