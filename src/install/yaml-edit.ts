import { Document, isMap, parseDocument } from "yaml";
import { CodegraphError } from "../core/errors.js";
import { inLineEndingOf } from "./line-ending.js";

/**
 * Hermes keeps its MCP servers in YAML. The `yaml` package edits the document tree and keeps the
 * user's comments and layout around the entry we change.
 */
export function setYamlMember(text: string, file: string, path: readonly string[], value: unknown): string {
  const doc = parseYaml(text, file);
  if (doc.contents === null) return new Document(nest(path, value)).toString();
  // `mcp_servers:` with nothing under it is null: give it a map before setting inside it.
  for (let i = 1; i < path.length; i++) {
    const parent = path.slice(0, i);
    const node = doc.getIn(parent, true);
    if (node === undefined || node === null || (typeof node === "object" && "value" in node && node.value === null)) {
      doc.setIn(parent, doc.createNode({}));
    } else if (!isMap(node)) {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${file}: "${parent.join(".")}" is not a mapping, so codegraph cannot add its entry there. The file was left untouched.`,
      );
    }
  }
  doc.setIn(path, doc.createNode(value));
  // The document prints with \n: a CRLF file keeps its endings.
  return inLineEndingOf(text, doc.toString());
}

/** Remove the member at `path`, and mappings it leaves empty. */
export function removeYamlMember(text: string, file: string, path: readonly string[]): string {
  const doc = parseYaml(text, file);
  if (!doc.hasIn(path)) return text;
  doc.deleteIn(path);
  for (let i = path.length - 1; i > 0; i--) {
    const parent = doc.getIn(path.slice(0, i), true);
    if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, i));
  }
  const out = inLineEndingOf(text, doc.toString());
  return out.trim() === "{}" ? "" : out;
}

export function getYamlMember(text: string, file: string, path: readonly string[]): unknown {
  return parseYaml(text, file).getIn(path);
}

function parseYaml(text: string, file: string): Document {
  const doc = parseDocument(text);
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const where = at ? `:${at.line}:${at.col}` : "";
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}${where}: ${error.message.split("\n")[0]}. The file was left untouched; fix it and run the command again.`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${file}: expected a mapping at the top level. The file was left untouched.`,
    );
  }
  return doc;
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}
