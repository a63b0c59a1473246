import type { SyncHealth } from "../core/sync-health.js";
import { FreshnessProbe } from "../query/freshness.js";
import { renderAutoSync, renderChangedWhileFrozen } from "../render/health-banner.js";
import type { Db } from "../store/database.js";
import { relations, type RelationResult } from "../query/callers.js";
import { listFiles, projectFolder } from "../query/files.js";
import { impact, type ImpactResult } from "../query/impact.js";
import { nodeView } from "../query/node.js";
import { checkCycles } from "../query/check.js";
import { exploreQuery } from "../query/explore.js";
import { exportGraph } from "../query/export.js";
import { searchSymbols } from "../query/search.js";
import { renderExplore } from "../render/explore.js";
import { nodeLinkJson } from "../render/graph-json.js";
import { renderCycles } from "../render/graph-text.js";
import { status } from "../query/status.js";
import {
  outsideFolder,
  renderFiles,
  renderImpact,
  renderNode,
  renderRelations,
  renderSearch,
  renderStatus,
} from "../render/text.js";
import { ArgumentError, type ArgSpecs } from "./tool-args.js";

/** What a tool needs to answer: the project's root and its open index. */
export interface ToolContext {
  root: string;
  db: Db;
  /** The language of a path, or null when it is not indexed (for status's scan of the disk). */
  languageOf: (path: string) => string | null;
  /** The live auto-sync's health, or null when nothing watches the project in this session. */
  health: SyncHealth | null;
}

/**
 * While auto-sync is RECOVERING or DISABLED, an answer naming files that changed since the last sync
 * would come from a frozen graph: name those files instead. Null when the answer may stand.
 */
function frozen(ctx: ToolContext, files: Iterable<string>): string | null {
  const state = ctx.health?.state;
  if (!state || state === "ok") return null;
  const probe = new FreshnessProbe(ctx.db, ctx.root);
  const changed = [...new Set(files)].filter((f) => !probe.check(f).fresh).sort();
  return changed.length ? renderChangedWhileFrozen(state, changed) : null;
}

/** Every file a callers or callees answer names: its definitions' and its rows'. */
function* relationFiles(r: RelationResult): Iterable<string> {
  for (const g of r.groups) {
    yield g.definition.file;
    for (const row of g.rows) yield row.symbol.file;
  }
  for (const o of r.others) yield o.definition.file;
}

/** Every file an impact answer names: its roots' and its dependents'. */
function* impactFiles(r: ImpactResult): Iterable<string> {
  for (const s of r.sections) {
    for (const root of s.roots) yield root.file;
    for (const h of s.hits) yield h.symbol.file;
  }
  for (const o of r.others) for (const root of o.roots) yield root.file;
}

export type ToolArgs = Record<string, string | number | boolean | undefined>;

export interface ToolSpec {
  /** The short name used in CODEGRAPH_MCP_TOOLS. */
  short: string;
  name: string;
  title: string;
  description: string;
  args: ArgSpecs;
  /** Arguments the tool cannot work without (projectPath is added when there is no default project). */
  required: readonly string[];
  run(ctx: ToolContext, args: ToolArgs): string;
}

/** The four tools listed when CODEGRAPH_MCP_TOOLS does not say otherwise. All ten are always callable. */
export const DEFAULT_TOOLS = ["explore", "node", "search", "callers"] as const;

const str = (a: ToolArgs, k: string) => a[k] as string | undefined;
const int = (a: ToolArgs, k: string) => a[k] as number;

/** The most rows per definition callers and callees may ask for. */
const MAX_RELATION_ROWS = 100;
/** The most dependents codegraph_impact lists: about 60 KB of text. */
const MAX_IMPACT_ROWS = 500;

const symbolArg = {
  type: "string",
  description:
    "A symbol: its name (`handleRequest`), qualified name (`Router.handleRequest`, `Router::handleRequest`, `Router#handleRequest`), module path and name (`http.ListenAndServe`, `django.db.models.query.QuerySet.filter`), a file and name (`src/router.ts:Router.handleRequest`), or node id from search.",
} as const;
const fileFilter = {
  type: "string",
  description:
    "Only the definition in this file (a project-relative path or its end), when several symbols share the name.",
} as const;

export const TOOLS: readonly ToolSpec[] = [
  {
    short: "explore",
    name: "codegraph_explore",
    title: "Explore code for a question",
    description:
      "PRIMARY tool: start here for any question about how code works or where something is. Give a question, " +
      "symbol names or file paths; one call returns the relevant symbols' source grouped by file plus who calls " +
      "them and what they call. Use it instead of chains of grep and file reads.",
    args: {
      query: {
        type: "string",
        description:
          "What you want to understand: a question, symbol names, or paths (`how is a session token refreshed`).",
      },
      maxFiles: {
        type: "integer",
        description: "At most this many files of source (default: by the project's size, 6 to 10).",
        minimum: 1,
        maximum: 30,
      },
      maxChars: {
        type: "integer",
        description:
          "Characters of source in the answer, 1,000 to 24,000 (default: by the project's size, 12,000 to 24,000).",
        minimum: 1000,
        maximum: 24000,
      },
    },
    required: ["query"],
    run: (ctx, a) =>
      renderExplore(
        exploreQuery(ctx.db, ctx.root, str(a, "query")!, {
          maxFiles: int(a, "maxFiles"),
          maxChars: int(a, "maxChars"),
        }),
      ),
  },
  {
    short: "search",
    name: "codegraph_search",
    title: "Search symbols",
    description:
      "Find symbols by name or by words in their names, signatures and docs. Returns kind, qualified name, " +
      "file:line and signature for each hit. Use it when you know roughly what something is called.",
    args: {
      query: {
        type: "string",
        description:
          "A name, part of one, or words (`parse config`, `UserRepo`, `Order.total`); typos are forgiven. " +
          "May hold filters: `kind:method`, `lang:python`, `path:src/api`.",
      },
      kind: {
        type: "string",
        description: "Only this kind of symbol: function, method, class, interface, type_alias, variable, ...",
      },
      limit: { type: "integer", description: "At most this many hits.", minimum: 1, maximum: 100, default: 10 },
    },
    required: ["query"],
    run: (ctx, a) => {
      const r = searchSymbols(ctx.db, str(a, "query")!, { kind: str(a, "kind"), limit: int(a, "limit") });
      return (
        frozen(
          ctx,
          [...r.hits, ...(r.otherKinds?.hits ?? [])].map((h) => h.file),
        ) ?? renderSearch(r)
      );
    },
  },
  {
    short: "node",
    name: "codegraph_node",
    title: "Read a symbol or a file",
    description:
      "Read one symbol's source with its location and signature (by name, Class.method or id), or a file's " +
      "numbered lines (`src/app.ts`, `src/app.ts:42-80`, `src/app.ts#L42-L80`). A smarter Read.",
    args: {
      symbol: symbolArg,
      file: {
        type: "string",
        description: "A project file to read, optionally with :line, :start-end or #Lstart-Lend.",
      },
      line: {
        type: "integer",
        description: "Pick the definition around this line of `file`.",
        minimum: 1,
        maximum: 10_000_000,
      },
      offset: { type: "integer", description: "First line to show (file mode).", minimum: 1, maximum: 10_000_000 },
      limit: {
        type: "integer",
        description: "How many lines to show (file mode, at most 2000).",
        minimum: 1,
        maximum: 2000,
      },
    },
    required: [],
    run: (ctx, a) => {
      if (!str(a, "symbol") && !str(a, "file")) {
        throw new ArgumentError("pass 'symbol' (a name, Class.method or id) or 'file' (a project path).");
      }
      return renderNode(
        nodeView(ctx.db, ctx.root, {
          symbol: str(a, "symbol"),
          file: str(a, "file"),
          line: a.line as number | undefined,
          offset: a.offset as number | undefined,
          limit: a.limit as number | undefined,
        }),
      );
    },
  },
  ...(["callers", "callees"] as const).map((direction): ToolSpec => ({
    short: direction,
    name: `codegraph_${direction}`,
    title: direction === "callers" ? "Who calls a symbol" : "What a symbol calls",
    description:
      direction === "callers"
        ? "Who calls a symbol, with file:line of each call, then who references it (a callback, a type in a " +
          "signature) or imports it, grouped per definition (two same-named functions " +
          "in two files are two sections; of a name with more than 10 definitions, the 10 with the most " +
          "callers, then the next 40 a line each). Use it before changing a function's behaviour or signature."
        : "What a symbol calls and instantiates, with where each target is defined, grouped per definition.",
    args: {
      symbol: symbolArg,
      file: fileFilter,
      limit: {
        type: "integer",
        description: "At most this many rows per definition.",
        minimum: 1,
        maximum: MAX_RELATION_ROWS,
        default: 20,
      },
    },
    required: ["symbol"],
    run: (ctx, a) => {
      const r = relations(ctx.db, str(a, "symbol")!, direction, {
        file: str(a, "file"),
        limit: int(a, "limit"),
        uses: direction === "callers" ? "callers" : "calls",
      });
      return frozen(ctx, relationFiles(r)) ?? renderRelations(r, MAX_RELATION_ROWS);
    },
  })),
  {
    short: "impact",
    name: "codegraph_impact",
    title: "Blast radius of a change",
    description:
      "Everything that depends on a symbol, transitively (callers, callers of callers, subclasses, importers): " +
      "what may break if it changes, per definition of the name. Use it before a refactor.",
    args: {
      symbol: symbolArg,
      file: fileFilter,
      depth: { type: "integer", description: "How many hops to follow.", minimum: 1, maximum: 10, default: 3 },
      limit: {
        type: "integer",
        description: "At most this many dependents in all (definitions shown side by side share it).",
        minimum: 1,
        maximum: MAX_IMPACT_ROWS,
        default: 200,
      },
    },
    required: ["symbol"],
    run: (ctx, a) => {
      const r = impact(ctx.db, str(a, "symbol")!, {
        depth: int(a, "depth"),
        file: str(a, "file"),
        limit: int(a, "limit"),
        root: ctx.root,
      });
      return frozen(ctx, impactFiles(r)) ?? renderImpact(r, MAX_IMPACT_ROWS);
    },
  },
  {
    short: "status",
    name: "codegraph_status",
    title: "Index status",
    description:
      "Index health: files, symbols and edges by kind, database size, and the files changed on disk since " +
      "the last sync (Pending sync).",
    args: {},
    required: [],
    run: (ctx) =>
      `${renderStatus(status(ctx.db, ctx.root, ctx.languageOf), { forAgent: true })}\n${renderAutoSync(ctx.health)}`,
  },
  {
    short: "files",
    name: "codegraph_files",
    title: "Indexed files",
    description:
      "The indexed files under a folder, as a tree with languages and symbol counts, or as a flat list. Over " +
      "300 files, the tree becomes a summary by folder and the list stops at 300: pass a folder to see its files.",
    args: {
      path: { type: "string", description: "A project-relative folder (default: the whole project)." },
      format: { type: "string", description: "tree (default) or list.", enum: ["tree", "list"] },
    },
    required: [],
    run: (ctx, a) => {
      const folder = projectFolder(ctx.root, str(a, "path"));
      if (folder === null) return outsideFolder(str(a, "path")!);
      return renderFiles(listFiles(ctx.db, folder), str(a, "format") !== "list");
    },
  },
  {
    short: "check",
    name: "codegraph_check",
    title: "Import cycles",
    description:
      "Circular dependencies between files: each import cycle as `a.ts -> b.ts -> a.ts`. Run it after " +
      "restructuring imports to confirm no cycle was introduced.",
    args: { path: { type: "string", description: "Only cycles touching files under this project folder." } },
    required: [],
    run: (ctx, a) => {
      const folder = projectFolder(ctx.root, str(a, "path"));
      if (folder === null) return outsideFolder(str(a, "path")!);
      return renderCycles(checkCycles(ctx.db, { path: folder }), folder || undefined, { forAgent: true });
    },
  },
  {
    short: "export",
    name: "codegraph_export",
    title: "Export the whole graph",
    description:
      "The complete graph as NetworkX node-link JSON (nodes with kind, file and lines; links with kind and " +
      "line), optionally with PageRank centrality. Large: for scripts and visualisation, not for reading code.",
    args: { pagerank: { type: "boolean", description: "Add each node's PageRank.", default: false } },
    required: [],
    run: (ctx, a) => [...nodeLinkJson(exportGraph(ctx.db, { pagerank: a.pagerank === true, root: ctx.root }))].join(""),
  },
];

/** A tool by its full name (`codegraph_search`), or undefined. */
export function toolNamed(name: string): ToolSpec | undefined {
  return TOOLS.find((t) => t.name === name);
}
