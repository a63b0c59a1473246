import type * as InstallCommands from "./install-commands.js";

/**
 * The installer's commands live in their own bundle (see scripts/after-build.mjs), resolved at run
 * time: the JSON, TOML and YAML editors load only for these commands, never on the start-up path of
 * the others. Bundled, this code runs from dist/cli/main.js; from tsc's per-module output it runs
 * beside install-commands.js.
 */
export async function loadInstallCommands(): Promise<typeof InstallCommands> {
  const bundle = import.meta.url.endsWith("/commands/load-install.js")
    ? "./install-commands.js"
    : "./commands/install-commands.js";
  return (await import(bundle)) as typeof InstallCommands;
}
