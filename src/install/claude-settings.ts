import { join } from "node:path";
import { removeJsonArrayItems, upsertJsonArrayItem } from "./json-edit.js";
import type { Scope, ServerCommand, TargetContext } from "./targets.js";

/** Claude Code's settings file: permissions and hooks live here, not in ~/.claude.json. */
export function claudeSettingsFile(scope: Scope, { env, projectRoot }: TargetContext): string {
  return scope === "global"
    ? join(env.home, ".claude", "settings.json")
    : join(projectRoot, ".claude", "settings.json");
}

/** Lets Claude call every codegraph tool without asking: they are all read-only. */
export const PERMISSION = "mcp__codegraph__*";
const PERMISSION_PATH = ["permissions", "allow"];
const isPermission = (v: unknown) => v === PERMISSION;

export const addPermission = (text: string, file: string) =>
  upsertJsonArrayItem(text, file, PERMISSION_PATH, PERMISSION, isPermission);
export const removePermission = (text: string, file: string) =>
  removeJsonArrayItems(text, file, PERMISSION_PATH, isPermission, true);

const HOOK_PATH = ["hooks", "UserPromptSubmit"];

/** The command line of the prompt hook, as Claude runs it through a shell. */
export function hookCommand(server: ServerCommand): string {
  return [server.command, ...server.prefix, "prompt-hook"].map(shellWord).join(" ");
}

/** A UserPromptSubmit group is ours when one of its commands runs `… prompt-hook` of a codegraph. */
function isOurHookGroup(value: unknown): boolean {
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  return (
    Array.isArray(hooks) &&
    hooks.some((h) => {
      const command = (h as { command?: unknown } | null)?.command;
      return typeof command === "string" && /codegraph/.test(command) && /\bprompt-hook\b/.test(command);
    })
  );
}

export const addPromptHook = (text: string, file: string, server: ServerCommand) =>
  upsertJsonArrayItem(
    text,
    file,
    HOOK_PATH,
    { hooks: [{ type: "command", command: hookCommand(server) }] },
    isOurHookGroup,
  );
export const removePromptHook = (text: string, file: string) =>
  removeJsonArrayItems(text, file, HOOK_PATH, isOurHookGroup, true);

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
