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

/** A UserPromptSubmit group is ours when it runs this install's hook command, or any codegraph's `prompt-hook`. */
function isOurHookGroup(server: ServerCommand): (value: unknown) => boolean {
  const ours = hookCommand(server);
  return (value) => {
    const hooks = (value as { hooks?: unknown } | null)?.hooks;
    return (
      Array.isArray(hooks) &&
      hooks.some((h) => {
        const command = (h as { command?: unknown } | null)?.command;
        return typeof command === "string" && (command === ours || /codegraph\S* prompt-hook\b/.test(command));
      })
    );
  };
}

export const addPromptHook = (text: string, file: string, server: ServerCommand) =>
  upsertJsonArrayItem(
    text,
    file,
    HOOK_PATH,
    { hooks: [{ type: "command", command: hookCommand(server) }] },
    isOurHookGroup(server),
  );
export const removePromptHook = (text: string, file: string, server: ServerCommand) =>
  removeJsonArrayItems(text, file, HOOK_PATH, isOurHookGroup(server), true);

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
