import type { ExtractResult } from "../../src/core/extraction.js";

/**
 * Renders an extraction as the source annotated line by line: each declaration, reference and import
 * is written under the line it starts on, so a reviewer reads expectations next to the code.
 */
export function annotate(source: string, r: ExtractResult): string {
  const notes = new Map<number, string[]>();
  const add = (line: number, text: string) => {
    const list = notes.get(line) ?? [];
    list.push(text);
    notes.set(line, list);
  };
  const qname = (i: number) => (i < 0 ? "<file>" : r.symbols[i]!.qualifiedName);
  r.symbols.forEach((s) => {
    const flags = [
      s.exported ? "exported" : "",
      s.visibility ?? "",
      s.isStatic ? "static" : "",
      s.paramCount !== null ? `params=${s.paramCount}` : "",
    ].filter(Boolean);
    add(
      s.startLine,
      `def ${s.kind} ${s.qualifiedName} L${s.startLine}-${s.endLine}${flags.length ? ` [${flags.join(" ")}]` : ""}`,
    );
    if (s.signature && s.kind !== "import") add(s.startLine, `  sig: ${s.signature}`);
    if (s.docstring) add(s.startLine, `  doc: ${s.docstring.split("\n")[0]}`);
  });
  for (const ref of r.refs) {
    const target = ref.receiver ? `${ref.receiver}.${ref.name}` : ref.name;
    add(
      ref.line,
      `${ref.kind} ${target} from ${qname(ref.from)}${ref.argCount !== null ? ` args=${ref.argCount}` : ""}`,
    );
  }
  for (const imp of r.imports) {
    const what =
      imp.imported === null
        ? "(side effect)"
        : imp.local === imp.imported
          ? imp.local
          : `${imp.local} = ${imp.imported}`;
    add(imp.line, `${imp.reexport ? "re-export" : "import"} ${what} from "${imp.specifier}"`);
  }
  const lines = source.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const out: string[] = [];
  lines.forEach((text, i) => {
    out.push(`${String(i + 1).padStart(4)} | ${text}`.trimEnd());
    for (const n of notes.get(i + 1) ?? []) out.push(`     ^ ${n}`);
  });
  out.push("");
  out.push(`package: ${r.packageName ?? "-"}`);
  out.push(`syntax errors: ${r.syntaxErrors}`);
  for (const t of r.localTypes) out.push(`type ${t.name}: ${t.typeName} in ${qname(t.scope)}`);
  return `${out.join("\n")}\n`;
}
