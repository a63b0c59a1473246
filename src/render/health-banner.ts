import type { SyncHealth } from "../core/sync-health.js";

/** A reason as a clause the banner continues: a sentence's own full stop would read ".;" there. */
const clause = (reason: string) => reason.replace(/\.+$/, "");

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
        `⚠️ CodeGraph auto-sync is RECOVERING — ${clause(health.reason)}; answers may miss edits made since ` +
        `${health.since} until a full reconcile succeeds (retried every 30 s).`
      );
    case "disabled":
      return (
        `⚠️ CodeGraph auto-sync is DISABLED — ${clause(health.reason)}. Answers may miss recent edits: ` +
        "run `codegraph sync` and restart the server."
      );
  }
}

/**
 * What search, callers, callees and impact say instead of an answer while auto-sync is unhealthy and
 * files they would name changed since the last sync: the frozen graph cannot speak for those files.
 */
export function renderChangedWhileFrozen(state: "recovering" | "disabled", files: readonly string[]): string {
  return [
    `Auto-sync is ${state.toUpperCase()}, and files this answer would name changed since the last index sync:`,
    ...files.map((f) => `  - ${f}`),
    "The graph no longer describes them. Read them directly, or run `codegraph sync` and ask again.",
  ].join("\n");
}

/** The `Auto-sync:` line of status: null health means nothing watches the project in this session. */
export function renderAutoSync(health: SyncHealth | null): string {
  if (!health)
    return "Auto-sync: off (nothing watches this project for this session; run `codegraph sync` after edits)";
  if (health.state === "ok") return "Auto-sync: ok (watching for changes)";
  if (health.state === "recovering") return `Auto-sync: RECOVERING since ${health.since} — ${health.reason}`;
  return `Auto-sync: DISABLED — ${health.reason}`;
}
