import type { Node, Parser, Tree } from "web-tree-sitter";
import type { Place } from "../builder.js";

/**
 * Items wrapped in a macro call: `cfg_rt! { pub fn spawn(..) {..} }`, `pin_project! { pub struct
 * Sleep {..} }`, `cfg_net! { impl TcpStream {..} }`. Crates gate whole APIs this way (130 of tokio's
 * 420 files: `spawn`, `TcpStream::connect`, `JoinHandle`), and the grammar leaves a macro's body as
 * tokens, so none of it was a symbol: `JoinHandle` found only a test mock. Such a body is parsed as
 * items in place: before the parse, the macro's name, its `!` and braces become spaces (same length,
 * same lines, so every position holds for the file's own text). Which calls qualify is read from
 * the text: a call at item level (in the file, an `impl`, `trait`, `mod` or `extern` block, or
 * another such body) whose body starts as items do. A body that then does not parse as items (a
 * DSL: `bitflags! { struct F: u32 {..} }`, `lazy_static! { static ref X: T = ..; }`) is put back
 * and the text parsed again. The calls of the macros unwrapped are kept (`unwrappedMacros`), as
 * their names are no longer in the tree.
 */

/** A macro call unwrapped: its name and where the name was. */
export interface UnwrappedMacro extends Place {
  name: string;
}

const unwrapped = new WeakMap<Tree, UnwrappedMacro[]>();

/** The macro calls unwrapped to make this tree, in file order. */
export function unwrappedMacros(tree: Tree): readonly UnwrappedMacro[] {
  return unwrapped.get(tree) ?? [];
}

/** A macro call's name and `!` then `{`, at the start of a line: the cheap test before any scan. */
const BRACE_MACRO = /^[ \t]*(?:#\[[^\n]*\][ \t]*)?[A-Za-z_]\w*![ \t]*\{/m;

/** How an item (or an attribute or doc comment before one) starts. */
const ITEM_START =
  /^(?:#|\/\/|\/\*|(?:pub|fn|struct|enum|union|impl|trait|mod|use|type|const|static|unsafe|async|extern|macro_rules)\b|[A-Za-z_]\w*[ \t]*![ \t]*[{(])/;

/** Attributes, then what a statement is: `impl`, `trait`, `mod` and `extern` blocks hold items. */
const ATTRIBUTES = /^(?:#!?\[(?:[^[\]]|\[[^[\]]*\])*\]\s*)*/;
const COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
const ITEM_BLOCK = /^(?:pub(?:\s*\([^)]*\))?\s+)?(?:unsafe\s+)?(?:default\s+)?(?:impl|trait|mod|extern)\b/;
const MACRO_CALL = /^([A-Za-z_]\w*)\s*!\s*$/;

/** Rounds of putting back misread bodies before giving up on the file's. */
const RECHECKS = 3;

/** Nodes whose children are items. */
const ITEM_LISTS = new Set(["source_file", "declaration_list"]);

/** A macro body found in the text: the span blanked before it (name to `{`) and its `}`. */
interface Body {
  name: string;
  start: number;
  open: number;
  close: number;
  /** Its line and column, for the call's reference. */
  row: number;
  column: number;
}

/** Parses Rust text with the item bodies of macro calls parsed as items (see above). */
export function parseWithMacroItems(parser: Parser, text: string): Tree | null {
  const bodies = BRACE_MACRO.test(text) ? itemBodies(text) : [];
  if (!bodies.length) return parser.parse(text);
  let kept = bodies;
  let tree = parser.parse(blanked(text, kept));
  // Error recovery can place one body's error in another, so each round puts back what it finds
  // misread until none is; after a few rounds, the text as written.
  for (let round = 0; tree && kept.length; round++) {
    const misread = misreadBodies(tree.rootNode, kept);
    if (!misread.size) break;
    const put = [...misread];
    kept = round < RECHECKS ? kept.filter((b) => !put.some((o) => o.open <= b.open && b.close <= o.close)) : [];
    tree.delete();
    tree = parser.parse(blanked(text, kept));
  }
  if (tree)
    unwrapped.set(
      tree,
      kept.map((b) => ({ name: b.name, startIndex: b.start, startPosition: { row: b.row, column: b.column } })),
    );
  return tree;
}

function blanked(text: string, bodies: readonly Body[]): string {
  let out = "";
  let at = 0;
  for (const span of bodies
    .flatMap((b) => [
      [b.start, b.open + 1],
      [b.close, b.close + 1],
    ])
    .sort((x, y) => x[0]! - y[0]!)) {
    out += text.slice(at, span[0]) + text.slice(span[0], span[1]).replace(/[^\n\r]/g, " ");
    at = span[1]!;
  }
  return out + text.slice(at);
}

/**
 * Bodies misread as items: with a syntax error of their own (not of a body inside them), or whose
 * last item runs on past them (`thread_local! { static X: T = v }` lacks the `;` an item needs, and
 * the parse takes the next items into its value).
 */
function misreadBodies(root: Node, bodies: readonly Body[]): Set<Body> {
  const out = new Set<Body>();
  if (!root.hasError) return out;
  for (const b of bodies) if (!ITEM_LISTS.has(root.descendantForIndex(b.close)?.type ?? "")) out.add(b);
  const cursor = root.walk();
  try {
    for (;;) {
      const n = cursor.currentNode;
      if (n.isError || n.isMissing) {
        let innermost: Body | null = null;
        for (const b of bodies)
          if (b.open < n.startIndex && n.startIndex < b.close && (!innermost || b.open > innermost.open)) innermost = b;
        if (innermost) out.add(innermost);
      } else if (n.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return out;
    }
  } finally {
    cursor.delete();
  }
}

/** A `{` and whether items go inside it, and the body it is, if a macro's. */
interface Frame {
  items: boolean;
  body: Body | null;
}

/**
 * What the scan stops at: comments, string and character literals (and lifetimes, which start like
 * one), and the brackets and `;` that shape statements. Everything between is skipped by the regular
 * expression engine: a loop over every character ran in V8's baseline tiers in the parse workers
 * (hot only briefly), which cost more than the parse it saved.
 */
const TOKENS = /\/\/|\/\*|(?<!\w)b?r#*"|(?<!\w)b['"]|["'(){}[\];]/g;
/** The rest of a string literal after its opening quote. */
const STRING_REST = /(?:[^"\\]|\\[\s\S])*"/y;
/** A character literal ('x', '\n', '\u{1F600}'), as against a lifetime ('a). */
const CHAR_LITERAL = /'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/y;

/**
 * The item bodies of macro calls, outermost first, read from the text: comments, strings and
 * character literals are skipped, and each `{` is classed by the statement it opens.
 */
function itemBodies(text: string): Body[] {
  const out: Body[] = [];
  const frames: Frame[] = [{ items: true, body: null }];
  let statement = 0; // where the current statement of the innermost `{` began
  let nesting = 0; // open `(` and `[` since then
  const tokens = new RegExp(TOKENS);
  for (let m = tokens.exec(text); m; m = tokens.exec(text)) {
    const i = m.index;
    const token = m[0];
    switch (token) {
      case "//": {
        const end = text.indexOf("\n", i);
        tokens.lastIndex = end < 0 ? text.length : end;
        break;
      }
      case "/*":
        tokens.lastIndex = blockCommentEnd(text, i);
        break;
      case "'":
      case "b'":
        CHAR_LITERAL.lastIndex = i + token.length - 1;
        if (CHAR_LITERAL.test(text)) tokens.lastIndex = CHAR_LITERAL.lastIndex;
        break;
      case "(":
      case "[":
        nesting++;
        break;
      case ")":
      case "]":
        if (nesting > 0) nesting--;
        break;
      case ";":
        if (nesting === 0) statement = i + 1;
        break;
      case "{": {
        const frame = frames[frames.length - 1]!;
        const opened = frame.items && nesting === 0 ? opening(text, statement, i) : { items: false, body: null };
        frames.push(opened);
        if (opened.body) out.push(opened.body);
        statement = i + 1;
        nesting = 0;
        break;
      }
      case "}": {
        const frame = frames.length > 1 ? frames.pop()! : null;
        if (frame?.body) frame.body.close = i;
        statement = i + 1;
        nesting = 0;
        break;
      }
      default: {
        // A string: `"`, `b"`, or raw, `r#"`.
        const hashes = token.length - token.indexOf("r") - 2;
        if (token.includes("r")) {
          const end = text.indexOf(`"${"#".repeat(hashes)}`, i + token.length);
          tokens.lastIndex = end < 0 ? text.length : end + 1 + hashes;
        } else {
          STRING_REST.lastIndex = i + token.length;
          tokens.lastIndex = STRING_REST.test(text) ? STRING_REST.lastIndex : text.length;
        }
      }
    }
  }
  // A body whose `}` never came (a file cut short) is left alone.
  const bodies = out.filter((b) => b.close > b.open);
  // Lines and columns of the macros' names, counted once in file order.
  let row = 0;
  let lineStart = 0;
  for (const b of bodies) {
    for (let nl = text.indexOf("\n", lineStart); nl >= 0 && nl < b.start; nl = text.indexOf("\n", nl + 1)) {
      row++;
      lineStart = nl + 1;
    }
    b.row = row;
    b.column = b.start - lineStart;
  }
  return bodies;
}

/** What a `{` at item level opens: a macro's item body, an item block, or anything else. */
function opening(text: string, statement: number, brace: number): Frame {
  const head = text.slice(statement, brace).replace(COMMENTS, "").trim().replace(ATTRIBUTES, "");
  const call = MACRO_CALL.exec(head);
  if (call) {
    const name = text.lastIndexOf(call[1]!, text.lastIndexOf("!", brace));
    const inside = text.slice(brace + 1, brace + 400).trimStart();
    if (!ITEM_START.test(inside)) return { items: false, body: null };
    return { items: true, body: { name: call[1]!, start: name, open: brace, close: -1, row: 0, column: 0 } };
  }
  return { items: ITEM_BLOCK.test(head), body: null };
}

/** The end of a block comment starting at `i` (they nest in Rust). */
function blockCommentEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length - 1; j++) {
    if (text.charCodeAt(j) === 47 && text.charCodeAt(j + 1) === 42) {
      depth++;
      j++;
    } else if (text.charCodeAt(j) === 42 && text.charCodeAt(j + 1) === 47) {
      if (--depth === 0) return j + 2;
      j++;
    }
  }
  return text.length;
}
