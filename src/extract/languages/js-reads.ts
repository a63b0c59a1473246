import type { Node } from "web-tree-sitter";
import { READ_VALUE } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder } from "../builder.js";
import { capitalisedReads, isConstantName } from "../capitalised-reads.js";
import { inSpans, type Span } from "../spans.js";
import type { JsScopes } from "./js-scopes.js";

/** A name a declaration gives, which is no read: `const MAX: number = 3`, `enum LEVEL {`. */
const DECLARED_AFTER = /\b(?:const|let|var|enum|class|function|interface|type|namespace)\s+$/;

const CONSTANT_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "variable"]);
const OWNER_KINDS: ReadonlySet<NodeKind> = new Set(["class", "enum"]);

/**
 * Constants, enum members and static fields read (`READ_VALUE`): a name in capitals the file
 * declares or imports (`MAX_RETRIES`), and a member read through a class or enum the file declares,
 * or a capitalised import (`Level.High`, `Config.TIMEOUT`, `MathNode.NEGATE`). Found in the text,
 * then asked of the tree, so that a name in a string, a comment, a type, an import or an export list
 * is none; a bare name not where a parameter or plain local has it (`JsScopes.hides`).
 */
export class JsReads {
  /** Import statements and export lists, in order: their names are no reads. */
  private readonly lists: Span[] = [];

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly scopes: JsScopes,
  ) {}

  /** An import statement, or an export statement that lists names. */
  skip(statement: Node): void {
    this.lists.push({ start: statement.startIndex, end: statement.endIndex });
  }

  finish(root: Node): void {
    const source = this.b.source;
    let constants: Set<string> | null = null;
    let owners: Set<string> | null = null;
    capitalisedReads(source, ({ at, name, object }) => {
      if (object === null) {
        if (!(constants ??= this.b.namesOf(CONSTANT_KINDS)).has(name) && !this.b.imported(name)) return;
        if (DECLARED_AFTER.test(source.slice(Math.max(0, at - 16), at))) return;
      } else if (!(owners ??= this.b.namesOf(OWNER_KINDS)).has(object) && !this.b.imported(object)) return;
      this.read(root, at, name, object);
    });
    this.pascalCaseImports(root);
  }

  /**
   * An imported constant named as types are (three.js's `LinearFilter`, `SRGBColorSpace`): each
   * bare use of a capitalised import not in capitals, where the text shows no call (`Foo(`), no
   * construction (`new Foo`), no member read through it (`Foo.x`, read above), no base
   * (`extends Foo`), no `instanceof` (a class named as a value already), no JSX element (`<Foo`,
   * written without the space a comparison has: `n < Foo`). The resolver keeps it only if it
   * reaches a constant or variable.
   */
  private pascalCaseImports(root: Node): void {
    const names = this.b.importedNames().filter((n) => /^[A-Z]/.test(n) && !isConstantName(n));
    if (!names.length) return;
    const source = this.b.source;
    const pattern = names.map((n) => n.replace(/\$/g, "\\$")).join("|");
    for (const m of source.matchAll(new RegExp(`(?<![\\w$.])(?:${pattern})(?![\\w$])`, "g"))) {
      const at = m.index;
      const name = m[0];
      let i = at + name.length;
      while (source.charCodeAt(i) === 32) i++;
      const next = source.charCodeAt(i);
      const before = source.slice(Math.max(0, at - 16), at);
      // `var Worker = require("./worker")` declares the name it imports.
      if (next === OPEN_PAREN || next === DOT || NOT_VALUE_BEFORE.test(before) || DECLARED_AFTER.test(before)) continue;
      this.read(root, at, name, null);
    }
  }

  private read(root: Node, at: number, name: string, object: string | null): void {
    if (inSpans(this.lists, at)) return;
    const node = root.descendantForIndex(at, at + name.length);
    if (!node || !(object === null ? BARE_NAMES : MEMBER_NAMES).has(node.type)) return;
    // A capitalised object is seldom a local; asking costs a walk up the tree.
    if (object === null && this.scopes.hides(name, node)) return;
    this.b.ref("references", node, name, `${READ_VALUE}${object ?? ""}`);
  }
}

const OPEN_PAREN = 40;
const DOT = 46;
/** What a class or component is written after, where a constant never is (`new Foo`, `<Foo`). */
const NOT_VALUE_BEFORE = /(?:\bnew\s+|\bextends\s+|\binstanceof\s+|<\/?)$/;

/** What a bare name read is to the grammar: `{ MAX }` is a read too. */
const BARE_NAMES: ReadonlySet<string> = new Set(["identifier", "shorthand_property_identifier"]);
const MEMBER_NAMES: ReadonlySet<string> = new Set(["property_identifier"]);
