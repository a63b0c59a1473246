/** A JSON value as we write it into agents' configs. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
  /** `//` lines written at the end of the object, in files that allow comments. */
  [COMMENT_LINES]?: readonly string[];
}

export const COMMENT_LINES: unique symbol = Symbol("comment lines");

/**
 * Render a value as an agent's config would hold it: objects one member per line, short arrays of
 * plain values on one line (`["serve", "--mcp"]`). `indent` is the indentation of the line the value
 * starts on; an empty `unit` renders everything on one line (and drops comments, which would swallow
 * the rest of that line).
 */
export function renderJson(value: JsonValue, indent: string, unit: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (!unit || value.every((v) => v === null || typeof v !== "object")) {
      return `[${value.map((v) => renderJson(v, indent, "")).join(", ")}]`;
    }
    const inner = indent + unit;
    return `[\n${value.map((v) => inner + renderJson(v, inner, unit)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value);
    const comments = unit ? (value[COMMENT_LINES] ?? []) : [];
    if (members.length === 0 && comments.length === 0) return "{}";
    if (!unit) return `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${renderJson(v, "", "")}`).join(", ")}}`;
    const inner = indent + unit;
    const lines = members.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${renderJson(v, inner, unit)}`).join(",\n");
    const notes = comments.map((c) => `\n${inner}// ${c}`).join("");
    return `{\n${lines}${notes}\n${indent}}`;
  }
  return JSON.stringify(value);
}
