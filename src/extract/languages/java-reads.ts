import type { Node } from "web-tree-sitter";
import { READ_VALUE } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder } from "../builder.js";
import { capitalisedReads } from "../capitalised-reads.js";

/** A constant's name, as Java writes static finals and enum constants: `MAX_SIZE`, `ACTIVE`. */
const CAPITALS = /^[A-Z][A-Z0-9_]+$/;
const FIELD_KINDS: ReadonlySet<NodeKind> = new Set(["property"]);

/**
 * Constants read (`READ_VALUE`): a field in capitals the file declares or imports statically
 * (`MAX_SIZE`), and a constant through a type (`Status.ACTIVE`, `Limits.MAX_SIZE`). Found in the
 * text, then asked of the tree: only an identifier is a read, so a name in a string, comment or type
 * is none; nor is one on an `import` line.
 */
export function javaReads(b: ExtractionBuilder, root: Node): void {
  const source = b.source;
  let fields: Set<string> | null = null;
  capitalisedReads(source, ({ at, name, object }) => {
    if (!CAPITALS.test(name)) return;
    if (object === null) {
      if (!(fields ??= b.namesOf(FIELD_KINDS)).has(name) && !b.imported(name)) return;
    } else if (!/^[A-Z]/.test(object)) return; // `config.MAX` reads a field of a value, not a type
    const lineStart = source.lastIndexOf("\n", at) + 1;
    if (/^\s*import\b/.test(source.slice(lineStart, lineStart + 16))) return;
    const node = root.descendantForIndex(at, at + name.length);
    if (node?.type === "identifier") b.ref("references", node, name, `${READ_VALUE}${object ?? ""}`);
  });
}
