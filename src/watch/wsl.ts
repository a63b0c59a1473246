import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readEnv } from "../config/env.js";

function isWsl(env: NodeJS.ProcessEnv): boolean {
  if (env.WSL_DISTRO_NAME) return true;
  try {
    return /microsoft/i.test(readFileSync("/proc/version", "utf8"));
  } catch {
    return false;
  }
}

/**
 * Why live watching must stay off for `root`, or null when it may run. Under WSL2 the Windows drives
 * mounted at /mnt/ deliver no inotify events for edits made from Windows and a recursive watch of them is
 * slow, so watching is off there unless CODEGRAPH_FORCE_WATCH=1. (The $HOME and / guard is the caller's:
 * it also stops catch-up sync, and FORCE_WATCH does not lift it.)
 */
export function watchDisabledReason(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (readEnv(env).forceWatch) return null;
  const abs = resolve(root);
  if (abs !== "/mnt" && !abs.startsWith("/mnt/")) return null;
  if (!isWsl(env)) return null;
  return (
    "the project is on a WSL2 /mnt/ drive, where recursive file watching is too slow; " +
    "set CODEGRAPH_FORCE_WATCH=1 to watch it anyway"
  );
}
