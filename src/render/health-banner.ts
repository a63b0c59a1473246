import type { SyncHealth } from "../core/sync-health.js";

/**
 * The line that leads every answer while auto-sync is not healthy, or null when it is. The prefixes
 * up to RECOVERING / DISABLED are fixed: agents and tests match on them.
 */
export function healthBanner(health: SyncHealth): string | null {
  switch (health.state) {
    case "ok":
      return null;
    case "recovering":
      return (
        `⚠️ CodeGraph auto-sync is RECOVERING — ${health.reason}; answers may miss edits made since ` +
        `${health.since} until a full reconcile succeeds (retried every 30 s).`
      );
    case "disabled":
      return (
        `⚠️ CodeGraph auto-sync is DISABLED — ${health.reason}. Answers may miss recent edits: ` +
        "run `codegraph sync` and restart the server."
      );
  }
}
