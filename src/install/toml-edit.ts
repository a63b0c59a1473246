import { parse, TomlError } from "smol-toml";
import { CodegraphError } from "../core/errors.js";
import { inLineEndingOf, lineEnding } from "./line-ending.js";
import { tomlLines } from "./toml-lines.js";

/** The plain values we write into TOML tables. */
export type TomlValue = string | number | boolean | readonly string[];

/**
 * Codex keeps its MCP servers as `[mcp_servers.<name>]` tables. smol-toml would re-serialise the
 * whole file without its comments, so we replace our table's lines as text and only use the parser
 * to refuse a malformed file and to check the result.
 */
export function setTomlTable(
  text: string,
  file: string,
  table: readonly string[],
  body: Record<string, TomlValue>,
): string {
  parseToml(text, file);
  const nl = lineEnding(text);
  const block = inLineEndingOf(text, renderTable(table, body));
  // A file that ends without a line break keeps ending without one (and uninstall can tell).
  const unbroken = block.slice(0, -nl.length);
  const span = findTable(text, table);
  const next = span
    ? text.slice(0, span.start) +
      (text.slice(span.start, span.end).endsWith("\n") ? block : unbroken) +
      text.slice(span.end)
    : text === ""
      ? block
      : text.endsWith("\n")
        ? text + nl + block
        : text + nl + nl + unbroken;
  const written = lookup(parseToml(next, file, table), table);
  if (JSON.stringify(written) !== JSON.stringify(body)) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: ${table.join(".")} is also defined outside its own [${table.join(".")}] table, which codegraph does not edit. Remove that definition by hand and run the command again; the file was left untouched.`,
    );
  }
  return next;
}

/**
 * Remove our table (and the blank line that set it apart); the rest is kept byte for byte. The
 * result is parsed again, as an install's is: a file it would leave invalid, or still holding our
 * entry, is refused and left as it is.
 */
export function removeTomlTable(text: string, file: string, table: readonly string[]): string {
  if (lookup(parseToml(text, file), table) === undefined) return text;
  const name = table.join(".");
  const span = findTable(text, table);
  if (!span) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: ${name} is defined outside a [${name}] table (an inline table or dotted keys), which codegraph does not edit. Remove it by hand; the file was left untouched.`,
    );
  }
  let before = text.slice(0, span.start);
  const after = text.slice(span.end);
  if (/\r?\n\r?\n$/.test(before)) before = before.replace(/\r?\n$/, "");
  // Our table ended the file without a line break: the line before it ends the file again.
  if (after === "" && !text.endsWith("\n")) before = before.replace(/\r?\n$/, "");
  const rest = before + after;
  const next = rest.trim() === "" ? "" : rest;
  checkRemoved(text, next, file, table);
  return next;
}

/**
 * The text after removal, parsed, must be the document before it without our table: valid, our
 * entry gone, and every other value as it was. Anything else is a slip of the text finder, and the
 * file is left as it is.
 */
function checkRemoved(text: string, next: string, file: string, table: readonly string[]): void {
  const name = table.join(".");
  let left: Record<string, unknown>;
  try {
    left = parse(next) as Record<string, unknown>;
  } catch (e) {
    const first = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: taking out the [${name}] table would leave the file invalid (${first}). The file was left untouched; remove the table by hand.`,
    );
  }
  const problem =
    lookup(left, table) !== undefined
      ? `${name} would still be defined once its [${name}] table is taken out`
      : sameData(withoutTable(left, table), withoutTable(parseToml(text, file), table))
        ? undefined
        : `taking out the [${name}] table would change other settings too`;
  if (problem) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: ${problem}. The file was left untouched; remove the table by hand.`,
    );
  }
}

function sameData(a: unknown, b: unknown): boolean {
  // Integers past 2^53 parse as bigint, which JSON cannot print on its own.
  const text = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
  return text(a) === text(b);
}

/** The document without the table, and without the tables around it that only held it. */
function withoutTable(doc: Record<string, unknown>, table: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(doc);
  const parents: Record<string, unknown>[] = [copy];
  for (const key of table.slice(0, -1)) {
    const next = parents[parents.length - 1]![key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) return copy;
    parents.push(next as Record<string, unknown>);
  }
  delete parents[parents.length - 1]![table[table.length - 1]!];
  for (let i = parents.length - 1; i > 0 && Object.keys(parents[i]!).length === 0; i--) {
    delete parents[i - 1]![table[i - 1]!];
  }
  return copy;
}

export function hasTomlTable(text: string, file: string, table: readonly string[]): boolean {
  return lookup(parseToml(text, file), table) !== undefined;
}

function parseToml(text: string, file: string, table?: readonly string[]): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    const where = e instanceof TomlError ? `:${e.line}:${e.column}` : "";
    const first = e instanceof Error ? e.message.split("\n")[0] : String(e);
    const hint = table
      ? ` It looks like ${table.join(".")} is defined twice; remove the other definition by hand.`
      : " Fix it (or move it aside) and run the command again.";
    throw new CodegraphError("BAD_CONFIG", `${file}${where}: ${first}. The file was left untouched.${hint}`);
  }
}

function lookup(doc: Record<string, unknown>, table: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of table) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function renderTable(table: readonly string[], body: Record<string, TomlValue>): string {
  const lines = Object.entries(body).map(([key, value]) => `${key} = ${renderValue(value)}`);
  return `[${table.map(renderKey).join(".")}]\n${lines.join("\n")}\n`;
}

function renderValue(value: TomlValue): string {
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  // A JSON string of plain text is a valid TOML basic string.
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function renderKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * Our table's lines: its header through its last key (and its own sub-tables), leaving the blank
 * lines and comments that lead into the next table where they are.
 */
function findTable(text: string, table: readonly string[]): { start: number; end: number } | undefined {
  const name = table.join(".");
  let start: number | undefined;
  let end = 0;
  for (const line of tomlLines(text)) {
    if (start === undefined) {
      if (line.header === name) {
        start = line.offset;
        end = line.offset + line.text.length;
      }
    } else if (line.header !== undefined && line.header !== name && !line.header.startsWith(`${name}.`)) {
      break;
    } else if (line.content) {
      end = line.offset + line.text.length;
    }
  }
  return start === undefined ? undefined : { start, end };
}
