import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { CodegraphError } from "../../core/errors.js";
import { checkCycles } from "../../query/check.js";
import { projectFolder } from "../../query/files.js";
import { outsideFolder } from "../../render/text.js";
import { exportGraph } from "../../query/export.js";
import { nodeLinkJson } from "../../render/graph-json.js";
import { renderCycles } from "../../render/graph-text.js";
import { withIndex } from "../with-index.js";
import { emit, writeOut } from "../output.js";

interface Common {
  path?: string;
  json?: boolean;
}

/** The formats `export` writes. */
export const EXPORT_FORMATS = ["json"] as const;

export function runCheck(under: string | undefined, opts: Common): void {
  withIndex(opts, (db, root) => {
    const folder = projectFolder(root, under);
    if (folder === null) return emit(opts.json, { cycles: [], filesChecked: 0 }, () => outsideFolder(under!));
    const result = checkCycles(db, { path: folder });
    emit(opts.json, result, () => renderCycles(result, folder || undefined));
  });
}

export async function runExport(
  opts: Common & { format?: string; pagerank?: boolean; output?: string },
): Promise<void> {
  const format = opts.format ?? "json";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CodegraphError(
      "BAD_INPUT",
      `--format ${format} is not supported; the formats are: ${EXPORT_FORMATS.join(", ")}.`,
    );
  }
  // The export is built before any output starts, so a failure leaves no half-written file behind.
  const graph = withIndex(opts, (db, root) => exportGraph(db, { pagerank: opts.pagerank, root }));
  if (opts.output) {
    const file = resolve(opts.output);
    let fd: number;
    try {
      fd = openSync(file, "w");
    } catch (e) {
      throw new CodegraphError("IO", `Cannot write ${file}: ${(e as Error).message}`, { cause: e });
    }
    let bytes = 0;
    try {
      for (const chunk of nodeLinkJson(graph)) bytes += writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    writeOut(
      `Wrote ${graph.nodes.length} nodes and ${graph.links.length} links to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MiB).\n`,
    );
    return;
  }
  for (const chunk of nodeLinkJson(graph)) {
    writeOut(chunk);
  }
}
