import { getJsonMember, parseJsonFile, removeJsonMember, setJsonMember } from "./json-edit.js";
import type { JsonValue } from "./json-render.js";
import type { ConfigEntry } from "./targets.js";
import { hasTomlTable, removeTomlTable, setTomlTable, type TomlValue } from "./toml-edit.js";
import { getYamlMember, removeYamlMember, setYamlMember } from "./yaml-edit.js";

/** Write our entry into a config file's text, whatever its format. */
export function setEntry(entry: ConfigEntry, text: string): string {
  switch (entry.format) {
    case "json":
      return setJsonMember(text, entry.file, entry.key, entry.value);
    case "toml":
      return setTomlTable(text, entry.file, entry.key, entry.value as Record<string, TomlValue>);
    case "yaml":
      return setYamlMember(text, entry.file, entry.key, plain(entry.value));
  }
}

/** Take the member at `key` out of a config file's text; containers it leaves empty go too. */
export function removeEntry(entry: ConfigEntry, text: string, key: readonly string[] = entry.key): string {
  switch (entry.format) {
    case "json":
      return removeJsonMember(text, entry.file, key, true);
    case "toml":
      return removeTomlTable(text, entry.file, key);
    case "yaml":
      return removeYamlMember(text, entry.file, key);
  }
}

export function hasEntry(entry: ConfigEntry, text: string, key: readonly string[] = entry.key): boolean {
  switch (entry.format) {
    case "json":
      return getJsonMember(text, entry.file, key) !== undefined;
    case "toml":
      return hasTomlTable(text, entry.file, key);
    case "yaml":
      return getYamlMember(text, entry.file, key) !== undefined;
  }
}

/** A JSON file left holding `{}` and nothing else (no comments) has nothing of the user's in it. */
export function isEmptyJson(text: string, file: string): boolean {
  const root = parseJsonFile(text, file);
  return !root || ((root.children?.length ?? 0) === 0 && text.replace(/\s/g, "") === "{}");
}

/** Drop the comment-line symbol: YAML gets only the data. */
function plain(value: JsonValue): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
