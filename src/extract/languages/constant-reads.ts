import type { Node } from "web-tree-sitter";
import { READ_VALUE } from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import type { ExtractionBuilder } from "../builder.js";
import { capitalisedReads } from "../capitalised-reads.js";

/** A constant's name, as Java and Kotlin write static finals, `const val`s and enum constants. */
const CAPITALS = /^[A-Z][A-Z0-9_]+$/;
const IMPORT_LINE = /^\s*import\b/;

/**
 * Constants read (`READ_VALUE`) in Java and Kotlin: a field or constant in capitals the file
 * declares or imports (`MAX_SIZE`), and a constant through a type (`Status.ACTIVE`,
 * `Limits.MAX_SIZE`); any capitalised name may be the type, as a package's types need no import.
 * Found in the text, then asked of the tree: only a name node of the grammar's (`identifier`,
 * `simple_identifier`) is a read, so a name in a string, comment or type is none; nor is one on an
 * `import` line, nor one through a lower-case object (`config.MAX` reads a value's field).
 */
export function constantReads(
  b: ExtractionBuilder,
  root: Node,
  nameType: string,
  declaredKinds: ReadonlySet<NodeKind>,
): void {
  const source = b.source;
  let declared: Set<string> | null = null;
  capitalisedReads(source, ({ at, name, object }) => {
    if (!CAPITALS.test(name)) return;
    if (object === null) {
      if (!(declared ??= b.namesOf(declaredKinds)).has(name) && !b.imported(name)) return;
    } else if (!/^[A-Z]/.test(object)) return;
    const lineStart = source.lastIndexOf("\n", at) + 1;
    if (IMPORT_LINE.test(source.slice(lineStart, lineStart + 16))) return;
    const node = root.descendantForIndex(at, at + name.length);
    if (node?.type === nameType) b.ref("references", node, name, `${READ_VALUE}${object ?? ""}`);
  });
}
