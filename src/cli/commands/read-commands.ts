import { CodegraphError } from "../../core/errors.js";
import { languageForPath } from "../../extract/language.js";
import { relations } from "../../query/callers.js";
import { listFiles, projectFolder } from "../../query/files.js";
import { impact, MAX_IMPACT_LIMIT } from "../../query/impact.js";
import { exploreQuery } from "../../query/explore.js";
import { nodeView } from "../../query/node.js";
import { searchSymbols } from "../../query/search.js";
import { status } from "../../query/status.js";
import {
  outsideFolder,
  renderFiles,
  renderImpact,
  renderRelations,
  renderSearch,
  renderStatus,
} from "../../render/text.js";
import { renderExplore } from "../../render/explore.js";
import { renderNode } from "../../render/node.js";
import { withIndex } from "../with-index.js";
import { emit, positiveInt } from "../output.js";

interface Common {
  path?: string;
  json?: boolean;
}

export function runStatus(opts: Common): void {
  withIndex(opts, (db, root) => {
    const result = status(db, root, languageForPath);
    emit(opts.json, result, () => renderStatus(result));
  });
}

export function runSearch(query: string, opts: Common & { kind?: string; limit?: string }): void {
  withIndex(opts, (db) => {
    const result = searchSymbols(db, query, { kind: opts.kind, limit: positiveInt(opts.limit, "limit", 20) });
    emit(opts.json, result, () => renderSearch(result));
  });
}

export function runRelations(
  direction: "callers" | "callees",
  symbol: string,
  opts: Common & { file?: string; limit?: string; allUses?: boolean },
): void {
  withIndex(opts, (db) => {
    const result = relations(db, symbol, direction, {
      file: opts.file,
      limit: positiveInt(opts.limit, "limit", 50),
      uses: opts.allUses ? "all" : "calls",
    });
    emit(opts.json, result, () => renderRelations(result));
  });
}

export function runImpact(symbol: string, opts: Common & { depth?: string; file?: string; limit?: string }): void {
  withIndex(opts, (db, root) => {
    const result = impact(db, symbol, {
      depth: positiveInt(opts.depth, "depth", 3),
      file: opts.file,
      limit: positiveInt(opts.limit, "limit", 200),
      root,
    });
    emit(opts.json, result, () => renderImpact(result, MAX_IMPACT_LIMIT));
  });
}

export function runNode(
  target: string | undefined,
  opts: Common & { file?: string; line?: string; offset?: string; limit?: string },
): void {
  const optional = (value: string | undefined, name: string) =>
    value === undefined ? undefined : positiveInt(value, name, 1);
  const request = {
    symbol: target,
    file: opts.file,
    line: optional(opts.line, "line"),
    offset: optional(opts.offset, "offset"),
    limit: optional(opts.limit, "limit"),
  };
  if (!request.symbol && !request.file) {
    throw new CodegraphError("BAD_INPUT", "Give a symbol or a file: `codegraph node <symbol>` or `--file <path>`.");
  }
  withIndex(opts, (db, root) => {
    const result = nodeView(db, root, request);
    emit(opts.json, result, () => renderNode(result));
  });
}

export function runExplore(query: string, opts: Common & { maxFiles?: string; maxChars?: string }): void {
  withIndex(opts, (db, root) => {
    const maxFiles = opts.maxFiles === undefined ? undefined : positiveInt(opts.maxFiles, "max-files", 8);
    const maxChars = opts.maxChars === undefined ? undefined : positiveInt(opts.maxChars, "max-chars", 24_000);
    const result = exploreQuery(db, root, query, { maxFiles, maxChars });
    emit(opts.json, result, () => renderExplore(result));
  });
}

export function runFiles(under: string | undefined, opts: Common & { list?: boolean }): void {
  withIndex(opts, (db, root) => {
    const folder = projectFolder(root, under);
    if (folder === null) return emit(opts.json, [], () => outsideFolder(under!));
    const result = listFiles(db, folder);
    emit(opts.json, result, () => renderFiles(result, !opts.list));
  });
}
