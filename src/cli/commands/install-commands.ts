import { homedir } from "node:os";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CodegraphError, isCodegraphError } from "../../core/errors.js";
import { applyChanges, writeProblem } from "../../install/apply.js";
import { setEntry } from "../../install/config-entry.js";
import { installEnv } from "../../install/locations.js";
import {
  isInstalled,
  Plan,
  planInstall,
  planSkillUpdate,
  planUninstall,
  unsupported,
  type FileChange,
} from "../../install/plan.js";
import { serverCommand } from "../../install/server-command.js";
import { TARGETS, targetById, type Scope, type Target, type TargetContext } from "../../install/targets.js";
import { findIndexedRoot } from "../../project/root.js";
import { multiselect } from "../multiselect.js";
import { renderChanges } from "./install-report.js";
import { writeOut } from "../output.js";

export interface ScopeFlags {
  target?: string;
  global?: boolean;
  local?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  path?: string;
  json?: boolean;
}

export interface InstallFlags extends ScopeFlags {
  printConfig?: string;
  promptHook?: boolean;
  permissions?: boolean;
}

interface Outcome {
  changes: FileChange[];
  notes: string[];
  errors: string[];
  /** The names of the targets that changed each file, to say whose write failed. */
  owners: Map<string, string[]>;
}

const newOutcome = (): Outcome => ({ changes: [], notes: [], errors: [], owners: new Map() });

/** `codegraph install`: register our MCP server (and instructions) with agents. */
export async function runInstall(flags: InstallFlags): Promise<void> {
  const scope = scopeOf(flags);
  const ctx = context(flags, scope);
  if (flags.printConfig !== undefined) return printConfig(flags.printConfig, scope, ctx);
  const targets = await chooseTargets(flags, ctx, "install", (t) => t.detect(ctx.env));
  if (!targets) return;
  const outcome = newOutcome();
  let plan = new Plan();
  for (const target of targets) {
    const why = unsupported(target, scope, ctx);
    if (why) {
      (flags.target ? outcome.errors : outcome.notes).push(why);
      continue;
    }
    plan = tryTarget(plan, outcome, target, (trial) => {
      planInstall(trial, target, scope, ctx, {
        permissions: flags.permissions !== false,
        promptHook: flags.promptHook === true,
      });
      outcome.notes.push(...(target.notes?.(scope) ?? []));
    });
  }
  finish(plan, outcome, flags, ctx, targets, "install");
}

/** `codegraph uninstall`: take out what install wrote, at one scope. */
export async function runUninstall(flags: ScopeFlags): Promise<void> {
  const scope = scopeOf(flags);
  const ctx = context(flags, scope);
  const installed = (t: Target) => isInstalled(new Plan(), t, scope, ctx) || hasClaudeExtras(t, scope, ctx);
  const targets = await chooseTargets(flags, ctx, "uninstall", installed);
  if (!targets) return;
  const outcome = newOutcome();
  let plan = new Plan();
  for (const target of targets) {
    plan = tryTarget(plan, outcome, target, (trial) => planUninstall(trial, target, scope, ctx, targets));
  }
  finish(plan, outcome, flags, ctx, targets, "uninstall");
}

/** `codegraph skill update`: refresh the instruction blocks and skill file where they already are. */
export function runSkillUpdate(flags: Pick<ScopeFlags, "target" | "path" | "json" | "dryRun">): void {
  const ctx = context(flags, "local");
  const targets = flags.target ? parseTargets(flags.target) : TARGETS;
  const outcome = newOutcome();
  let plan = new Plan();
  for (const target of targets) {
    plan = tryTarget(plan, outcome, target, (trial) => {
      for (const scope of ["global", "local"] as const) planSkillUpdate(trial, target, scope, ctx);
    });
  }
  finish(plan, outcome, flags, ctx, targets, "skill update");
}

/** `codegraph init --target=zed`: the project-level Zed entry, with this project's absolute path. */
export function writeInitTarget(id: string, root: string, json: boolean | undefined): void {
  checkInitTarget(id);
  const ctx = context({ path: root }, "local");
  const plan = new Plan();
  planInstall(plan, targetById("zed")!, "local", ctx, { permissions: false, promptHook: false });
  const changes = plan.list();
  const failed = applyChanges(changes, ctx.projectRoot)[0];
  if (failed) throw new CodegraphError("IO", failed.message);
  // With --json, stdout holds the index summary alone.
  if (!json)
    writeOut(
      renderChanges({ changes, notes: [], errors: [] }, { dryRun: false, home: ctx.env.home, targets: [], verb: "" }),
    );
}

/** Only Zed needs init's help: it cannot pass the project's folder to a server. */
export function checkInitTarget(id: string): void {
  if (id !== "zed") {
    throw new CodegraphError(
      "BAD_INPUT",
      `init --target writes a project entry only for zed (Zed cannot pass the project's folder to a server). For ${id}, run \`codegraph install --target=${id} --local\`.`,
    );
  }
}

/**
 * Plan one target on a copy of the plan: a malformed file, or one that cannot be written (read-only,
 * a dangling link), stops that target alone (reported), and the other targets' edits are still
 * written.
 */
function tryTarget(plan: Plan, outcome: Outcome, target: Target, edit: (trial: Plan) => void): Plan {
  const trial = plan.clone();
  try {
    edit(trial);
    const touched = trial.changedSince(plan);
    for (const change of touched) {
      const problem = writeProblem(change);
      if (problem) throw new CodegraphError("IO", `${problem} Nothing was written for ${target.name}.`);
    }
    for (const { file } of touched) outcome.owners.set(file, [...(outcome.owners.get(file) ?? []), target.name]);
    return trial;
  } catch (e) {
    if (!isCodegraphError(e)) throw e;
    outcome.errors.push(`${target.name}: ${e.message}`);
    return plan;
  }
}

function finish(
  plan: Plan,
  outcome: Outcome,
  flags: Pick<ScopeFlags, "dryRun" | "json">,
  ctx: TargetContext,
  targets: readonly Target[],
  verb: string,
): void {
  outcome.changes = plan.list();
  if (!flags.dryRun) {
    // Each file on its own: one that fails is reported with the targets that wanted it, and the
    // others are written (and reported) all the same.
    const failures = applyChanges(outcome.changes, ctx.projectRoot);
    const failed = new Set(failures.map((f) => f.file));
    outcome.changes = outcome.changes.filter((c) => !failed.has(c.file));
    for (const { file, message } of failures) {
      outcome.errors.push(`${(outcome.owners.get(file) ?? []).join(", ") || file}: ${message}`);
    }
  }
  if (flags.json) {
    // Files, not their texts: ~/.claude.json alone can run to megabytes.
    const changes = outcome.changes.map(({ file, before, after, actions }) => ({
      file,
      change: before === null ? "created" : after === null ? "deleted" : "updated",
      actions,
    }));
    const report = { dryRun: !!flags.dryRun, changes, notes: outcome.notes, errors: outcome.errors };
    writeOut(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    writeOut(renderChanges(outcome, { dryRun: !!flags.dryRun, home: ctx.env.home, targets, verb }));
  }
  if (outcome.errors.length > 0) process.exitCode = 1;
}

function printConfig(id: string, scope: Scope, ctx: TargetContext): void {
  const target = parseTargets(id)[0]!;
  const entry = target.config(scope, ctx);
  if (!entry) throw new CodegraphError("BAD_INPUT", unsupported(target, scope, ctx)!);
  writeOut(`# ${target.name}, ${scope}: ${entry.file}\n${setEntry(entry, "")}`);
  for (const note of target.notes?.(scope) ?? []) writeOut(`# ${note}\n`);
}

/**
 * The targets a command acts on: those named with --target; else the detected (or installed) ones,
 * taken as they are with --yes, or chosen in a checkbox list on a terminal. Elsewhere we do not
 * guess: we say what we found and how to go on. Null when there is nothing to do.
 */
async function chooseTargets(
  flags: ScopeFlags,
  ctx: TargetContext,
  verb: "install" | "uninstall",
  found: (t: Target) => boolean,
): Promise<Target[] | null> {
  if (flags.target) return parseTargets(flags.target);
  const present = TARGETS.filter(found);
  const what = verb === "install" ? "detected on this machine" : "with codegraph registered";
  if (flags.yes || flags.dryRun) {
    if (present.length === 0) process.stderr.write(`codegraph: no agents ${what}; name them with --target=<id>.\n`);
    return present.length ? present : null;
  }
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const order = verb === "install" ? [...present, ...TARGETS.filter((t) => !present.includes(t))] : present;
    if (order.length === 0) {
      process.stderr.write(`codegraph: no agents ${what}.\n`);
      return null;
    }
    const picked = await multiselect(
      verb === "install" ? "Register codegraph with which agents?" : "Remove codegraph from which agents?",
      order.map((t) => ({
        label: `${t.name} (${t.id})`,
        hint: present.includes(t) ? "detected" : undefined,
        selected: present.includes(t),
      })),
    );
    if (picked === null) {
      process.stderr.write("Cancelled; nothing was written.\n");
      return null;
    }
    return picked.map((i) => order[i]!);
  }
  const names = present.map((t) => t.id).join(",");
  throw new CodegraphError(
    "BAD_INPUT",
    present.length
      ? `Agents ${what}: ${names}. Nothing was written: run \`codegraph ${verb} --yes\` to ${verb === "install" ? "register codegraph with" : "remove codegraph from"} them, \`--dry-run\` to see the changes first, or choose with --target=<id>[,<id>...].`
      : `No agents ${what}. Name them with --target=<id>[,<id>...]; ids: ${TARGETS.map((t) => t.id).join(", ")}.`,
  );
}

function parseTargets(list: string): Target[] {
  const ids = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !targetById(id));
  if (unknown.length || ids.length === 0) {
    throw new CodegraphError(
      "BAD_INPUT",
      `Unknown target ${unknown.map((u) => `"${u}"`).join(", ") || "(none given)"}. Targets: ${TARGETS.map((t) => t.id).join(", ")}.`,
    );
  }
  return [...new Set(ids)].map((id) => targetById(id)!);
}

function scopeOf(flags: ScopeFlags): Scope {
  if (flags.global && flags.local)
    throw new CodegraphError("BAD_INPUT", "Choose one of --global and --local, not both.");
  return flags.local ? "local" : "global";
}

function context(flags: Pick<ScopeFlags, "path">, scope: Scope): TargetContext {
  const env = installEnv(process.env, process.platform, process.env.HOME || homedir());
  return {
    env,
    projectRoot: projectRoot(flags.path, scope),
    server: serverCommand(env, process.execPath, realpathSync(process.argv[1]!)),
  };
}

/** A local install writes at the project root: the indexed project around us, else the git root, else here. */
function projectRoot(path: string | undefined, scope: Scope): string {
  const start = resolve(path ?? ".");
  if (path !== undefined && !existsSync(start)) {
    throw new CodegraphError("BAD_INPUT", `${start} does not exist. Pass the project folder with --path.`);
  }
  if (scope === "global" && path === undefined) return start;
  return findIndexedRoot(start) ?? findUp(start, ".git") ?? start;
}

function findUp(start: string, name: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, name))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function hasClaudeExtras(target: Target, scope: Scope, ctx: TargetContext): boolean {
  if (target.id !== "claude") return false;
  const plan = new Plan();
  planUninstall(plan, target, scope, ctx, [target]);
  return plan.list().length > 0;
}
