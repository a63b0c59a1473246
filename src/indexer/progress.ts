/** What long work reports as it goes; the CLI draws it on a TTY. */
export interface Progress {
  phase: "scanning" | "parsing" | "resolving" | "writing" | "indexing";
  done: number;
  total: number;
}

export type ProgressFn = (p: Progress) => void;

/** A summary of one index or sync, for people and for `--json`. */
export interface IndexSummary {
  mode: "full" | "sync";
  root: string;
  files: number;
  nodes: number;
  edges: number;
  languages: Record<string, number>;
  added: number;
  modified: number;
  removed: number;
  skipped: { path: string; reason: string }[];
  /** Files indexed as far as they parse. */
  partial: { path: string; errors: number }[];
  /** Files whose extraction stopped at its bounds (generated code), indexed in part. */
  cutShort: string[];
  refsResolved: number;
  durationMs: number;
  /**
   * Why a sync rebuilt the index from scratch instead: another codegraph version made it, or most files
   * changed (then `mode` stays "sync", with the changes the scan found).
   */
  rebuilt?: string;
}
