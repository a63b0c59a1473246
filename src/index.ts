/**
 * codegraph's public API: index a project, keep it fresh, and query its graph from code.
 * The CLI (`codegraph`) is built on exactly these functions.
 */
export { fullIndex, ensureIndexDir } from "./indexer/full-index.js";
export { syncIndex } from "./indexer/sync.js";
export type { IndexSummary, Progress, ProgressFn } from "./indexer/progress.js";
export { openDatabase } from "./store/database.js";
export { searchSymbols, type SearchResult } from "./query/search.js";
export { relations, type RelationResult } from "./query/callers.js";
export { impact, type ImpactResult } from "./query/impact.js";
export { nodeView, type NodeResult } from "./query/node.js";
export { listFiles, type FileEntry } from "./query/files.js";
export { status, type StatusResult } from "./query/status.js";
export { findSymbols, type SymbolHit } from "./query/symbols.js";
export { CodegraphError, type ErrorCode } from "./core/errors.js";
export { NODE_KINDS, EDGE_KINDS, type NodeKind, type EdgeKind } from "./core/kinds.js";
export { dbPath, indexDir } from "./config/paths.js";
export {
  FILE_MODE_MAX_LINES,
  type NodeOptions,
  type SourceLines,
  type SymbolView,
  type SymbolSourceKind,
} from "./query/node.js";
export { FreshnessProbe, type FileCheck, type FileState } from "./query/freshness.js";
export { resolveIndexedFile, splitLineSelector, type FileResolution, type LineSelector } from "./query/locate-file.js";
export {
  exploreQuery,
  queryTerms,
  EXPLORE_LIMITS,
  type ExploreOptions,
  type ExploreResult,
  type ExploreFile,
  type ExploreBlock,
  type ExploreRelation,
  type ExploreRef,
} from "./query/explore.js";
export { renderNode } from "./render/node.js";
export { renderExplore } from "./render/explore.js";
export { staleBanner, withStaleBanner } from "./render/banner.js";
export { healthBanner } from "./render/health-banner.js";
export { watchProject, watchDisabledReason, type ProjectWatcher, type WatchOptions } from "./watch/index.js";
export type { SyncHealth } from "./core/sync-health.js";
export { checkCycles, type CheckOptions, type CycleReport } from "./query/check.js";
export {
  exportGraph,
  type ExportOptions,
  type NodeLinkGraph,
  type ExportNode,
  type ExportLink,
  type ExportGraphInfo,
} from "./query/export.js";
