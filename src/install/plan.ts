import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { CodegraphError } from "../core/errors.js";
import { readRegularFile } from "../core/regular-file.js";
import {
  addPermission,
  addPromptHook,
  claudeSettingsFile,
  removePermission,
  removePromptHook,
} from "./claude-settings.js";
import { hasEntry, isEmptyJson, removeEntry, setEntry } from "./config-entry.js";
import { hasBlock, removeBlock, upsertBlock } from "./fenced-block.js";
import { INSTRUCTION_BLOCK, SKILL_FILE } from "./instructions.js";
import { TARGETS, type ConfigEntry, type Scope, type Target, type TargetContext } from "./targets.js";

/** One file's change: its text before and after (null: absent), and what we did to it. */
export interface FileChange {
  file: string;
  before: string | null;
  after: string | null;
  actions: string[];
}

export interface InstallOptions {
  /** Claude: allow codegraph's tools without a prompt (default on). */
  permissions: boolean;
  /** Claude: run `codegraph prompt-hook` on every prompt. */
  promptHook: boolean;
}

export const skillPath = (projectRoot: string) => join(projectRoot, ".agents", "skills", "codegraph", "SKILL.md");

/**
 * Collects every edit of one command before anything is written, so a malformed file stops its
 * target before any of that target's files change, and two edits of one file become one write.
 */
export class Plan {
  private readonly changes = new Map<string, FileChange>();

  /** Edit a file's current (planned) text; `fn` returns null to delete the file. */
  edit(file: string, action: string, fn: (text: string) => string | null): void {
    let change = this.changes.get(file);
    if (!change) {
      const before = read(file);
      change = { file, before, after: before, actions: [] };
    }
    const next = fn(change.after ?? "");
    // An absent file that would stay empty is no change.
    if (next === change.after || (change.after === null && !next)) return;
    change.after = next;
    change.actions.push(action);
    this.changes.set(file, change);
  }

  /** An independent copy, to try a target's edits on. */
  clone(): Plan {
    const copy = new Plan();
    for (const [file, change] of this.changes) copy.changes.set(file, { ...change, actions: [...change.actions] });
    return copy;
  }

  /** The text a file will have once the plan is applied. */
  textOf(file: string): string | null {
    return this.changes.has(file) ? this.changes.get(file)!.after : read(file);
  }

  /** The files that really change. */
  list(): FileChange[] {
    return [...this.changes.values()].filter((c) => c.before !== c.after);
  }

  /** The changes whose planned text differs from `earlier`'s: what the edits made since then touched. */
  changedSince(earlier: Plan): FileChange[] {
    return this.list().filter((c) => {
      const prior = earlier.changes.get(c.file);
      return (prior ? prior.after : c.before) !== c.after;
    });
  }
}

/**
 * A config's text; null when there is none. One that is not a readable regular file (a FIFO, whose
 * read would wait forever) is an error naming it.
 */
function read(file: string): string | null {
  const text = readRegularFile(file);
  if (text !== null || !existsSync(file)) return text;
  throw new CodegraphError("IO", `cannot read ${file}: it is not a readable file; nothing was written.`);
}

/** Why a target has nothing to write at a scope, or undefined when it has. */
export function unsupported(target: Target, scope: Scope, ctx: TargetContext): string | undefined {
  if (target.config(scope, ctx)) return undefined;
  return `${target.name} has no ${scope === "local" ? "project-level" : "user-level"} MCP config; use --${scope === "local" ? "global" : "local"}.`;
}

/** Add our entry, instruction block, skill file and (Claude) settings for one target. */
export function planInstall(
  plan: Plan,
  target: Target,
  scope: Scope,
  ctx: TargetContext,
  options: InstallOptions,
): void {
  const entry = target.config(scope, ctx);
  if (!entry) throw new CodegraphError("BAD_INPUT", unsupported(target, scope, ctx)!);
  for (const legacy of entry.legacyKeys ?? []) {
    plan.edit(entry.file, `moved ${legacy.join(".")} to ${entry.key.join(".")}`, (text) =>
      hasEntry(entry, text, legacy) ? removeEntry(entry, text, legacy) : text,
    );
  }
  plan.edit(entry.file, `set ${entry.key.join(".")}`, (text) => setEntry(entry, text));
  for (const file of target.instructionFiles?.(scope, ctx) ?? []) {
    plan.edit(file, "wrote the codegraph instruction block", (text) => upsertBlock(text, file, INSTRUCTION_BLOCK));
  }
  if (scope === "local" && target.localSkill)
    plan.edit(skillPath(ctx.projectRoot), "wrote the codegraph skill", () => SKILL_FILE);
  if (target.id === "claude") {
    const settings = claudeSettingsFile(scope, ctx);
    if (options.permissions)
      plan.edit(settings, "allowed mcp__codegraph__* tools", (text) => addPermission(text, settings));
    if (options.promptHook) {
      plan.edit(settings, "added the UserPromptSubmit prompt hook", (text) =>
        addPromptHook(text, settings, ctx.server),
      );
    }
  }
}

/**
 * Take out what `planInstall` wrote. Files shared by several targets (a project's AGENTS.md and
 * skill serve Codex and Zuno) are kept while another target still has its entry at that scope.
 */
export function planUninstall(
  plan: Plan,
  target: Target,
  scope: Scope,
  ctx: TargetContext,
  leaving: readonly Target[],
): void {
  const entry = target.config(scope, ctx);
  if (!entry) return;
  for (const at of entryFiles(entry)) {
    for (const key of [at.key, ...(at.legacyKeys ?? [])]) {
      plan.edit(at.file, `removed ${key.join(".")}`, (text) => dropEmpty(removeEntry(at, text, key), at.file));
    }
  }
  const stays = TARGETS.filter((t) => t !== target && !leaving.includes(t) && isInstalled(plan, t, scope, ctx));
  const sharedBy = (file: string) => stays.some((t) => t.instructionFiles?.(scope, ctx).includes(file));
  for (const file of target.instructionFiles?.(scope, ctx) ?? []) {
    if (sharedBy(file)) continue;
    plan.edit(file, "removed the codegraph instruction block", (text) => dropEmpty(removeBlock(text, file), file));
  }
  if (scope === "local" && target.localSkill && !stays.some((t) => t.localSkill)) {
    const skill = skillPath(ctx.projectRoot);
    plan.edit(skill, "removed the codegraph skill", () => (isLink(skill) ? "" : null));
  }
  if (target.id === "claude") {
    const settings = claudeSettingsFile(scope, ctx);
    plan.edit(settings, "removed the mcp__codegraph__* permission", (text) =>
      dropEmpty(removePermission(text, settings), settings),
    );
    plan.edit(settings, "removed the prompt hook", (text) =>
      dropEmpty(removePromptHook(text, settings, ctx.server), settings),
    );
  }
}

/** Our entry is in one of the target's config files at this scope (as the plan leaves them). */
export function isInstalled(plan: Plan, target: Target, scope: Scope, ctx: TargetContext): boolean {
  const entry = target.config(scope, ctx);
  return !!entry && entryFiles(entry).some((at) => hasEntryIn(plan, at));
}

function hasEntryIn(plan: Plan, entry: ConfigEntry): boolean {
  const text = plan.textOf(entry.file);
  if (!text) return false;
  try {
    return hasEntry(entry, text);
  } catch {
    return false;
  }
}

/** The entry in its preferred file, then in each other file the agent may have been given it in. */
function entryFiles(entry: ConfigEntry): ConfigEntry[] {
  return [entry, ...(entry.alsoAt ?? []).map((file) => ({ ...entry, file }))];
}

/** The instruction blocks and skill that `skill update` refreshes: only those already there. */
export function planSkillUpdate(plan: Plan, target: Target, scope: Scope, ctx: TargetContext): void {
  for (const file of target.instructionFiles?.(scope, ctx) ?? []) {
    const text = plan.textOf(file);
    if (text && hasBlock(text, file)) {
      plan.edit(file, "refreshed the codegraph instruction block", (t) => upsertBlock(t, file, INSTRUCTION_BLOCK));
    }
  }
  const skill = skillPath(ctx.projectRoot);
  if (scope === "local" && target.localSkill && plan.textOf(skill) !== null) {
    plan.edit(skill, "refreshed the codegraph skill", () => SKILL_FILE);
  }
}

/**
 * A file we emptied is deleted: nothing of the user's is left in it. A config reached through a
 * symbolic link (dotfiles) is not: the link is the user's, and deleting it would leave our entry in
 * the file it names, so that file gets the emptied text instead.
 */
function dropEmpty(text: string, file: string): string | null {
  const emptied =
    text.trim() === "" || ((file.endsWith(".json") || file.endsWith(".jsonc")) && isEmptyJson(text, file));
  return emptied && !isLink(file) ? null : text;
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
