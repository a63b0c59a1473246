// The indexers the benchmark runs: ours and the peers, with how to run, sync and inspect each.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { measuredEnv } from "./measure.mjs";

/** Total size of the files in an index folder (database, WAL, side files), or null. */
export function dirBytes(dir) {
  if (!existsSync(dir)) return null;
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile()) total += statSync(p).size;
    else if (e.isDirectory()) total += dirBytes(p) ?? 0;
  }
  return total;
}

function runJson(cmd, args, env) {
  const r = spawnSync(cmd, args, {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.status !== 0) return { error: (r.stderr || r.stdout || `exit ${r.status}`).trim().slice(-500) };
  const text = r.stdout.trim();
  const start = text.indexOf("{");
  try {
    return JSON.parse(start > 0 ? text.slice(start) : text);
  } catch {
    return { error: `not JSON: ${text.slice(0, 200)}` };
  }
}

/** First numeric value among candidate keys (dotted paths allowed). */
function pick(obj, keys) {
  for (const k of keys) {
    const v = k.split(".").reduce((o, p) => (o == null ? undefined : o[p]), obj);
    if (typeof v === "number") return v;
  }
  return null;
}

/** Ours: node dist/cli/main.js. */
export function oursTool(mainJs) {
  const env = measuredEnv();
  const node = process.execPath;
  const probe = existsSync(mainJs)
    ? spawnSync(node, [mainJs, "--help"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    : null;
  const help = probe?.status === 0 ? probe.stdout : "";
  const available = /\binit\b/.test(help) && /\bsync\b/.test(help) && /\bstatus\b/.test(help);
  let version = null;
  if (available) {
    const v = spawnSync(node, [mainJs, "--version"], { env, encoding: "utf8" });
    version = v.status === 0 ? v.stdout.trim() : null;
  }
  return {
    name: "ours",
    label: "ours",
    version,
    available,
    why: available ? null : existsSync(mainJs) ? `${mainJs} --help lists no init/sync/status` : `${mainJs} not built`,
    env,
    indexDir: (repo) => join(repo, ".codegraph"),
    full: (repo) => [[node, [mainJs, "init", "--force", repo]]],
    sync: (repo) => [[node, [mainJs, "sync", repo]]],
    stats(repo) {
      const j = runJson(node, [mainJs, "status", "--json", "-p", repo], env);
      if (j.error) return { error: j.error };
      return {
        files: pick(j, ["files", "fileCount", "files.total"]),
        nodes: pick(j, ["nodes", "nodeCount", "nodes.total"]),
        edges: pick(j, ["edges", "edgeCount", "edges.total"]),
        dbBytes: pick(j, ["dbBytes", "dbSizeBytes"]) ?? dirBytes(join(repo, ".codegraph")),
        indexBytes: dirBytes(join(repo, ".codegraph")),
        unresolved: pick(j, ["unresolved"]),
        raw: j,
      };
    },
  };
}

/** Parses `peers.sh` output lines: NAME \t VERSION \t CLI. */
export function parsePeersOutput(text) {
  const peers = {};
  for (const line of text.split("\n")) {
    const [name, version, cli] = line.split("\t");
    if (name && version && cli) peers[name.trim()] = { version: version.trim(), cli: cli.trim() };
  }
  return peers;
}

/** Env for the peers, as peers.sh prescribes: scratch HOME, telemetry and update checks off. */
export function peerEnv(home) {
  return measuredEnv({
    HOME: home,
    DO_NOT_TRACK: "1",
    CODEGRAPH_TELEMETRY: "0",
    CODEGRAPH_NO_UPDATE_CHECK: "1",
    CODEGRAPH_NO_DOWNLOAD: "1",
  });
}

/**
 * @colbymchenry/codegraph. Since 1.6 `init` builds the initial index itself (its -i flag is
 * deprecated), so a cold full index is `init -y PATH` on a repo without .codegraph/; `index PATH`
 * (a rebuild from scratch inside an initialised project) is measured separately as "rebuild".
 * The npm bin is a shim run by our Node that spawns a bundled Node 24 (with --liftoff-only).
 */
export function colbyTool(peer, home) {
  const env = peerEnv(home);
  return {
    name: "colby",
    label: "colby",
    version: peer?.version ?? null,
    available: !!peer && existsSync(peer.cli),
    why: peer ? null : "not installed",
    env,
    indexDir: (repo) => join(repo, ".codegraph"),
    full: (repo) => [[peer.cli, ["init", "-y", repo]]],
    rebuild: (repo) => [[peer.cli, ["index", repo]]],
    sync: (repo) => [[peer.cli, ["sync", repo]]],
    stats(repo) {
      const j = runJson(peer.cli, ["status", "--json", repo], env);
      if (j.error) return { error: j.error };
      return {
        files: pick(j, ["fileCount"]),
        nodes: pick(j, ["nodeCount"]),
        edges: pick(j, ["edgeCount"]),
        dbBytes: pick(j, ["dbSizeBytes"]),
        indexBytes: dirBytes(join(repo, ".codegraph")),
      };
    },
  };
}

/**
 * @optave/codegraph. `build DIR --no-incremental` is a full build, `build DIR` incremental.
 * Its default engine is a native (Rust) addon; engine "wasm" runs web-tree-sitter like ours.
 */
export function optaveTool(peer, home, engine) {
  const env = peerEnv(home);
  const pre = engine ? ["--engine", engine] : [];
  const name = engine ? `optave-${engine}` : "optave";
  return {
    name,
    label: name,
    version: peer?.version ?? null,
    available: !!peer && existsSync(peer.cli),
    why: peer ? null : "not installed",
    env,
    indexDir: (repo) => join(repo, ".codegraph"),
    full: (repo) => [[peer.cli, [...pre, "build", repo, "--no-incremental"]]],
    sync: (repo) => [[peer.cli, [...pre, "build", repo]]],
    stats(repo) {
      const db = join(repo, ".codegraph", "graph.db");
      const j = runJson(peer.cli, ["stats", "--json", "-d", db], env);
      if (j.error) return { error: j.error };
      return {
        files: pick(j, ["files.total"]),
        nodes: pick(j, ["nodes.total"]),
        edges: pick(j, ["edges.total"]),
        dbBytes: existsSync(db) ? statSync(db).size : null,
        indexBytes: dirBytes(join(repo, ".codegraph")),
      };
    },
  };
}
