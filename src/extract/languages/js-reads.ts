import type { Node } from "web-tree-sitter";
import { READ_VALUE } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder } from "../builder.js";
import { capitalisedReads } from "../capitalised-reads.js";
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

/** What a bare name read is to the grammar: `{ MAX }` is a read too. */
const BARE_NAMES: ReadonlySet<string> = new Set(["identifier", "shorthand_property_identifier"]);
const MEMBER_NAMES: ReadonlySet<string> = new Set(["property_identifier"]);
