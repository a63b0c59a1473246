import { DOC_TYPE } from "../core/extraction.js";

/**
 * Types a JSDoc comment writes (`@param {Vector3} v`, `@returns {Box3}`, `@type {?Matrix4}`): the
 * one type the resolver can follow, as a written type name (`Item[]` for `Array<Item>`). JavaScript
 * libraries (three.js, MediaWiki's front end) type their functions this way; TypeScript's own
 * annotations come first where both are written. Each is marked as written in a comment (DOC_TYPE).
 */

/** The type `@param` gives parameter `name`, or null. */
export function jsDocParamType(doc: string, name: string): string | null {
  const at = doc.indexOf("@param");
  if (at < 0) return null;
  const re = /@param\s*\{([^}]*)\}\s*\[?([\w$]+)/g;
  re.lastIndex = at;
  for (let m = re.exec(doc); m; m = re.exec(doc)) if (m[2] === name) return typeOf(m[1]!);
  return null;
}

/** The type `@returns` (or `@return`) gives, or null. */
export function jsDocReturnType(doc: string): string | null {
  const m = /@returns?\s*\{([^}]*)\}/.exec(doc);
  return m ? typeOf(m[1]!) : null;
}

/** The type `@type` gives, or null. */
export function jsDocType(doc: string): string | null {
  const m = /@type\s*\{([^}]*)\}/.exec(doc);
  return m ? typeOf(m[1]!) : null;
}

const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
/** Lower-case names are primitives (`number`, `string`, `boolean`, `object`); these are builtins too. */
const BUILTINS = new Set(["Object", "Function", "Array", "Promise", "Map", "Set", "Date", "RegExp", "Error"]);

/**
 * `Foo`, `?Foo`, `Foo|null`, `(Foo|undefined)` → `Foo`; `Array<Foo>`, `Array.<Foo>`, `Foo[]` →
 * `Foo[]`. Unions of two types, primitives, builtins, records and functions give null.
 */
function typeOf(written: string): string | null {
  const parts = written
    .replace(/^[(?!=]+|[)=]+$/g, "")
    .split("|")
    .map((t) => t.trim())
    .filter((t) => t && t !== "null" && t !== "undefined");
  if (parts.length !== 1) return null;
  let t = parts[0]!.replace(/^[?!]/, "");
  let array = false;
  // A promise is read as what awaiting it gives, as TypeScript's `Promise<T>` is (see ts-helpers).
  const promised = /^Promise\.?<(.+)>$/.exec(t);
  if (promised) t = promised[1]!.trim();
  const generic = /^Array\.?<(.+)>$/.exec(t);
  if (generic) [t, array] = [generic[1]!.trim(), true];
  else if (t.endsWith("[]")) [t, array] = [t.slice(0, -2), true];
  if (!NAME.test(t) || !/^[A-Z_$]/.test(t) || BUILTINS.has(t)) return null;
  return `${DOC_TYPE}${t}${array ? "[]" : ""}`;
}
