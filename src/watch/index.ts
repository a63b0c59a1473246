/** Live watch: file events → debounced incremental sync, live control files, and auto-sync health. */
export { watchProject, type ProjectWatcher, type WatchOptions } from "./project-watcher.js";
export { watchDisabledReason } from "./wsl.js";
export { LOCK_BUDGET_MS, MAX_FAILURES } from "./sync-loop.js";
export { CONTROL_FILES } from "./control-files.js";
export type { SyncHealth } from "../core/sync-health.js";
