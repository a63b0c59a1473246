import type { Node } from "web-tree-sitter";

/**
 * How a function binds a name: a value of its own (a parameter, an assignment, a loop, `with` or
 * `except` target), a value read off something (`save = self.save`, which the resolver may follow to
 * a method), a definition or import (the name still names a symbol), or `global`.
 */
export type Binding = "value" | "member" | "symbol" | "global";

/** The strongest kind wins: a name also defined or imported in the function may name that symbol. */
const RANK: Record<Binding, number> = { value: 0, member: 1, symbol: 2, global: 3 };
const stronger = (a: Binding | null, b: Binding | null) => (!a ? b : !b || RANK[a] >= RANK[b] ? a : b);

/** Assignment and loop targets that hold several names: `a, b = ...`, `for (k, v) in ...`. */
const TARGET_LISTS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "tuple", "list"]);

const DOT = 46;
const OPEN_PAREN = 40;
const OPEN_BRACKET = 91;
/** What may stand between `def` and its name: spaces, tabs, and a line continued with `\`. */
const BLANKS = new Set([32, 9, 10, 13, 92]);
/** A character of a Python name: ASCII letters, digits, `_`, or any character past ASCII. */
const isNameChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;

/** The nodes from a function's body down to one identifier in it, and their types. */
interface Path {
  nodes: Node[];
  types: string[];
}

/** A Python name: ASCII letters, digits, `_` and any character past ASCII; no digit first. */
const NAME = /[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/g;

/**
 * Where each name stands in [start, end) of the text so that it may be bound there (see `mayBind`).
 * The first few names asked for are looked for in the text; past them, the text is read once for
 * all names. Looking for each name a long function calls took time in the square of its length
 * (16,000 calls of as many names in one function: 5.3 s, against 1.06 s at module level), and
 * reading every name of every function costs Django's index more than looking for the few it asks.
 */
export class NamePlaces {
  private asked = 0;
  private all: Map<string, number[]> | null = null;
  private text: string | null = null;

  constructor(
    private readonly source: string,
    private readonly start: number,
    private readonly end: number,
  ) {}

  of(name: string): readonly number[] {
    if (!this.all && ++this.asked > LOOKED_FOR) this.all = this.readAll();
    if (this.all) return this.all.get(name) ?? [];
    const text = (this.text ??= this.source.slice(this.start, this.end));
    const places: number[] = [];
    for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + name.length)) {
      const at = this.start + i;
      if (mayBind(this.source, at, at + name.length)) places.push(at);
    }
    return places;
  }

  private readAll(): Map<string, number[]> {
    const all = new Map<string, number[]>();
    NAME.lastIndex = this.start;
    for (let m = NAME.exec(this.source); m && m.index < this.end; m = NAME.exec(this.source)) {
      const at = m.index;
      if (!mayBind(this.source, at, at + m[0].length)) continue;
      const list = all.get(m[0]);
      if (list) list.push(at);
      else all.set(m[0], [at]);
    }
    return all;
  }
}

/** Names a function is asked about before its text is read for all of them (see `NamePlaces`). */
const LOOKED_FOR = 8;

/**
 * How the body of a function binds `name` in the function's own scope: the strongest of `places`,
 * where its text names `name` so that it may be bound (from `NamePlaces`). Each place in the body is
 * reached by one descent from the body, and judged by the nodes it passes through: walking every node
 * of a body instead crosses into WASM at each. Nested functions and classes are scopes of their own
 * (only their names bind here); lambdas bind nothing here; comprehension variables do.
 */
export function bindingInBody(body: Node, places: readonly number[], name: string): Binding | null {
  let found: Binding | null = null;
  for (const at of places) {
    if (at < body.startIndex || at >= body.endIndex) continue;
    const path = pathTo(body, at, at + name.length);
    if (path) found = stronger(found, bindingAlong(path));
    if (found === "global") break;
  }
  return found;
}

/**
 * Whether the name at [start, end) of the text may be bound there: not part of a longer name, nor an
 * attribute (`x.name`), a call (`name(`, but `def name(` binds), an item (`name[`), or an attribute
 * read (`name.x`, but `import name.x` binds `name`).
 */
function mayBind(source: string, start: number, end: number): boolean {
  const before = source.charCodeAt(start - 1);
  const next = source.charCodeAt(end);
  if (isNameChar(before) || before === DOT || isNameChar(next) || next === OPEN_BRACKET) return false;
  if (next === DOT) return source.slice(source.lastIndexOf("\n", start) + 1, start).includes("import");
  if (next !== OPEN_PAREN) return true;
  // `def name(` and `class name(`: the word before says so.
  let i = start - 1;
  while (i >= 0 && BLANKS.has(source.charCodeAt(i))) i--;
  if (i === start - 1) return false;
  const keyword = (word: string) =>
    source.startsWith(word, i - word.length + 1) && !isNameChar(source.charCodeAt(i - word.length));
  return keyword("def") || keyword("class");
}

/** The path from `body` down to the identifier spanning [start, end), or null when none does. */
function pathTo(body: Node, start: number, end: number): Path | null {
  const leaf = body.descendantForIndex(start, end);
  if (leaf?.type !== "identifier" || leaf.startIndex !== start || leaf.endIndex !== end) return null;
  const nodes = [body];
  // Down from the body rather than up from the leaf: `parent` descends from the tree's root each time.
  for (let n = body; n.id !== leaf.id;) {
    const next = n.childWithDescendant(leaf);
    if (!next) return null;
    nodes.push((n = next));
  }
  return { nodes, types: nodes.map((n) => n.type) };
}

/**
 * The binding the identifier at the end of `path` makes, if any: the rules of a walk from the body
 * that stops at nested definitions, lambdas, imports and `global` statements, and binds the targets
 * of assignments, loops, `as` and `:=`.
 */
function bindingAlong(path: Path): Binding | null {
  const { types } = path;
  const leaf = types.length - 1;
  let found: Binding | null = null;
  for (let i = 0; i < leaf; i++) {
    const child = i + 1;
    switch (types[i]) {
      case "function_definition":
      case "class_definition":
        return stronger(found, child === leaf && isField(path, child, "name") ? "symbol" : null);
      case "lambda":
        return found;
      case "import_statement":
      case "import_from_statement":
      case "future_import_statement": {
        // `import a.b` binds `a`; `import a as b` and `from m import a as b` bind `b`; `from m import`
        // binds nothing of `m`.
        const imported =
          child + 1 === leaf &&
          ((types[child] === "aliased_import" && isField(path, leaf, "alias")) ||
            (types[child] === "dotted_name" && !isField(path, child, "module_name") && firstNamed(path, leaf)));
        return stronger(found, imported ? "symbol" : null);
      }
      case "global_statement":
        return stronger(found, child === leaf ? "global" : null);
      case "assignment":
      case "augmented_assignment":
        if (isField(path, child, "left") && targets(path, child)) {
          const right = child === leaf ? path.nodes[i]!.childForFieldName("right") : null;
          found = stronger(found, right?.type === "attribute" ? "member" : "value");
        }
        break;
      case "for_statement":
      case "for_in_clause":
        if (isField(path, child, "left") && targets(path, child)) found = stronger(found, "value");
        break;
      case "as_pattern": {
        // `with f() as x`, `except E as e`: the alias (in an `as_pattern_target` in `with`).
        if (firstNamed(path, child)) break;
        const alias = types[child] === "as_pattern_target" ? (firstNamed(path, child + 1) ? child + 1 : -1) : child;
        if (alias !== -1 && targets(path, alias)) found = stronger(found, "value");
        break;
      }
      case "except_clause":
        // Older grammars: `except E as e` as `alias`.
        if (child === leaf && isField(path, child, "alias")) found = stronger(found, "value");
        break;
      case "named_expression":
        if (child === leaf && isField(path, child, "name")) found = stronger(found, "value");
        break;
    }
  }
  return found;
}

/** Whether the target at `level` reaches the identifier through target lists and `*rest` alone. */
function targets(path: Path, level: number): boolean {
  const leaf = path.types.length - 1;
  for (let i = level; i < leaf; i++) {
    const type = path.types[i]!;
    if (TARGET_LISTS.has(type)) continue;
    if (type === "list_splat_pattern" && firstNamed(path, i + 1)) continue;
    return false;
  }
  return true;
}

/** Whether the node at `level` is its parent's first named child. */
function firstNamed(path: Path, level: number): boolean {
  return path.nodes[level - 1]!.namedChild(0)?.id === path.nodes[level]!.id;
}

/** Whether the node at `level` is its parent's child of that field. */
function isField(path: Path, level: number, field: string): boolean {
  return path.nodes[level - 1]!.childForFieldName(field)?.id === path.nodes[level]!.id;
}
