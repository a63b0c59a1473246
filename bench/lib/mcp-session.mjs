// A corpus copy indexed by one tool, and an MCP server process spoken to line by line.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

export const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

/** Copy work/corpora/<tier>/<repo> to work/scratch/<name>/<repo> and index it with `initCmd(dir)`. */
export function prepareCopy({ work, tier, repo, name, initCmd, env, log }) {
  const src = join(work, "corpora", tier, repo);
  if (!existsSync(src)) throw new Error(`no corpus at ${src}; run npm run bench -- --tier ${tier} first`);
  const dir = join(work, "scratch", name, repo);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  cpSync(src, dir, { recursive: true });
  const [cmd, cmdArgs] = initCmd(dir);
  log(`${name}: indexing ${dir}`);
  const r = spawnSync(cmd, cmdArgs, { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${name} init failed: ${r.stderr.slice(-400)}`);
  return dir;
}

/** Call `onMessage` with each JSON message a stream carries, one per line (other lines are skipped). */
export function onJsonLines(stream, onMessage) {
  let buf = "";
  stream.on("data", (d) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf("\n")) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      onMessage(msg);
    }
  });
}

/** A server process with request/response over newline-delimited JSON. */
export function startServer(cmd, cmdArgs, cwd, env) {
  const child = spawn(cmd, cmdArgs, { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map();
  onJsonLines(child.stdout, (msg) => {
    const p = pending.get(msg.id);
    if (p) {
      pending.delete(msg.id);
      p(msg);
    }
  });
  let next = 1;
  return {
    child,
    request(method, params) {
      const id = next++;
      return new Promise((res) => {
        pending.set(id, res);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}
