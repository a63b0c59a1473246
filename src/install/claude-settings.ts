import { join } from "node:path";
import {
  getJsonMember,
  nodeValue,
  type JsonPath,
  removeJsonArrayItem,
  removeJsonArrayItems,
  replaceJsonArrayItem,
  upsertJsonArrayItem,
} from "./json-edit.js";
import type { JsonObject } from "./json-render.js";
import { hookCommand, isOurHookCommand } from "./prompt-hook-command.js";
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

/**
 * `hooks.UserPromptSubmit` is a list of groups, each with its own list of `hooks`. A group may hold
 * the user's hooks beside ours: only a group that holds nothing but ours is ours to replace or
 * remove whole; in any other we touch our hook entry alone.
 */
const HOOK_PATH = ["hooks", "UserPromptSubmit"];

/** A group holding hooks of ours: its index, the indexes of ours among its hooks, and how many it has. */
interface GroupWithOurs {
  group: number;
  ours: number[];
  count: number;
}

/** Leave exactly one hook of ours, running this install's command. */
export function addPromptHook(text: string, file: string, server: ServerCommand): string {
  const isOurs = isOurHookCommand(server);
  const wanted: JsonObject = { type: "command", command: hookCommand(server) };
  const [kept, ...others] = groupsWithOurs(text, file, isOurs);
  // A new group, after the user's (the array is created when there is none).
  if (!kept) return upsertJsonArrayItem(text, file, HOOK_PATH, { hooks: [wanted] }, () => false);
  // Ours in later groups go, from the last one down, so the indexes still to use stay right.
  for (const other of others.reverse()) {
    text =
      other.ours.length === other.count
        ? removeJsonArrayItem(text, file, HOOK_PATH, other.group)
        : removeOurHooks(text, file, other, other.ours);
  }
  if (kept.ours.length === kept.count)
    return replaceUnlessEqual(text, file, HOOK_PATH, kept.group, { hooks: [wanted] });
  const [first, ...extra] = kept.ours;
  text = removeOurHooks(text, file, kept, extra);
  return replaceUnlessEqual(text, file, [...HOOK_PATH, kept.group, "hooks"], first!, wanted);
}

/** Remove every hook of ours: whole groups that hold only ours, our entries alone from the others. */
export function removePromptHook(text: string, file: string, server: ServerCommand): string {
  const isOurs = isOurHookCommand(server);
  for (const shared of groupsWithOurs(text, file, isOurs).reverse()) {
    if (shared.ours.length < shared.count) text = removeOurHooks(text, file, shared, shared.ours);
  }
  const onlyOurs = (group: unknown) => {
    const hooks = hooksOf(group);
    return hooks !== undefined && hooks.length > 0 && hooks.every((h) => isOurs(commandOf(h)));
  };
  return removeJsonArrayItems(text, file, HOOK_PATH, onlyOurs, true);
}

function groupsWithOurs(text: string, file: string, isOurs: (command: unknown) => boolean): GroupWithOurs[] {
  const groups = getJsonMember(text, file, HOOK_PATH);
  if (groups?.type !== "array") return [];
  return (groups.children ?? []).flatMap((node, group) => {
    const hooks = hooksOf(nodeValue(node)) ?? [];
    const ours = hooks.flatMap((hook, i) => (isOurs(commandOf(hook)) ? [i] : []));
    return ours.length > 0 ? [{ group, ours, count: hooks.length }] : [];
  });
}

/** Take the hooks at `indexes` out of one group's list, the last first. */
function removeOurHooks(text: string, file: string, { group }: GroupWithOurs, indexes: readonly number[]): string {
  for (const i of [...indexes].reverse()) text = removeJsonArrayItem(text, file, [...HOOK_PATH, group, "hooks"], i);
  return text;
}

/** An item already as we would write it keeps its bytes (and the user's layout of it). */
function replaceUnlessEqual(text: string, file: string, path: JsonPath, index: number, item: JsonObject): string {
  const current = getJsonMember(text, file, [...path, index]);
  if (current && JSON.stringify(nodeValue(current)) === JSON.stringify(item)) return text;
  return replaceJsonArrayItem(text, file, path, index, item);
}

function hooksOf(group: unknown): unknown[] | undefined {
  const hooks = group !== null && typeof group === "object" ? (group as { hooks?: unknown }).hooks : undefined;
  return Array.isArray(hooks) ? hooks : undefined;
}

function commandOf(hook: unknown): unknown {
  return hook !== null && typeof hook === "object" ? (hook as { command?: unknown }).command : undefined;
}
