import { existsSync } from "node:fs";

/**
 * A worker script of the indexer by its file name. It sits beside the module that runs this code:
 * dist/cli/ for the CLI bundle, dist/indexer/ in tsc's output. The daemon runs from a bundle one
 * folder down (dist/cli/commands/serve-command.js), whose workers are the CLI's, one folder up.
 */
export function indexerWorkerUrl(file: string): URL {
  const beside = new URL(`./${file}`, import.meta.url);
  return existsSync(beside) ? beside : new URL(`../${file}`, import.meta.url);
}
