import type { Db } from "../store/database.js";
import { readProjectFile } from "./read-project-file.js";
import { SYMBOL_SELECT, findSymbols, toHit, type SymbolHit } from "./symbols.js";

/** Files longer than this are shown only in the range asked for. */
export const FILE_MODE_MAX_LINES = 2000;

export interface SourceLines {
  file: string;
  startLine: number;
  endLine: number;
  lines: string[];
  totalLines: number;
}

export type NodeResult =
  | { type: "symbols"; query: string; symbols: { symbol: SymbolHit; source: SourceLines | null }[] }
  | { type: "file"; query: string; source: SourceLines; symbols: SymbolHit[]; truncated: boolean }
  | { type: "not-found"; query: string; suggestions: string[] };

function slice(file: string, text: string, start: number, end: number): SourceLines {
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  const s = Math.max(1, start);
  const e = Math.min(all.length, Math.max(s, end));
  return { file, startLine: s, endLine: e, lines: all.slice(s - 1, e), totalLines: all.length };
}

/**
 * A symbol's location, signature and source; or a file's line-numbered text (`path`, `path:10`,
 * `path:10-40`). Not found is an answer with suggestions, not an error.
 */
export function nodeView(db: Db, root: string, query: string): NodeResult {
  const fileMatch = /^(.*?)(?::(\d+)(?:-(\d+))?)?$/.exec(query.trim());
  const pathPart = (fileMatch?.[1] ?? query).replace(/^\.\//, "");
  const file = db.prepare("SELECT id, path FROM files WHERE path = ?").get(pathPart) as
    { id: number; path: string } | undefined;
  if (file) {
    const text = readProjectFile(root, file.path) ?? "";
    const from = fileMatch?.[2] ? Number(fileMatch[2]) : 1;
    const to = fileMatch?.[3] ? Number(fileMatch[3]) : fileMatch?.[2] ? from : from + FILE_MODE_MAX_LINES - 1;
    const source = slice(file.path, text, from, to);
    const symbols = findSymbolsInFile(db, file.id, source.startLine, source.endLine);
    return {
      type: "file",
      query,
      source,
      symbols,
      truncated: source.endLine < source.totalLines && !fileMatch?.[3] && !fileMatch?.[2],
    };
  }
  const defs = findSymbols(db, query);
  if (!defs.length) {
    const suggestions = (
      db
        .prepare(
          "SELECT DISTINCT qualified_name AS q FROM nodes WHERE name LIKE ? AND kind NOT IN ('import','file') LIMIT 5",
        )
        .all(`%${query.slice(query.lastIndexOf(".") + 1)}%`) as { q: string }[]
    ).map((r) => r.q);
    return { type: "not-found", query, suggestions };
  }
  return {
    type: "symbols",
    query,
    symbols: defs.slice(0, 10).map((symbol) => {
      const text = readProjectFile(root, symbol.file);
      return { symbol, source: text === null ? null : slice(symbol.file, text, symbol.startLine, symbol.endLine) };
    }),
  };
}

function findSymbolsInFile(db: Db, fileId: number, start: number, end: number): SymbolHit[] {
  const rows = db
    .prepare(
      `${SYMBOL_SELECT} WHERE n.file_id = ? AND n.kind NOT IN ('import', 'file') AND n.start_line BETWEEN ? AND ?
       ORDER BY n.start_line`,
    )
    .all(fileId, start, end) as Parameters<typeof toHit>[0][];
  return rows.map(toHit);
}
