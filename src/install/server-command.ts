import { onPath, type InstallEnv } from "./locations.js";
import type { ServerCommand } from "./targets.js";

/**
 * How an agent should start our server: `codegraph` when a lasting one is on PATH, as the
 * reference's snippets have it; otherwise `node` and this install's script, so the entry works for a
 * clone that was never linked.
 */
export function serverCommand(env: InstallEnv, node: string, script: string): ServerCommand {
  if (onPath(env, "codegraph", isRunScopedBin)) return { command: "codegraph", prefix: [] };
  return { command: node, prefix: [script] };
}

/**
 * A `node_modules/.bin` folder: `npx` and `npm exec` (`~/.npm/_npx/<hash>/node_modules/.bin`),
 * `npm run` (the project's own), `pnpm dlx` and `bunx` put one on PATH for the run alone. A
 * `codegraph` found only there is gone from the agent's PATH later, so it does not count.
 */
export function isRunScopedBin(dir: string): boolean {
  const parts = dir
    .toLowerCase()
    .split(/[\\/]+/)
    .filter(Boolean);
  return parts.at(-1) === ".bin" && parts.at(-2) === "node_modules";
}
