import type { Language } from "web-tree-sitter";

/**
 * A grammar's numeric field ids by name, looked up once: comparing ids is cheaper than asking for a
 * child by field name on every node. A missing field is a grammar mismatch, reported at load.
 */
export function fieldIds<const K extends string>(
  language: Language,
  grammar: string,
  names: readonly K[],
): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const name of names) {
    const id = language.fieldIdForName(name);
    if (id === null) throw new Error(`${grammar} has no field ${name}`);
    out[name] = id;
  }
  return out;
}
