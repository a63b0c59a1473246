import type * as InstallCommands from "./install-commands.js";

/**
 * The installer's commands live in their own bundle (see scripts/after-build.mjs), resolved at run
 * time from dist/cli/main.js: the JSON, TOML and YAML editors load only for these commands, never
 * on the start-up path of the others.
 */
export async function loadInstallCommands(): Promise<typeof InstallCommands> {
  const bundle = "./commands/install-commands.js";
  return (await import(bundle)) as typeof InstallCommands;
}
