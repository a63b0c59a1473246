import type { Node } from "web-tree-sitter";
import {
  ELEMENT,
  IMPLICIT_RECEIVER,
  type ExtractResult,
  type ExtractedSymbol,
  type ImportBinding,
  type LocalType,
  type RawReference,
  type RefKind,
} from "../core/extraction.js";
import { CALLABLE_KINDS, TYPE_KINDS, type NodeKind } from "../core/kinds.js";
import { C_COMMENTS, withoutComments, type CommentSyntax } from "./source-text.js";

/** A name standing for an element of a value between two offsets (see `bindElement`). */
interface ElementBinding {
  name: string;
  start: number;
  end: number;
  element: string;
  /** Holds there whatever the name is elsewhere (see `narrow` and `typedAround`). */
  certain: boolean;
}

/** Where a reference is: a node, or the place of one the tree no longer holds (Rust's unwrapped macro calls). */
export type Place = Pick<Node, "startIndex" | "startPosition">;

interface PendingSymbol extends Omit<ExtractedSymbol, "parent" | "qualifiedName" | "docstring"> {
  start: number;
  end: number;
  docstring: string | null;
  /** Row where the declaration (with its export/decorators) begins, for finding a comment right above it. */
  docRow: number;
  owner: string | null;
  typeMember: boolean;
  memberOf: number | null;
  onlyOfClass: boolean;
}

interface PendingRef extends Omit<RawReference, "from"> {
  at: number;
  /** Attribute the reference to the type with this qualified name in the file, not to where it is written. */
  fromType: string | null;
}

interface PendingType {
  at: number;
  name: string;
  typeName: string;
  line: number;
}

export interface SymbolOptions {
  /** The declaration's name; defaults to the text of `nameNode`. */
  name?: string;
  /** Where the signature stops (usually the body's start); defaults to the end of the first line. */
  signatureEnd?: number;
  /** The signature runs to `signatureEnd` over any number of lines (C's return type above the name). */
  multilineSignature?: boolean;
  /** The signature itself, when it is not the declaration's head (a constant typed by call signatures). */
  signatureText?: string;
  exported?: boolean;
  visibility?: ExtractedSymbol["visibility"];
  paramCount?: number | null;
  isStatic?: boolean;
  /** An explicit docstring (Python); otherwise the comment block right above `docNode` or `node`. */
  docstring?: string | null;
  /** The outermost node of the declaration (an `export` statement, decorators) for comment lookup. */
  docNode?: Node;
  /**
   * Where the declaration belongs when that is not where it is written: a Go method
   * `func (s *Server) Run()` belongs to `Server`. Becomes the prefix of the qualified name.
   */
  owner?: string;
  /**
   * A member of the type it is written in, though inside one of its methods: JavaScript's
   * `this.render = function () {..}` in a constructor. Its parent is the innermost type around it.
   */
  typeMember?: boolean;
  /**
   * A member of the declaration that starts at this offset, though written apart from it: JavaScript's
   * `Shape.prototype.area = function () {..}` after `function Shape(name) {..}`, which makes the
   * function a class. Dropped when no function, variable or class starts there, or it starts after
   * the member.
   */
  memberOf?: number;
  /** With `memberOf`: a member only if that declaration is a class by then (`Shape.create = function`). */
  onlyOfClass?: boolean;
}

/** Kinds of the declarations a member written apart from them makes classes (see `memberOf`). */
const MADE_CLASSES: ReadonlySet<NodeKind> = new Set(["function", "variable", "constant"]);

const MAX_SIGNATURE = 300;
/** JSDoc tags that make a block the file's header rather than the next declaration's doc. */
const FILE_HEADER_TAG = /@(?:license|preserve|copyright|module|file|fileoverview|overview)\b/;
const MAX_DOC = 2000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Collects one file's declarations and references in any order, then works out containment,
 * qualified names and the enclosing symbol of each reference from byte ranges alone, so extractors
 * can use flat tree-sitter queries instead of walking the tree from JavaScript.
 */
export class ExtractionBuilder {
  private readonly symbols: PendingSymbol[] = [];
  private readonly refs: PendingRef[] = [];
  private readonly types: PendingType[] = [];
  /** `types` by name, made when first asked for (a file with neither `push` nor local functions never is). */
  private typesByName: Map<string, PendingType[]> | null = null;
  private readonly elements: ElementBinding[] = [];
  /** Ranges whose bare calls may be on a receiver (see `implicitReceiver`). */
  private readonly implicit: { start: number; end: number; receiver: string }[] = [];
  private readonly imports: ImportBinding[] = [];
  /** Comment blocks keyed by their last row. */
  private readonly commentsByEndRow = new Map<number, { startRow: number; text: string }>();
  /** JSDoc blocks followed by blank lines, keyed by the last blank row (see `jsDocAcrossBlankLines`). */
  private readonly jsDocsByGapEndRow = new Map<number, string>();

  /** `comments`: how the language writes them, for signatures, which leave them out. */
  constructor(
    readonly source: string,
    private readonly comments: CommentSyntax = C_COMMENTS,
  ) {}

  /** Text of a node, sliced from the JS string rather than copied out of WASM. */
  text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  /**
   * A comment that may document the declaration below it. One after code on its line
   * (`x = 1; // note`, or the `@class` block comment TypeScript writes in `var Dog = ... (function`)
   * is about that code, and documents nothing: it used to become the docstring of whatever was
   * declared on the next line.
   */
  comment(node: Node): void {
    if (!this.startsLine(node.startIndex)) return;
    const endRow = node.endPosition.row;
    const startRow = node.startPosition.row;
    const prev = this.commentsByEndRow.get(startRow - 1);
    const text = this.text(node);
    // Consecutive line comments form one block.
    if (prev) {
      this.commentsByEndRow.delete(startRow - 1);
      this.commentsByEndRow.set(endRow, { startRow: prev.startRow, text: `${prev.text}\n${text}` });
    } else {
      this.commentsByEndRow.set(endRow, { startRow, text });
    }
  }

  /**
   * A `/** .. *\/` block with blank lines between it and the next code still documents that code,
   * as TypeScript reads JSDoc (Express writes `@param {Layer} layer`, a blank line, then the
   * function). A file's header documents the file, not the code below: the block the file opens
   * with (blueprint's copyright notices), or one with a header's tag (`@license`, `@module`, ...).
   */
  jsDocAcrossBlankLines(node: Node): void {
    const src = this.source;
    if (!src.startsWith("/**", node.startIndex) || !this.startsLine(node.startIndex)) return;
    if (!/\S/.test(src.slice(0, node.startIndex))) return;
    let row = node.endPosition.row;
    let i = node.endIndex;
    let blank = 0;
    for (; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === 10) {
        row++;
        blank++;
      } else if (c !== 32 && c !== 9 && c !== 13) break;
    }
    // One newline ends the comment's own line: a blank line needs a second.
    if (blank < 2 || i === src.length) return;
    const text = this.text(node);
    if (FILE_HEADER_TAG.test(text)) return;
    this.jsDocsByGapEndRow.set(row - 1, text);
  }

  /** Whether only spaces and tabs come before `at` on its line. */
  private startsLine(at: number): boolean {
    const src = this.source;
    for (let i = at - 1; i >= 0; i--) {
      const c = src.charCodeAt(i);
      if (c === 10 || c === 13) return true;
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }

  /** The raw text of the comment block that ends on the row before `row`, or null. */
  commentAbove(row: number): string | null {
    return this.commentsByEndRow.get(row - 1)?.text ?? this.jsDocsByGapEndRow.get(row - 1) ?? null;
  }

  symbol(kind: NodeKind, node: Node, nameNode: Node | null, options: SymbolOptions = {}): void {
    const name = options.name ?? (nameNode ? this.text(nameNode) : "");
    if (!name) return;
    // Each position getter is a call into WASM: read each once.
    const start = node.startIndex;
    const end = node.endIndex;
    const startPosition = node.startPosition;
    const endPosition = node.endPosition;
    this.symbols.push({
      kind,
      name,
      start,
      end,
      startLine: startPosition.row + 1,
      startCol: startPosition.column,
      endLine: endPosition.row + 1,
      endCol: endPosition.column,
      signature:
        options.signatureText !== undefined
          ? clip(options.signatureText.replace(/\s+/g, " ").trim(), MAX_SIGNATURE)
          : this.signature(start, options.signatureEnd ?? end, options.multilineSignature === true),
      docstring: options.docstring ?? null,
      docRow: options.docNode ? options.docNode.startPosition.row : startPosition.row,
      exported: options.exported ?? false,
      visibility: options.visibility ?? null,
      paramCount: options.paramCount ?? null,
      isStatic: options.isStatic ?? false,
      owner: options.owner ?? null,
      typeMember: options.typeMember ?? false,
      memberOf: options.memberOf ?? null,
      onlyOfClass: options.onlyOfClass ?? false,
    });
  }

  ref(kind: RefKind, at: Place, name: string, receiver: string | null, argCount: number | null = null): void {
    this.addRef(kind, at, name, receiver, argCount);
  }

  /**
   * A reference made on behalf of a type declared elsewhere in the file: Rust's `impl Trait for Point`
   * is written apart from `struct Point`, yet Point is what implements Trait. Dropped when the file
   * declares no type of that qualified name (the edge would otherwise start at the file).
   */
  typeRef(kind: RefKind, at: Node, name: string, receiver: string | null, fromType: string): void {
    this.addRef(kind, at, name, receiver, null, fromType);
  }

  private addRef(
    kind: RefKind,
    at: Place,
    name: string,
    receiver: string | null,
    argCount: number | null,
    fromType: string | null = null,
  ): void {
    if (!name) return;
    this.refs.push({
      kind,
      at: at.startIndex,
      name,
      receiver,
      line: at.startPosition.row + 1,
      col: at.startPosition.column,
      argCount,
      fromType,
    });
  }

  import(binding: ImportBinding): void {
    this.imports.push(binding);
  }

  /** The names of the symbols so far of these kinds (only the static ones, with `staticOnly`). */
  namesOf(kinds: ReadonlySet<NodeKind>, staticOnly = false): Set<string> {
    const names = new Set<string>();
    for (const s of this.symbols) if (kinds.has(s.kind) && (!staticOnly || s.isStatic)) names.add(s.name);
    return names;
  }

  /** The names the file's imports so far bind (not those it re-exports). */
  importedNames(): string[] {
    const names: string[] = [];
    for (const b of this.imports) if (!b.reexport && b.local) names.push(b.local);
    return names;
  }

  /** Whether an import so far binds `local` in this file. */
  imported(local: string): boolean {
    return this.imports.some((b) => b.local === local && !b.reexport);
  }

  /** Record that `name` holds a `typeName` in the scope around `at`. Names starting with `this.` are fields. */
  localType(at: Node, name: string, typeName: string): void {
    if (!name || !typeName) return;
    const t = { at: at.startIndex, name, typeName, line: at.startPosition.row + 1 };
    this.types.push(t);
    if (this.typesByName) addTo(this.typesByName, t);
  }

  /** Whether any type is recorded for `name`, anywhere in the file. */
  hasRecordedType(name: string): boolean {
    return this.byName().has(name);
  }

  /** The type last recorded for `name` between two offsets (a function, up to where it is used), or null. */
  typeRecordedBetween(name: string, start: number, end: number): string | null {
    const named = this.byName().get(name) ?? [];
    // Recorded in match order, which is the source's: the search stops once it is before `start`.
    for (let i = named.length - 1; i >= 0; i--) {
      const t = named[i]!;
      if (t.at < start) return null;
      if (t.at < end) return t.typeName;
    }
    return null;
  }

  /**
   * Between two offsets, `name` stands for an element of `value` (a receiver chain): a `for..of` loop's
   * variable, a callback's parameter (`items.forEach((x) => ...)`). Receivers and local types headed
   * by the name there are read as `value[0]` (see ELEMENT), which the resolver types by the element
   * type `value`'s type names. Neither loops nor callbacks are symbols, so no scope could hold it.
   */
  bindElement(name: string, start: number, end: number, value: string): void {
    if (value !== "?") this.bindValue(name, start, end, `${value}${ELEMENT}`);
  }

  /**
   * As `bindElement`, for a loop whose variable is always a new name (Rust's `for tx in pending`): it
   * holds though the name is typed elsewhere in the function (`let (tx, rx) = ..` before it), and
   * where `value` cannot be read, the name is of no known type in the loop rather than the outer one's.
   */
  bindNewElement(name: string, start: number, end: number, value: string): void {
    this.narrow(name, start, end, value === "?" ? "?" : `${value}${ELEMENT}`);
  }

  /**
   * Between two offsets, bare calls may be on `receiver` (see IMPLICIT_RECEIVER): a lambda given where
   * the callee may take a lambda with a receiver. The innermost range around a call wins.
   */
  implicitReceiver(start: number, end: number, receiver: string): void {
    if (receiver !== "?") this.implicit.push({ start, end, receiver });
  }

  /** As `bindElement`, for `name` standing for `value` itself (a promise's callback gets its value). */
  bindValue(name: string, start: number, end: number, value: string): void {
    if (name && value !== "?") this.elements.push({ name, start, end, element: value, certain: false });
  }

  /**
   * Between two offsets, `name` is `value` (usually `valueOfType(T)`) even where it is typed otherwise
   * around them: a branch a type test guards, a type switch's case (Go's `switch n := n.(type)`).
   */
  narrow(name: string, start: number, end: number, value: string): void {
    if (name) this.elements.push({ name, start, end, element: value, certain: true });
  }

  /**
   * Receivers and local types headed by an element binding's name, within it, in its terms (innermost
   * wins), up to where the name is assigned again in it (`for x in xs: x = Wrap(x)`). A name typed
   * elsewhere in the same function (`var lval lvalue` before `for _, lval := range lvals`) keeps that
   * type: where the element cannot be typed (`lvals := make(...)`), it is the better guess, and where
   * it can, they agree.
   */
  private applyElements(): void {
    if (!this.elements.length) return;
    const bindings = this.elements
      .filter((e) => e.certain || !this.typedAround(e))
      .sort((a, b) => a.end - a.start - (b.end - b.start));
    for (const e of bindings)
      for (const t of this.types) if (t.name === e.name && e.start <= t.at && t.at < e.end) e.end = t.at;
    const rewrite = (text: string, at: number): string => {
      const dot = text.indexOf(".");
      const head = dot < 0 ? text : text.slice(0, dot);
      for (const e of bindings)
        if (e.name === head && e.start <= at && at < e.end) return e.element + (dot < 0 ? "" : text.slice(dot));
      return text;
    };
    for (const r of this.refs) if (r.receiver) r.receiver = rewrite(r.receiver, r.at);
    for (const t of this.types) t.typeName = rewrite(t.typeName, t.at);
  }

  /** Bare calls inside an implicit receiver's range (the innermost) are marked with it. */
  private applyImplicitReceivers(): void {
    if (!this.implicit.length) return;
    for (const r of this.refs) {
      if (r.receiver !== null || r.kind !== "calls") continue;
      let best: { start: number; end: number; receiver: string } | null = null;
      for (const i of this.implicit)
        if (i.start <= r.at && r.at < i.end && (!best || i.end - i.start < best.end - best.start)) best = i;
      if (best) r.receiver = `${IMPLICIT_RECEIVER}${best.receiver}`;
    }
  }

  /** Whether the binding's name has a type outside it, within the innermost function (or file) around it. */
  private typedAround(e: ElementBinding): boolean {
    let from = 0;
    let to = this.source.length;
    for (const s of this.symbols)
      if (CALLABLE_KINDS.has(s.kind) && s.start <= e.start && e.end <= s.end && s.start >= from)
        [from, to] = [s.start, s.end];
    for (const t of this.types)
      if (t.name === e.name && from <= t.at && t.at < to && (t.at < e.start || t.at >= e.end)) return true;
    return false;
  }

  /**
   * The symbols to emit: all but members written apart (`memberOf`) whose declaration is not there
   * before them, or is not a class when they ask for one. With them, the declarations they name, by
   * start offset (each to be mapped to its index in the output), and those of them that become classes.
   */
  private membersApart(): { kept: PendingSymbol[]; owners: Map<number, number>; promoted: Set<number> } {
    if (!this.symbols.some((s) => s.memberOf !== null))
      return { kept: this.symbols, owners: new Map(), promoted: new Set() };
    const owners = new Map<number, number>();
    const promoted = new Set<number>();
    const declared = new Map<number, NodeKind>();
    for (const s of this.symbols) {
      if (s.memberOf === null) continue;
      owners.set(s.memberOf, -1);
      if (!s.onlyOfClass) promoted.add(s.memberOf);
    }
    for (const s of this.symbols)
      if (owners.has(s.start) && (s.kind === "class" || MADE_CLASSES.has(s.kind))) declared.set(s.start, s.kind);
    const kept = this.symbols.filter((s) => {
      if (s.memberOf === null) return true;
      const kind = declared.get(s.memberOf);
      if (kind === undefined || s.memberOf >= s.start) return false;
      return !s.onlyOfClass || kind === "class" || promoted.has(s.memberOf);
    });
    return { kept, owners, promoted };
  }

  finish(packageName: string | null, syntaxErrors: number): ExtractResult {
    this.applyElements();
    this.applyImplicitReceivers();
    // Parents before children: by start ascending, then by end descending (the sort is stable).
    const { kept, owners, promoted } = this.membersApart();
    const sorted = kept.slice().sort((a, b) => a.start - b.start || b.end - a.end);
    const out: ExtractedSymbol[] = [];
    const stack: number[] = [];
    for (let i = 0; i < sorted.length; i++) {
      const s = sorted[i]!;
      while (stack.length && sorted[stack[stack.length - 1]!]!.end <= s.start) stack.pop();
      let parent = stack.length ? stack[stack.length - 1]! : -1;
      if (s.typeMember) {
        let at = stack.length - 1;
        while (at >= 0 && !TYPE_KINDS.has(out[stack[at]!]!.kind)) at--;
        parent = at >= 0 ? stack[at]! : -1;
      }
      if (s.memberOf !== null) parent = owners.get(s.memberOf)!;
      const parentSym = parent >= 0 ? out[parent] : undefined;
      let kind = s.kind;
      if (owners.has(s.start) && (kind === "class" || MADE_CLASSES.has(kind))) {
        owners.set(s.start, out.length);
        if (promoted.has(s.start)) kind = "class";
      }
      out.push({
        kind,
        name: s.name,
        qualifiedName: s.owner
          ? `${s.owner}.${s.name}`
          : parentSym && parentSym.kind !== "import"
            ? `${parentSym.qualifiedName}.${s.name}`
            : s.name,
        parent,
        startLine: s.startLine,
        startCol: s.startCol,
        endLine: s.endLine,
        endCol: s.endCol,
        signature: s.signature,
        docstring: s.docstring ?? this.docAbove(s.docRow),
        exported: s.exported,
        visibility: s.visibility,
        paramCount: s.paramCount,
        isStatic: s.isStatic,
      });
      stack.push(out.length - 1);
    }
    const scopeOf = this.scopeFinder(sorted, out);
    const typeIndex = (qname: string) => out.findIndex((s) => s.qualifiedName === qname && TYPE_KINDS.has(s.kind));
    const refs: RawReference[] = [];
    /**
     * The references kept, by line and name, to leave out one that repeats another on its line. Keyed
     * by line rather than kept for the line being read: the order of references follows the order of
     * query matches, which need not be the order of lines.
     */
    const onLine = new Map<string, RawReference[]>();
    for (const r of this.refs) {
      const from =
        r.fromType === null ? scopeOf(r.at, (k) => k !== "import" && k !== "enum_member") : typeIndex(r.fromType);
      if (from < 0 && r.fromType !== null) continue;
      const key = `${r.line}\0${r.name}`;
      const named = onLine.get(key);
      const same = named?.find((o) => o.from === from && sameUse(o, r));
      if (same) {
        // The first on the line is the one kept, in whatever order the two were found.
        same.col = Math.min(same.col, r.col);
        continue;
      }
      const ref = {
        kind: r.kind,
        from,
        name: r.name,
        receiver: r.receiver,
        line: r.line,
        col: r.col,
        argCount: r.argCount,
      };
      if (named) named.push(ref);
      else onLine.set(key, [ref]);
      refs.push(ref);
    }
    // Per scope and name, each assignment that changes the type (`x = A()`, `x = B()`, `x = A()`
    // are three; `x = A()` twice is one).
    const last = new Map<string, string>();
    const localTypes: LocalType[] = [];
    for (const t of this.types) {
      const scope = t.name.startsWith("this.")
        ? scopeOf(t.at, (k) => TYPE_KINDS.has(k))
        : scopeOf(t.at, (k) => CALLABLE_KINDS.has(k) || TYPE_KINDS.has(k));
      const key = `${scope}\0${t.name}`;
      if (last.get(key) === t.typeName) continue;
      last.set(key, t.typeName);
      localTypes.push({ scope, name: t.name, typeName: t.typeName, line: t.line });
    }
    return { symbols: out, refs, imports: this.imports, localTypes, packageName, syntaxErrors };
  }

  private byName(): Map<string, PendingType[]> {
    if (!this.typesByName) {
      this.typesByName = new Map();
      for (const t of this.types) addTo(this.typesByName, t);
    }
    return this.typesByName;
  }

  /** Innermost symbol of an accepted kind whose range holds a position; -1 for the file. */
  private scopeFinder(sorted: PendingSymbol[], out: ExtractedSymbol[]) {
    // Filled by a loop: made with `map`, this array's shape varied and V8 threw away the optimised
    // `finish` ("wrong map" in --trace-deopt) in every worker, then compiled it again.
    const starts: number[] = [];
    for (let i = 0; i < sorted.length; i++) starts.push(sorted[i]!.start);
    return (at: number, accept: (k: NodeKind) => boolean): number => {
      // Last symbol starting at or before `at`, then climb parents until one encloses `at`.
      let lo = 0;
      let hi = starts.length - 1;
      let idx = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]! <= at) {
          idx = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      // Once a symbol holds `at`, so do its parents, though a member written apart (`memberOf`) is
      // not inside its parent's text.
      let holds = false;
      while (idx >= 0) {
        holds ||= sorted[idx]!.end > at;
        if (holds && accept(out[idx]!.kind)) break;
        idx = out[idx]!.parent;
      }
      return idx;
    };
  }

  /**
   * The declaration's head without its comments: from its start to `end` (its body), never past its
   * first line break if shorter, unless that line leaves a list open (`(`, `<`, `[`, `,`) or ends at
   * an `=`. A comment on a parameter's line (`double reactTag, // why not int64_t?`) joined into one
   * line would read as code, and one ending the first line (`f( // swiftlint:disable`) hid that the
   * list is open.
   */
  private signature(start: number, end: number, multiline = false): string | null {
    let stop = end;
    const eol = multiline ? -1 : this.source.indexOf("\n", start);
    if (eol >= 0 && eol < stop && !/[(,<=[]\s*$/.test(withoutComments(this.source.slice(start, eol), this.comments)))
      stop = Math.min(stop, eol);
    const raw = withoutComments(this.source.slice(start, Math.min(stop, start + MAX_SIGNATURE * 2)), this.comments);
    const sig = raw
      .replace(/\s+/g, " ")
      .trim()
      .replace(/[{:]\s*$/, "")
      .trim();
    return sig ? clip(sig, MAX_SIGNATURE) : null;
  }

  private docAbove(row: number): string | null {
    const block = this.commentAbove(row);
    if (!block) return null;
    const lines = block.split("\n");
    let joined = "";
    for (let i = 0; i < lines.length; i++) {
      // Doxygen's Qt style opens with `//!` and `/*!` (react-native-windows' JSValue.h), RDoc's with a
      // `##` line (rails): the `!` and the second `#` are marks, no part of the text.
      const line = lines[i]!.replace(/^\s*(\/\*[*!]?|\*\/|\*|\/\/[/!]?|#+)\s?/, "")
        .replace(/\*\/\s*$/, "")
        .trimEnd();
      joined = i ? `${joined}\n${line}` : line;
    }
    const cleaned = joined.trim();
    if (!cleaned) return null;
    return clip(cleaned, MAX_DOC);
  }
}

/** Count ERROR and MISSING nodes without walking the tree when it has none. */
export function countSyntaxErrors(root: Node): number {
  if (!root.hasError) return 0;
  let count = 0;
  const cursor = root.walk();
  let done = false;
  while (!done) {
    const n = cursor.currentNode;
    if (n.isError || n.isMissing) count++;
    if (n.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        done = true;
        break;
      }
    }
  }
  cursor.delete();
  return count;
}

function addTo(byName: Map<string, PendingType[]>, t: PendingType): void {
  const list = byName.get(t.name);
  if (list) list.push(t);
  else byName.set(t.name, [t]);
}

/**
 * Two uses of a name from one scope, alike in all but the column (`S(1) + S(2)`), resolve alike, to
 * one edge at that line: the second is left out. SymPy's generated integration rules repeat calls on
 * a line so often that 40% of its 728k references were such repeats.
 */
function sameUse(a: RawReference, b: { kind: string; receiver: string | null; argCount: number | null }): boolean {
  return a.kind === b.kind && a.receiver === b.receiver && a.argCount === b.argCount;
}
