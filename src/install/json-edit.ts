import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { CodegraphError } from "../core/errors.js";
import { renderJson, type JsonValue } from "./json-render.js";
import { inLineEndingOf, lineEnding } from "./line-ending.js";

/**
 * Edits of JSON and JSON-with-comments files that change only the member we own. jsonc-parser finds
 * the ranges; the edits are ours, because its `modify` re-formats whole neighbouring lines, and a
 * user's file must stay as they wrote it. An insertion is one contiguous span, so removing it gives
 * back the original bytes.
 */

/** A position in a document: object keys, and indexes into arrays. */
export type JsonPath = readonly (string | number)[];

/** Parse, or explain where the file is broken: a malformed file is never overwritten. */
export function parseJsonFile(text: string, file: string): Node | undefined {
  if (text.trim() === "") return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}:${line}:${column}: ${printParseErrorCode(first.error)}. The file was left untouched; fix it (or move it aside) and run the command again.`,
    );
  }
  if (root && root.type !== "object") {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: expected a JSON object at the top level. The file was left untouched.`,
    );
  }
  return root;
}

/** Set `path` to `value`, creating the objects on the way; everything else is kept byte for byte. */
export function setJsonMember(text: string, file: string, path: readonly string[], value: JsonValue): string {
  const root = parseJsonFile(text, file);
  if (!root) return `${renderJson(nest(path, value), "", "  ")}\n`;
  const unit = indentUnit(text);
  let object = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const property = findProperty(object, key);
    if (!property) return insertProperty(text, object, key, nest(path.slice(i + 1), value), unit);
    const current = property.children![1]!;
    if (i === path.length - 1) {
      return splice(text, current.offset, current.offset + current.length, renderChild(text, object, value, unit));
    }
    if (current.type !== "object") {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${file}: "${path.slice(0, i + 1).join(".")}" is ${describe(current)}, not an object, so codegraph cannot add its entry there. The file was left untouched.`,
      );
    }
    object = current;
  }
  return text;
}

/** The value at `path` (keys of objects, indexes of arrays), or undefined. */
export function getJsonMember(text: string, file: string, path: JsonPath): Node | undefined {
  let node = parseJsonFile(text, file);
  for (const step of path) {
    if (typeof step === "number") node = node?.type === "array" ? node.children?.[step] : undefined;
    else node = node?.type === "object" ? findProperty(node, step)?.children?.[1] : undefined;
  }
  return node;
}

/**
 * Remove the member at `path`. With `pruneEmpty`, objects left empty on the way up are removed too,
 * down to (not including) the top level: they held only our entry.
 */
export function removeJsonMember(text: string, file: string, path: readonly string[], pruneEmpty: boolean): string {
  const root = parseJsonFile(text, file);
  if (!root) return text;
  const steps: { container: Node; property: Node }[] = [];
  let container = root;
  for (const key of path) {
    const property = container.type === "object" ? findProperty(container, key) : undefined;
    if (!property) return text;
    steps.push({ container, property });
    container = property.children![1]!;
  }
  // Climb while the container holds nothing but the member being removed.
  let level = steps.length - 1;
  while (pruneEmpty && level > 0 && holdsOnly(text, steps[level]!.container, steps[level]!.property)) level--;
  return removeChild(text, steps[level]!.container, steps[level]!.property);
}

/** Replace the first item of the array at `path` that `matches`, or append `item`; the array is created if needed. */
export function upsertJsonArrayItem(
  text: string,
  file: string,
  path: readonly string[],
  item: JsonValue,
  matches: (value: unknown) => boolean,
): string {
  const array = getJsonMember(text, file, path);
  if (!array) return setJsonMember(text, file, path, [item]);
  if (array.type !== "array") {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: "${path.join(".")}" is not an array. The file was left untouched.`,
    );
  }
  const unit = indentUnit(text);
  const existing = array.children!.find((child) => matches(nodeValue(child)));
  if (existing) {
    return splice(text, existing.offset, existing.offset + existing.length, renderChild(text, array, item, unit));
  }
  return insertChild(text, array, renderChild(text, array, item, unit));
}

/** Remove every item of the array at `path` that `matches`; the array itself is removed if we emptied it. */
export function removeJsonArrayItems(
  text: string,
  file: string,
  path: readonly string[],
  matches: (value: unknown) => boolean,
  pruneEmpty: boolean,
): string {
  for (;;) {
    const array = getJsonMember(text, file, path);
    if (array?.type !== "array") return text;
    const ours = array.children!.find((child) => matches(nodeValue(child)));
    if (!ours) return text;
    text =
      pruneEmpty && array.children!.length === 1
        ? removeJsonMember(text, file, path, true)
        : removeChild(text, array, ours);
  }
}

/** Replace the item at `index` of the array at `path`; the other items keep their bytes. */
export function replaceJsonArrayItem(
  text: string,
  file: string,
  path: JsonPath,
  index: number,
  item: JsonValue,
): string {
  const array = arrayAt(text, file, path);
  const existing = array.children![index]!;
  const rendered = renderChild(text, array, item, indentUnit(text));
  return splice(text, existing.offset, existing.offset + existing.length, rendered);
}

/** Remove the item at `index` of the array at `path`, with the comma and line break that joined it. */
export function removeJsonArrayItem(text: string, file: string, path: JsonPath, index: number): string {
  const array = arrayAt(text, file, path);
  return removeChild(text, array, array.children![index]!);
}

function arrayAt(text: string, file: string, path: JsonPath): Node {
  const array = getJsonMember(text, file, path);
  if (array?.type !== "array") {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: "${path.join(".")}" is not an array. The file was left untouched.`,
    );
  }
  return array;
}

/** A node's plain value (comments dropped). */
export function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0]!.value, nodeValue(p.children![1]!)]));
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function nest(path: readonly string[], value: JsonValue): JsonValue {
  return path.reduceRight<JsonValue>((inner, key) => ({ [key]: inner }), value);
}

function findProperty(object: Node, key: string): Node | undefined {
  return object.children?.find((p) => p.children?.[0]?.value === key);
}

function insertProperty(text: string, object: Node, key: string, value: JsonValue, unit: string): string {
  return insertChild(text, object, `${JSON.stringify(key)}: ${renderChild(text, object, value, unit)}`);
}

/**
 * Render a new child of `container`: on one line when the container is written on one line, and with
 * the file's line endings.
 */
function renderChild(text: string, container: Node, value: JsonValue, unit: string): string {
  return isInline(text, container)
    ? renderJson(value, "", "")
    : inLineEndingOf(text, renderJson(value, childIndent(text, container, unit), unit));
}

/** Insert one rendered child (a property or an array item) after the container's last child. */
function insertChild(text: string, container: Node, child: string): string {
  const nl = lineEnding(text);
  const children = container.children ?? [];
  const last = children[children.length - 1];
  const inline = isInline(text, container);
  if (last) {
    const at = last.offset + last.length;
    if (inline) return splice(text, at, at, `, ${child}`);
    const indent = childIndent(text, container, "");
    // The rest of the last member's line, when it is only a trailing comma and a comment: both stay
    // there, and our entry goes on the next line (with a trailing comma of its own, in that style).
    const lineEnd = text.indexOf("\n", at);
    const eol = lineEnd > 0 && text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
    const rest = eol > 0 ? /^(,?)([ \t]*(?:\/\/.*|\/\*.*\*\/[ \t]*)?)$/.exec(text.slice(at, eol)) : null;
    if (rest) {
      const trailing = rest[1] === ",";
      return `${text.slice(0, at)},${rest[2]}${nl}${indent}${child}${trailing ? "," : ""}${text.slice(eol)}`;
    }
    return splice(text, at, at, `,${nl}${indent}${child}`);
  }
  const open = container.offset + 1;
  if (inline) return splice(text, open, open, child);
  const indent = lineIndent(text, container.offset);
  const close = container.offset + container.length - 1;
  // An empty container's inside is only white space (or comments, which we keep before our entry).
  const inside = text.slice(open, close);
  const keep = inside.trim() === "" ? "" : inside.replace(/\s+$/, "");
  const line = `${nl}${childIndent(text, container, indentUnit(text))}${child}`;
  // Comments on lines of their own: our line goes after them, and the line break and indentation
  // that close the container stay as they were, so removing our line gives the file back.
  if (keep && /\n/.test(inside.slice(keep.length))) return splice(text, open + keep.length, open + keep.length, line);
  return `${text.slice(0, open)}${keep}${line}${nl}${indent}${text.slice(close)}`;
}

/** Remove one child, and the comma and line break that joined it to its neighbours, keeping their comments. */
function removeChild(text: string, container: Node, child: Node): string {
  const children = container.children!;
  const index = children.indexOf(child);
  const end = child.offset + child.length;
  // On a line of its own with a comma after it (as insertChild writes it in a file with trailing
  // commas): the line goes, and the previous member keeps its comma and comment.
  const lineStart = text.lastIndexOf("\n", child.offset - 1);
  const after = /^[ \t]*,/.exec(text.slice(end));
  if (index > 0 && after && lineStart >= 0 && /^[ \t]*$/.test(text.slice(lineStart + 1, child.offset))) {
    const cr = text[lineStart - 1] === "\r" ? 1 : 0;
    return splice(text, lineStart - cr, end + after[0].length, "");
  }
  if (index > 0) {
    const previousEnd = children[index - 1]!.offset + children[index - 1]!.length;
    const comma = text.indexOf(",", previousEnd);
    const between = text.slice(comma + 1, child.offset);
    const newline = between.search(/\r?\n/);
    // A comment on the previous member's line stays with it.
    const from = newline < 0 ? comma + 1 : comma + 1 + newline;
    return text.slice(0, comma) + text.slice(comma + 1, from) + text.slice(end);
  }
  const next = children[1];
  if (next) return splice(text, child.offset, next.offset, "");
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  const inside = text.slice(open, child.offset) + text.slice(end, close);
  if (inside.trim() === "") return splice(text, open, close, "");
  // Comments share the container with us: take out our member (and a trailing comma) only, and the
  // line it stood on when it had one of its own.
  const trailingComma = /^\s*,/.exec(text.slice(end, close));
  const to = end + (trailingComma ? trailingComma[0].length : 0);
  const ownLine = lineStart > open && /^[ \t]*$/.test(text.slice(lineStart + 1, child.offset));
  const from = ownLine ? lineStart - (text[lineStart - 1] === "\r" ? 1 : 0) : child.offset;
  return splice(text, from, to, "");
}

/** The container holds `child` and nothing else: no other member, no comment. */
function holdsOnly(text: string, container: Node, child: Node): boolean {
  if (container.children!.length !== 1) return false;
  const inside =
    text.slice(container.offset + 1, child.offset) +
    text.slice(child.offset + child.length, container.offset + container.length - 1);
  return /^[\s,]*$/.test(inside);
}

function describe(node: Node): string {
  return node.type === "null"
    ? "null"
    : node.type === "array" || node.type === "object"
      ? `an ${node.type}`
      : `a ${node.type}`;
}

function childIndent(text: string, container: Node, unit: string): string {
  const first = container.children?.[0];
  if (first && !sameLine(text, container.offset, first.offset)) return lineIndent(text, first.offset);
  return lineIndent(text, container.offset) + (unit || indentUnit(text));
}

/** The white space that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** The file's indentation step, from its first indented line; two spaces when it has none. */
function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match ? match[1]! : "  ";
}

/** A container written on one line (`{"a": 1}`) gets new children on that line too; an empty one is opened up. */
function isInline(text: string, container: Node): boolean {
  return (
    (container.children?.length ?? 0) > 0 && sameLine(text, container.offset, container.offset + container.length - 1)
  );
}

function sameLine(text: string, a: number, b: number): boolean {
  return !text.slice(a, b).includes("\n");
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
