import { parse, TomlError } from "smol-toml";
import { CodegraphError } from "../core/errors.js";

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
  const block = renderTable(table, body);
  const span = findTable(text, table);
  const next = span
    ? text.slice(0, span.start) + block + text.slice(span.end)
    : text + (text === "" ? "" : text.endsWith("\n") ? "\n" : "\n\n") + block;
  const written = lookup(parseToml(next, file, table), table);
  if (JSON.stringify(written) !== JSON.stringify(body)) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: ${table.join(".")} is also defined outside its own [${table.join(".")}] table, which codegraph does not edit. Remove that definition by hand and run the command again; the file was left untouched.`,
    );
  }
  return next;
}

/** Remove our table (and the blank line that set it apart); the rest is kept byte for byte. */
export function removeTomlTable(text: string, file: string, table: readonly string[]): string {
  parseToml(text, file);
  const span = findTable(text, table);
  if (!span) return text;
  let before = text.slice(0, span.start);
  if (before.endsWith("\n\n")) before = before.slice(0, -1);
  const rest = before + text.slice(span.end);
  return rest.trim() === "" ? "" : rest;
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

const HEADER = /^[ \t]*\[\[?([^\]]*)\]\]?[ \t]*(#.*)?$/;

/** The dotted name of a table header, with quotes and spaces taken out. */
function headerName(line: string): string | undefined {
  const match = HEADER.exec(line);
  return match ? match[1]!.replace(/["'\s]/g, "") : undefined;
}

/**
 * Our table's lines: its header through its last key (and its own sub-tables), leaving the blank
 * lines and comments that lead into the next table where they are.
 */
function findTable(text: string, table: readonly string[]): { start: number; end: number } | undefined {
  const name = table.join(".");
  const lines = text.split(/(?<=\n)/);
  let offset = 0;
  let start: number | undefined;
  let end = 0;
  for (const line of lines) {
    const header = headerName(line.replace(/\r?\n$/, ""));
    if (start === undefined) {
      if (header === name) {
        start = offset;
        end = offset + line.length;
      }
    } else if (header !== undefined && header !== name && !header.startsWith(`${name}.`)) {
      break;
    } else if (line.trim() !== "" && !line.trim().startsWith("#")) {
      end = offset + line.length;
    }
    offset += line.length;
  }
  return start === undefined ? undefined : { start, end };
}
