import type { FileChange } from "../../install/plan.js";
import type { Target } from "../../install/targets.js";

interface Report {
  changes: FileChange[];
  notes: string[];
  errors: string[];
}

/** What an install, uninstall or skill update did (or, with --dry-run, would do), file by file. */
export function renderChanges(
  report: Report,
  { dryRun, home, targets, verb }: { dryRun: boolean; home: string; targets: readonly Target[]; verb: string },
): string {
  const tilde = (file: string) => (file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file);
  const lines: string[] = [];
  if (targets.length) lines.push(`${verb}: ${targets.map((t) => t.name).join(", ")}`);
  if (report.changes.length === 0 && report.errors.length === 0)
    lines.push("Nothing to change: every file is already as it should be.");
  if (dryRun && report.changes.length) lines.push("Dry run: nothing was written. These changes would be made:");
  for (const change of report.changes) {
    const what = change.before === null ? "create" : change.after === null ? "delete" : "update";
    const done = dryRun ? what : `${what}d`;
    lines.push(`  ${done.padEnd(8)} ${tilde(change.file)}  (${change.actions.join("; ")})`);
    if (dryRun) lines.push(...diff(change.before ?? "", change.after ?? "").map((l) => `      ${l}`));
  }
  for (const note of report.notes) lines.push(`Note: ${note}`);
  for (const error of report.errors) lines.push(`Error: ${error}`);
  return `${lines.join("\n")}\n`;
}

/** The changed lines of an edit: our edits are one span, so common head and tail lines frame it. */
function diff(before: string, after: string): string[] {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return [
    ...a.slice(head, a.length - tail).map((l) => `- ${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+ ${l}`),
  ];
}
