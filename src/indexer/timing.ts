import { readEnv } from "../config/env.js";

/** With CODEGRAPH_DEBUG set, each call writes the time since the previous one to stderr. */
export function phaseTimer(): (label: string) => void {
  const debug = readEnv().debug;
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    if (debug) process.stderr.write(`[codegraph] ${label}: ${Math.round(now - last)} ms\n`);
    last = now;
  };
}
