import { shellWord, shellWords } from "./shell-words.js";
import type { ServerCommand } from "./targets.js";

/** The command line of the prompt hook, as Claude runs it through a shell. */
export function hookCommand(server: ServerCommand): string {
  return [server.command, ...server.prefix, "prompt-hook"].map(shellWord).join(" ");
}

/**
 * Which hook commands are ours: this install's exact command; any `codegraph… prompt-hook`
 * (`codegraph`, `npx codegraph`, a path to a `codegraph` program); and node running some
 * `dist/cli/main.js prompt-hook`, quoted or not, which is what `hookCommand` writes when `codegraph`
 * is not on PATH. The command form changes when `codegraph` comes onto PATH (or leaves it), and an
 * install must still find the hook an earlier one wrote, or it adds a second and uninstall leaves the
 * first behind.
 */
export function isOurHookCommand(server: ServerCommand): (command: unknown) => boolean {
  const ours = hookCommand(server);
  return (command) =>
    typeof command === "string" &&
    (command === ours || /codegraph\S* prompt-hook\b/.test(command) || runsOurScript(shellWords(command)));
}

/** `node …/dist/cli/main.js prompt-hook …`: a node program, our bundle's path, our command. */
function runsOurScript([program, script, command]: string[]): boolean {
  return (
    program !== undefined &&
    /^node(js)?(\.exe)?$/i.test(lastPart(program)) &&
    script !== undefined &&
    /(^|[\\/])dist[\\/]cli[\\/]main\.js$/.test(script) &&
    command === "prompt-hook"
  );
}

function lastPart(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
