// Stopping the background daemon @colbymchenry/codegraph starts per project, so no run inherits a warm one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Colby's MCP server hands the project to a per-project daemon (its own session, a 5-minute idle
 * timeout) whose pid it writes to <repo>/.codegraph/daemon.pid (JSON). Stop the one this run started, by
 * that pid, once its command line shows it serves this copy, so no run inherits a warm daemon.
 */
export async function stopColbyDaemon(dir) {
  let pid;
  try {
    const text = readFileSync(join(dir, ".codegraph", "daemon.pid"), "utf8").trim();
    pid = text.startsWith("{") ? Number(JSON.parse(text).pid) : Number(text);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 1) return;
  const serves = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(dir);
    } catch {
      return false;
    }
  };
  if (!serves()) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let t = 0; t < 5000 && serves(); t += 50) await sleep(50);
  if (serves()) process.kill(pid, "SIGKILL");
}
