import { echo } from "../core/echo.js";
import type { FileState } from "../query/freshness.js";
import type { NodeResult, SymbolView } from "../query/node.js";
import { withStaleBanner } from "./banner.js";
import { numbered } from "./source.js";
import { partlyParsedLines } from "./text.js";

/** Why a file's text is not shown, in words for the reader. */
function unreadable(state: FileState): string {
  switch (state) {
    case "missing":
      return "the file is no longer on disk; run `codegraph sync`";
    case "too-large":
      return "the file changed and is now larger than indexing.max_file_size, so it is not read";
    case "outside":
      return "the file now leads outside the project, so it is not read";
    default:
      return "the file could not be read";
  }
}

/** The most characters of a docstring's first paragraph the `doc:` line shows. */
const DOC_SUMMARY_CHARS = 600;

/**
 * A docstring's first paragraph on one line, and `…` when more follows: its first line alone cut
 * sentences in half ("Runs a future to completion on the Tokio runtime. This is the").
 */
export function docSummary(doc: string): string {
  const lines = doc.trim().split("\n");
  const blank = lines.findIndex((l) => !l.trim());
  const first = (blank < 0 ? lines : lines.slice(0, blank)).map((l) => l.trim()).join(" ");
  if (first.length > DOC_SUMMARY_CHARS) return `${first.slice(0, DOC_SUMMARY_CHARS).trimEnd()} …`;
  return blank < 0 ? first : `${first} …`;
}

const SHIFTED = "possibly shifted: the file changed since the last index sync";

function symbolBlock(v: SymbolView): string {
  const s = v.symbol;
  const drifted = v.sourceKind === "whole-file" || v.sourceKind === "shown-above" || v.sourceKind === "omitted-large";
  const head = [`${s.kind} ${s.qualifiedName}  ${s.file}:${s.startLine}-${s.endLine}${drifted ? ` (${SHIFTED})` : ""}`];
  if (s.signature) head.push(`signature: ${s.signature}`);
  if (s.docstring) head.push(`doc: ${docSummary(s.docstring)}`);
  switch (v.sourceKind) {
    case "span":
      head.push(numbered(v.source!));
      if (v.truncated) {
        head.push(
          `… body cut at ${v.source!.lines.length} lines; read on with file ${s.file}, offset ${v.source!.endLine + 1}.`,
        );
      }
      break;
    case "whole-file":
      head.push(`The whole current file (${v.source!.totalLines} lines):`, numbered(v.source!));
      break;
    case "shown-above":
      head.push(`(its file's current source is shown whole above)`);
      break;
    case "omitted-large":
      head.push(
        `(body omitted: ${s.file} changed since the last index sync and is too long to show whole; Read it directly, or run \`codegraph sync\`.)`,
      );
      break;
    case "unavailable":
      head.push(`(source unavailable: ${unreadable(v.fileState)})`);
      break;
  }
  return head.join("\n");
}

/** A node answer as compact text for an agent: project-relative paths, numbered lines, the stale banner when due. */
export function renderNode(r: NodeResult): string {
  return withStaleBanner(r.drifted, nodeBody(r));
}

function nodeBody(r: NodeResult): string {
  switch (r.type) {
    case "not-found":
      return [
        `Nothing named "${echo(r.query)}" is indexed, as a symbol or a file.${r.suggestions.length ? ` Did you mean: ${r.suggestions.join(", ")}?` : ""}`,
        ...partlyParsedLines(r.partlyParsed),
      ].join("\n");
    case "outside":
      return `"${r.query}" is outside the project: codegraph only reads files inside the project.`;
    case "ambiguous":
      return [
        `"${r.query}" matches several indexed files; pass one of these paths:`,
        ...r.candidates.map((c) => `  ${c}`),
        ...(r.more ? ["  … and more; give more of the path."] : []),
      ].join("\n");
    case "file": {
      const src = r.source;
      if (!src) return `${r.file}: ${unreadable(r.fileState)}.`;
      if (!src.lines.length) {
        return `${r.file} has ${src.totalLines} line${src.totalLines === 1 ? "" : "s"}; nothing at line ${src.startLine}.`;
      }
      const out = [`${r.file} (lines ${src.startLine}-${src.endLine} of ${src.totalLines})`, numbered(src)];
      if (r.truncated) {
        out.push(
          `… cut at ${src.lines.length} lines (file mode shows at most that many at once); pass offset ${src.endLine + 1} (and limit) to read on.`,
        );
      }
      return out.join("\n");
    }
    case "symbols": {
      const out: string[] = [];
      if (r.note) out.push(r.note);
      out.push(r.symbols.map(symbolBlock).join("\n\n"));
      if (r.total > r.symbols.length) {
        const listed = r.symbols.length + r.others.length;
        const rest = r.total > listed ? `\n  … and ${r.total - listed} more` : "";
        out.push(
          `Showing ${r.symbols.length} of ${r.total} definitions; pass file (and line) to pick one. The others:\n` +
            r.others.map((o) => `  ${o.qualifiedName} (${o.kind})  ${o.file}:${o.startLine}`).join("\n") +
            rest,
        );
      }
      return out.join("\n\n");
    }
  }
}
