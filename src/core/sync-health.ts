/**
 * The health of a project's live auto-sync (spec, "Auto-sync health"). OK: the index follows the disk
 * within a debounce. RECOVERING: another process held the index past the contention budget; changes are
 * still collected and a full reconcile is retried until one commits. DISABLED: watching stopped.
 */
export type SyncHealth =
  | { state: "ok" }
  | { state: "recovering"; /** ISO time since when edits may be missing. */ since: string; reason: string }
  | { state: "disabled"; reason: string };
