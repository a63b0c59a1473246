import { basename } from "node:path";
import type { IndexSummary } from "../indexer/progress.js";
import type { ImpactResult } from "../query/impact.js";
import type { RelationResult } from "../query/callers.js";
import type { SearchResult } from "../query/search.js";
import type { StatusResult } from "../query/status.js";
import type { FileEntry } from "../query/files.js";
import type { AlsoNamed, SymbolHit } from "../query/symbols.js";
import type { PartlyParsed } from "../query/partly-parsed.js";
import { echo } from "../core/echo.js";
import { plural } from "./plural.js";

/** Node answers render in node.ts; re-exported so callers keep one import. */
export { renderNode } from "./node.js";

const loc = (s: Pick<SymbolHit, "file" | "startLine">) => `${s.file}:${s.startLine}`;

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function counts(record: Record<string, number>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
}

export function renderIndexSummary(s: IndexSummary): string {
  const lines: string[] = [];
  const verb = s.mode === "full" ? "Indexed" : "Synced";
  lines.push(`${verb} ${s.root} in ${(s.durationMs / 1000).toFixed(2)} s`);
  if (s.rebuilt) lines.push(`  rebuilt:   ${s.rebuilt}`);
  if (s.mode === "sync") lines.push(`  changes:   ${s.added} added, ${s.modified} modified, ${s.removed} removed`);
  lines.push(`  files:     ${s.files}${Object.keys(s.languages).length ? ` (${counts(s.languages)})` : ""}`);
  lines.push(`  symbols:   ${s.nodes} nodes`);
  lines.push(`  edges:     ${s.edges}`);
  fileList(
    lines,
    `  partial:   ${s.partial.length} file(s) with syntax errors, indexed as far as they parse`,
    s.partial.map((p) => `${p.path} (${p.errors} error${p.errors === 1 ? "" : "s"})`),
  );
  fileList(
    lines,
    `  cut short: ${s.cutShort.length} file(s) nested or chained past what extraction follows (generated code?), indexed in part`,
    s.cutShort,
  );
  if (s.skipped.length) {
    const byReason = new Map<string, string[]>();
    for (const k of s.skipped) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k.path]);
    lines.push(`  skipped:   ${s.skipped.length} file(s)`);
    for (const [reason, paths] of byReason) {
      lines.push(`    ${reason}: ${paths.length} (${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", …" : ""})`);
    }
  }
  return lines.join("\n");
}

/** A heading and the first five of `items` beneath it, with how many more there are; nothing for none. */
function fileList(lines: string[], heading: string, items: string[]): void {
  if (!items.length) return;
  lines.push(heading);
  for (const item of items.slice(0, 5)) lines.push(`    ${item}`);
  if (items.length > 5) lines.push(`    … and ${items.length - 5} more`);
}

/** `forAgent` names the project by its folder: answers to agents carry no absolute paths of the machine. */
export function renderStatus(s: StatusResult, options: { forAgent?: boolean } = {}): string {
  const lines = [
    `Project:   ${options.forAgent ? basename(s.root) : s.root}`,
    `Files:     ${s.files}${Object.keys(s.languages).length ? ` (${counts(s.languages)})` : ""}`,
    `Nodes:     ${s.nodes}${Object.keys(s.nodesByKind).length ? ` (${counts(s.nodesByKind)})` : ""}`,
    `Edges:     ${s.edges}${Object.keys(s.edgesByKind).length ? ` (${counts(s.edgesByKind)})` : ""}`,
    `Unresolved references: ${s.unresolved}`,
    `Database:  ${bytes(s.dbBytes)}, schema version ${s.schemaVersion}`,
    `Indexed:   ${s.indexedAt ?? "never"}${s.indexedBy ? ` by codegraph ${s.indexedBy}` : ""}${s.syncedAt ? `, last sync ${s.syncedAt}` : ""}`,
  ];
  if (!s.changes) {
    lines.push(`Pending sync: not checked, as the config does not load: ${s.configError}`);
    return lines.join("\n");
  }
  const { added, modified, removed } = s.changes;
  if (added.length + modified.length + removed.length === 0)
    lines.push("Pending sync: none (the index matches the disk)");
  else {
    lines.push(`Pending sync: ${added.length} added, ${modified.length} modified, ${removed.length} removed`);
    for (const [label, list] of [
      ["added", added],
      ["modified", modified],
      ["removed", removed],
    ] as const) {
      for (const p of list.slice(0, 10)) lines.push(`  ${label}: ${p}`);
      if (list.length > 10) lines.push(`  … ${list.length - 10} more ${label}`);
    }
    lines.push("Run `codegraph sync` to update the index.");
  }
  return lines.join("\n");
}

export function renderSearch(r: SearchResult): string {
  const hits = searchLines(r);
  if (!r.configError) return hits;
  return `Note: ${r.configError} Until it loads, search ranks with the last [ranking] rules that did.\n\n${hits}`;
}

function searchLines(r: SearchResult): string {
  const missing = r.languagesNotIndexed;
  if (missing) {
    const asked = missing.asked.join(", ");
    const there = missing.indexed.length ? missing.indexed.join(", ") : "none";
    return `No symbols match "${echo(r.query)}": no ${asked} files are indexed here (languages indexed: ${there}).`;
  }
  const other = r.otherKinds;
  if (other) {
    return `No ${other.asked.join(" or ")} matches "${echo(r.query)}". Of other kinds:\n${hitLines(other.hits)}`;
  }
  if (!r.hits.length) return `No symbols match "${echo(r.query)}".`;
  return hitLines(r.hits);
}

function hitLines(hits: SearchResult["hits"]): string {
  return hits
    .map(
      (h) => `${h.kind.padEnd(11)} ${h.qualifiedName}  ${loc(h)}${h.signature ? `\n            ${h.signature}` : ""}`,
    )
    .join("\n");
}

function noSymbol(query: string, suggestions: readonly string[], partlyParsed: readonly PartlyParsed[]): string {
  const hint = suggestions.length ? ` Did you mean: ${suggestions.join(", ")}?` : "";
  return [`No symbol named "${echo(query)}" is indexed.${hint}`, ...partlyParsedLines(partlyParsed)].join("\n");
}

/** Where a name the index lacks may be defined all the same: files the parser read only in part. */
export function partlyParsedLines(files: readonly PartlyParsed[]): string[] {
  if (!files.length) return [];
  const list = files.map((f) => `${f.path} (${plural(f.errors, "syntax error")})`).join(", ");
  return [
    `The name appears in files that parsed only in part, where a definition may have gone unindexed: ${list}. Read them directly.`,
  ];
}

/** The members a bare name left out (`Server.Serve` beside a function `Serve`), named so they are not taken for absent. */
function alsoNamedLines(query: string, also: AlsoNamed | null): string[] {
  if (!also) return [];
  const more = also.count - also.first.length;
  const rest = more > 0 ? `, and ${also.atLeast ? "at least " : ""}${more} more` : "";
  return [
    `Also named "${query}": ${also.first.map((d) => `${d.qualifiedName} (${d.kind}, ${loc(d)})`).join(", ")}${rest}. Ask for one by its qualified name.`,
  ];
}

function unmatched(file: string | null, query: string): string[] {
  return file
    ? [`No definition of "${echo(query)}" is in a file matching "${echo(file)}"; showing every definition instead.`]
    : [];
}

/**
 * `maxLimit`: the largest limit the caller may ask for (the MCP tools' 100), named where rows were
 * left out, so the host knows how far to widen it.
 */
export function renderRelations(r: RelationResult, maxLimit?: number): string {
  if (!r.groups.length) return noSymbol(r.query, r.suggestions, r.partlyParsed);
  const out = unmatched(r.unmatchedFile, r.query);
  const verb = r.direction === "callers" ? "Callers of" : "Callees of";
  for (const g of r.groups) {
    const overloads = g.overloads ? `, ${g.overloads + 1} declarations` : "";
    out.push(
      `${verb} ${g.definition.qualifiedName} (${g.definition.kind}, ${loc(g.definition)}${overloads}): ${g.total}`,
    );
    if (!g.total)
      out.push(
        g.otherUses ? `  (no calls; ${plural(g.otherUses, "other use")}, which --all-uses lists)` : "  (none found)",
      );
    for (const row of g.rows) {
      const at =
        row.line !== null
          ? `${r.direction === "callers" ? row.symbol.file : ""}${r.direction === "callers" ? ":" : "line "}${row.line}`
          : loc(row.symbol);
      // A callee reached as one of several overloads is shown at the first: which one the call
      // reaches depends on its arguments' types.
      const what =
        r.direction === "callers"
          ? `${row.symbol.qualifiedName} (${row.symbol.kind})`
          : `${row.symbol.qualifiedName}  ${loc(row.symbol)}${row.resolution === "overload" ? " (or another overload)" : ""}`;
      out.push(`  ${row.kind === "calls" ? "" : `[${row.kind}] `}${what}  ${at}`);
    }
    if (g.rows.length < g.total) {
      const upTo = maxLimit && r.limit < maxLimit ? ` (up to ${maxLimit})` : "";
      out.push(`  Showing ${g.rows.length} of ${g.total}; raise the limit${upTo} to see more.`);
    }
  }
  out.push(
    ...moreDefinitions(
      r.groups.map((g) => g.definition),
      r.others,
      r.omitted,
      (o) => {
        const overloads = o.overloads ? `, ${o.overloads + 1} declarations` : "";
        return `${o.definition.qualifiedName} (${o.definition.kind}, ${loc(o.definition)}${overloads}): ${o.total}`;
      },
      r.direction,
    ),
    ...alsoNamedLines(r.query, r.alsoNamed),
  );
  return out.join("\n");
}

/**
 * The closing lines of an answer about a name with several definitions: how many there are, and,
 * past those shown in full, the next ones (one line each) and a count of the rest.
 */
function moreDefinitions<T>(
  shown: readonly SymbolHit[],
  listed: readonly T[],
  omitted: number,
  line: (t: T) => string,
  heaviest: string,
): string[] {
  const all = shown.length + listed.length + omitted;
  if (all < 2) return [];
  if (all === shown.length) {
    // A file filter cannot pick between a class's own method and its instances', or a field and a method.
    const file = shown[0]!.file;
    if (shown.every((d) => d.file === file))
      return [`${all} definitions share this name in ${file}, each shown above.`];
    return [`${all} definitions share this name; pass file to pick one.`];
  }
  const out = [`${all} definitions share this name; the ${shown.length} with the most ${heaviest} are shown above.`];
  if (listed.length) out.push(`The next ${listed.length}:`, ...listed.map((t) => `  ${line(t)}`));
  if (omitted) out.push(`… and ${omitted} more.`);
  out.push("Pass file to pick one.");
  return out;
}

/** `maxLimit`: the largest limit the caller may ask for (the MCP tool's), named where dependents were left out. */
export function renderImpact(r: ImpactResult, maxLimit?: number): string {
  if (!r.sections.length) return noSymbol(r.query, r.suggestions, r.partlyParsed);
  const out = unmatched(r.unmatchedFile, r.query);
  for (const s of r.sections) {
    if (out.length) out.push("");
    out.push(
      `Impact of changing ${s.roots.map((x) => `${x.qualifiedName} (${loc(x)})`).join(", ")}, up to depth ${r.depth}:`,
    );
    if (!s.hits.length) out.push("  nothing in the index depends on it");
    for (let d = 1; d <= r.depth; d++) {
      const level = s.hits.filter((h) => h.depth === d);
      if (!level.length) continue;
      out.push(`  depth ${d}: ${level.length}`);
      for (const h of level) {
        const how = h.through ? `${h.kind} ${h.through}, overridden by ${h.via}` : `${h.kind} ${h.via}`;
        out.push(`    ${h.symbol.qualifiedName} (${h.symbol.kind})  ${loc(h.symbol)}  [${how}]`);
      }
    }
    if (s.truncated) {
      const total = `${s.totalAtLeast ? "at least " : ""}${s.total}`;
      const upTo = maxLimit && r.limit < maxLimit ? ` (up to ${maxLimit})` : "";
      out.push(
        `  Showing ${s.hits.length} of ${total} dependents within depth ${r.depth}; raise the limit${upTo} to see more, or lower the depth.`,
      );
    }
  }
  const more = moreDefinitions(
    r.sections.map((sec) => sec.roots[0]!),
    r.others,
    r.omitted,
    (o) => {
      const [first] = o.roots;
      return `${first!.qualifiedName} (${first!.kind}, ${loc(first!)}): ${o.direct} direct`;
    },
    "direct dependents",
  );
  if (more.length) out.push("", ...more);
  const also = alsoNamedLines(r.query, r.alsoNamed);
  if (also.length) out.push("", ...also);
  return out.join("\n");
}

/** What files and check say of a folder argument that lies outside the project. */
export function outsideFolder(path: string): string {
  return `"${echo(path)}" is outside the project: pass a folder inside it, or none for the whole project.`;
}

/** Files listed one by one at most; a larger listing becomes a summary by folder. */
export const FILES_LISTED = 300;
/** Folder lines such a summary shows at most: it goes as many levels deep as fit. */
const FOLDER_LINES = 150;

export function renderFiles(files: FileEntry[], asTree: boolean): string {
  if (!files.length) return "No indexed files there.";
  if (files.length > FILES_LISTED) return asTree ? folderSummary(files) : fileListHead(files);
  if (!asTree) return files.map((f) => f.path).join("\n");
  const out: string[] = [];
  let prev: string[] = [];
  for (const f of files) {
    const parts = f.path.split("/");
    let common = 0;
    while (common < parts.length - 1 && common < prev.length - 1 && parts[common] === prev[common]) common++;
    for (let i = common; i < parts.length - 1; i++) out.push(`${"  ".repeat(i)}${parts[i]}/`);
    out.push(`${"  ".repeat(parts.length - 1)}${parts[parts.length - 1]}  (${f.language}, ${f.symbols} symbols)`);
    prev = parts;
  }
  return out.join("\n");
}

/** The first FILES_LISTED paths of a long list, and how to narrow it. */
function fileListHead(files: FileEntry[]): string {
  const rest = files.length - FILES_LISTED;
  return [
    ...files.slice(0, FILES_LISTED).map((f) => f.path),
    `… ${rest} more files (${files.length} in all); pass a folder path to list its files.`,
  ].join("\n");
}

/**
 * Too many files to list (the JDK has 15,132: a listing of 800 KB): the folders instead, each with
 * the files and symbols under it, as many levels below the files' common folder as fit in
 * FOLDER_LINES lines.
 */
function folderSummary(files: FileEntry[]): string {
  const dirs = files.map((f) => f.path.split("/").slice(0, -1));
  let base = dirs[0]!.length;
  for (const d of dirs) {
    let i = 0;
    while (i < base && i < d.length && d[i] === dirs[0]![i]) i++;
    base = i;
  }
  // Folder lines per level: every distinct folder down to that level.
  const folders = (levels: number) => {
    const seen = new Map<string, { files: number; symbols: number }>();
    files.forEach((f, i) => {
      const d = dirs[i]!;
      for (let depth = base + 1; depth <= Math.min(d.length, base + levels); depth++) {
        const key = d.slice(0, depth).join("/");
        const c = seen.get(key) ?? { files: 0, symbols: 0 };
        c.files++;
        c.symbols += f.symbols;
        seen.set(key, c);
      }
    });
    return seen;
  };
  let levels = 1;
  let shown = folders(1);
  for (;;) {
    const deeper = folders(levels + 1);
    if (deeper.size === shown.size || deeper.size > FOLDER_LINES) break;
    levels++;
    shown = deeper;
  }
  const byLanguage = new Map<string, number>();
  for (const f of files) byLanguage.set(f.language, (byLanguage.get(f.language) ?? 0) + 1);
  const languages = [...byLanguage].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ${n}`);
  const out = [
    `${files.length} files (${languages.join(", ")}): too many to list, so their folders follow, ${levels} level${levels > 1 ? "s" : ""} deep, with the files and symbols under each. Pass a folder path to list its files.`,
  ];
  // The common folder heads the tree, so each line reads as a path from the project's root.
  const common = dirs[0]!.slice(0, base).join("/");
  const direct = dirs.filter((d) => d.length === base).length;
  const here = direct ? `${plural(direct, "file")} directly here` : "";
  if (common) {
    const symbols = files.reduce((n, f) => n + f.symbols, 0);
    out.push(`${common}/  (${plural(files.length, "file")}, ${plural(symbols, "symbol")}${here && `; ${here}`})`);
  } else if (here) out.push(`./  (${here})`);
  const indent = common ? 1 : 0;
  for (const [key, c] of [...shown].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const parts = key.split("/");
    out.push(
      `${"  ".repeat(parts.length - base - 1 + indent)}${parts[parts.length - 1]}/  (${plural(c.files, "file")}, ${plural(c.symbols, "symbol")})`,
    );
  }
  return out.join("\n");
}
