import type { Node } from "web-tree-sitter";
import { READ_VALUE } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder } from "../builder.js";
import { calledOrAssigned, capitalisedReads, isConstantName } from "../capitalised-reads.js";
import { inSpans, type Span } from "../spans.js";

const IMPORT_LINE = /^\s*import\b/;

/** How a language writes what `constantReads` looks for. */
export interface ConstantSyntax {
  /** The grammar's node type for a name read: `identifier`, `simple_identifier`. */
  nameType: string;
  /** What a bare name may be declared as in the file (or imported). */
  declaredKinds: ReadonlySet<NodeKind>;
  /** What joins a type or module to its member. */
  separator: "." | "::";
  /** Members of any case through a type (Rust's enum variants, `Mode::Fast`), not only capitals. */
  anyCaseMembers?: boolean;
  /** The spans of the file's imports (Rust's `use`), in order; without them, `importLine`'s lines. */
  imports?: readonly Span[];
  /** How a line that imports names starts (C#'s `using`, and `namespace`'s dotted name); `import` by default. */
  importLine?: RegExp;
  /** What a declaration writes before the name it declares with no `=` after it (Rust's `const MAX: u32`). */
  declaredAfter?: RegExp;
  /**
   * Where a grammar writes a type's dotted name with the same name nodes as a value's member (C#'s
   * `Geo.Figure` in a base list, a `qualified_name`): the node a member read is, around the object
   * and the member (`member_access_expression`).
   */
  memberExpression?: string;
  /** The node a declared name sits directly in, where the text shows no `=` after it (Java's `enum_constant`). */
  declaredIn?: string;
  /** Whether a bare name neither declared in the file nor imported by name may be read all the same (Java's inherited constants). */
  undeclared?: (name: string) => boolean;
  /** The type `Self` is at an offset (Rust's impl), for `Self::LIMIT`. */
  selfType?: (at: number) => string | null;
}

/**
 * Constants read (`READ_VALUE`) in Java, Kotlin, Rust and C#: a constant in capitals the file declares
 * or imports (`MAX_SIZE`), and a constant through a type (`Status.ACTIVE`, `Limits::MAX`,
 * `Self::LIMIT`); any capitalised name may be the type, as a package's types need no import.
 * Found in the text, then asked of the tree: only a name node of the grammar's is a read, so a name
 * in a string, comment or type is none; nor is one in an import, nor one through a lower-case
 * object (`config.MAX` reads a value's field; Rust's `limits::MAX` is a module's, and is read).
 */
export function constantReads(b: ExtractionBuilder, root: Node, syntax: ConstantSyntax): void {
  const source = b.source;
  let declared: Set<string> | null = null;
  const visit = ({ at, name, object }: { at: number; name: string; object: string | null }): void => {
    if (object === null || !syntax.anyCaseMembers || !/^[A-Z]/.test(object)) {
      if (!isConstantName(name)) return;
    }
    if (object === null) {
      if (!(declared ??= b.namesOf(syntax.declaredKinds)).has(name) && !b.imported(name) && !syntax.undeclared?.(name))
        return;
      if (syntax.declaredAfter?.test(source.slice(Math.max(0, at - 16), at))) return;
    } else if (syntax.separator === "." && !/^[A-Z]/.test(object)) return;
    if (syntax.imports) {
      if (inSpans(syntax.imports, at)) return;
    } else {
      const lineStart = source.lastIndexOf("\n", at) + 1;
      if ((syntax.importLine ?? IMPORT_LINE).test(source.slice(lineStart, lineStart + 24))) return;
    }
    const owner = object === "Self" && syntax.selfType ? syntax.selfType(at) : object;
    if (object === "Self" && !owner) return;
    let node: Node | null;
    if (object !== null && syntax.memberExpression) {
      const outer = root.descendantForIndex(at - syntax.separator.length - object.length, at + name.length);
      node = outer?.type === syntax.memberExpression ? outer.lastNamedChild : null;
    } else {
      node = root.descendantForIndex(at, at + name.length);
      if (syntax.declaredIn && node?.parent?.type === syntax.declaredIn) return;
    }
    if (node?.type === syntax.nameType) b.ref("references", node, name, `${READ_VALUE}${owner ?? ""}`);
  };
  capitalisedReads(source, visit, syntax.separator);
}

/**
 * Bare reads of `names`, named as types are (C#'s `MaxSides`, a class's `const` or static member,
 * read in its own class): each whole word of them in the text, not after a `.` (a member read, taken
 * above), not called nor assigned, kept only where the tree has a name node of `nameType` directly
 * in one of `readIn`: a value's places (an operand, an argument, a returned value), so that the same
 * word as a type (`Color Color { get; }`), a declaration or an object read through is none.
 */
export function namedReads(
  b: ExtractionBuilder,
  root: Node,
  names: readonly string[],
  nameType: string,
  readIn: ReadonlySet<string>,
): void {
  if (!names.length) return;
  const source = b.source;
  const pattern = new RegExp(`(?<![\\w$@.])(?:${names.join("|")})(?![\\w$])`, "g");
  for (const m of source.matchAll(pattern)) {
    const at = m.index;
    const name = m[0];
    if (calledOrAssigned(source, at + name.length)) continue;
    const node = root.descendantForIndex(at, at + name.length);
    if (node?.type === nameType && readIn.has(node.parent?.type ?? "")) b.ref("references", node, name, READ_VALUE);
  }
}
