import { echo } from "../core/echo.js";

/** One argument of a tool, as advertised in its JSON Schema and checked on every call. */
export type ArgSpec =
  | { type: "string"; description: string; enum?: readonly string[] }
  | { type: "integer"; description: string; minimum: number; maximum: number; default?: number }
  | { type: "boolean"; description: string; default?: boolean };

export type ArgSpecs = Record<string, ArgSpec>;

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A bad argument: the tool answers `isError` with this message, never a protocol error. */
export class ArgumentError extends Error {}

/** The JSON Schema of a tool's input, with `required` as the current project situation demands. */
export function inputSchema(
  specs: ArgSpecs,
  required: readonly string[],
): { type: "object"; properties: Record<string, JsonValue>; required?: string[] } {
  const properties: Record<string, JsonValue> = {};
  for (const [name, spec] of Object.entries(specs)) properties[name] = JSON.parse(JSON.stringify(spec)) as JsonValue;
  return { type: "object", properties, ...(required.length ? { required: [...required] } : {}) };
}

/** Whether a call's `arguments` are what they must be: a JSON object. */
export function isArgumentsObject(raw: unknown): boolean {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw);
}

/** The error for `arguments` that are no JSON object, naming what they were, with the tool's first argument as the example. */
export function argumentsNotAnObject(raw: unknown, specs: ArgSpecs, required: readonly string[]): ArgumentError {
  const example = required[0] ?? Object.keys(specs)[0] ?? "name";
  return new ArgumentError(
    `'arguments' must be a JSON object of the tool's arguments by name (such as {"${example}": "..."}), not ${describe(raw)}.`,
  );
}

/**
 * Check a call's arguments against the specs. Clients differ in how faithfully they type values, so
 * a number or boolean sent as a string ("20", "true") is accepted; anything else wrong is named.
 * Arguments the tool does not know are ignored rather than refused.
 */
export function checkArgs(
  specs: ArgSpecs,
  required: readonly string[],
  raw: unknown,
): Record<string, string | number | boolean | undefined> {
  if (raw !== undefined && !isArgumentsObject(raw)) throw argumentsNotAnObject(raw, specs, required);
  const given = (raw ?? {}) as Record<string, unknown>;
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = given[name];
    // A blank string says nothing: `query: "   "` is as missing as `query: ""`.
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      if (required.includes(name)) throw new ArgumentError(`missing required argument '${name}'.`);
      out[name] = spec.type === "string" ? undefined : spec.default;
      continue;
    }
    out[name] = checkOne(name, spec, value);
  }
  return out;
}

function checkOne(name: string, spec: ArgSpec, value: unknown): string | number | boolean {
  switch (spec.type) {
    case "string": {
      if (typeof value !== "string") throw new ArgumentError(`'${name}' must be a string, got ${describe(value)}.`);
      if (spec.enum && !spec.enum.includes(value)) {
        throw new ArgumentError(`'${name}' must be one of ${spec.enum.join(", ")}; got ${describe(value)}.`);
      }
      return value;
    }
    case "integer": {
      const n = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== "number" || !Number.isInteger(n) || n < spec.minimum || n > spec.maximum) {
        throw new ArgumentError(
          `'${name}' must be a whole number from ${spec.minimum} to ${spec.maximum}; got ${describe(value)}.`,
        );
      }
      return n;
    }
    case "boolean": {
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "false") return value === "true";
      throw new ArgumentError(`'${name}' must be true or false; got ${describe(value)}.`);
    }
  }
}

/**
 * A wrong value as an error names it: a string or a number as written (a string's first line, cut
 * short), an array or object by its kind. Serialised whole, an array nested ten thousand levels
 * deep overflowed the stack (an internal error instead of this one), and an enum's message repeated
 * a pasted megabyte.
 */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value !== null && typeof value === "object") return "an object";
  return typeof value === "string" ? JSON.stringify(echo(value)) : String(value);
}
