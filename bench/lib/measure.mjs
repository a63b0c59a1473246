// Timing and peak memory of one spawned command.
//
// Wall time: process.hrtime around the spawned child (spawn -> exit).
// Peak RSS: GNU time's %M (max RSS of the command and its waited-for descendants, each taken
// alone) when /usr/bin/time exists, and a poller that sums VmRSS over the whole process tree
// every POLL_MS (it sees tools that run several processes at once, e.g. a launcher plus the
// real runtime). The reported peak is the larger of the two.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TIME = "/usr/bin/time";
const POLL_MS = 50;

/** Make sure /usr/bin/time exists (installs Debian's `time` package when root). */
export function ensureGnuTime(log) {
  if (existsSync(TIME)) return true;
  if (process.getuid?.() !== 0) return false;
  log?.("installing GNU time (apt-get install time)");
  let r = spawnSync("apt-get", ["install", "-y", "-q", "time"], { stdio: "ignore" });
  if (r.status !== 0) {
    spawnSync("apt-get", ["update", "-q"], { stdio: "ignore" });
    r = spawnSync("apt-get", ["install", "-y", "-q", "time"], { stdio: "ignore" });
  }
  return existsSync(TIME);
}

/** The environment every measured command gets: ours and the peers alike. */
export function measuredEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  // Adds ~80 ms to every Node start on this machine; users don't have it.
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** VmRSS of one process in kB, or null once it is gone. */
function rssOf(pid) {
  try {
    const m = /\nVmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
    return m ? Number(m[1]) : 0;
  } catch {
    return null;
  }
}

/** A process's children, from each of its threads' `children` list; null where the kernel has none. */
function childrenOf(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out = [];
  for (const tid of tids) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1");
    } catch (e) {
      if (e.code === "ENOENT" && tid === String(pid)) return null; // no CONFIG_PROC_CHILDREN
      continue;
    }
    for (const c of text.split(" ")) if (c) out.push(Number(c));
  }
  return out;
}

/** pid -> parent pid for every process: the fallback where `children` lists do not exist. */
function parentTable() {
  const parents = new Map();
  let names;
  try {
    names = readdirSync("/proc");
  } catch {
    return parents;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    try {
      const ppid = /\nPPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, "latin1"));
      if (ppid) parents.set(Number(name), Number(ppid[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  return parents;
}

/**
 * Sum of VmRSS over root's descendants (root itself excluded when skipRoot) and their count. The
 * tree is walked down from root through the kernel's `children` lists: reading every process's
 * status in /proc instead cost 3-4 ms of CPU per sample on this machine (70 processes), every
 * 50 ms, taken from the two cores the measured tool runs on.
 */
function treeRss(rootPid, skipRoot) {
  const rootKids = childrenOf(rootPid);
  let kids = (pid) => (pid === rootPid ? rootKids : childrenOf(pid)) ?? [];
  if (rootKids === null) {
    const byParent = new Map();
    for (const [pid, ppid] of parentTable()) {
      const list = byParent.get(ppid);
      if (list) list.push(pid);
      else byParent.set(ppid, [pid]);
    }
    kids = (pid) => byParent.get(pid) ?? [];
  }
  let sum = 0;
  let count = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    const rss = skipRoot && pid === rootPid ? null : rssOf(pid);
    if (rss !== null) {
      sum += rss;
      count++;
    }
    stack.push(...kids(pid));
  }
  return { sum, count };
}

/**
 * Run cmd with args and measure it. Never throws for a failing command: returns
 * { ok, code, signal, ms, rssKb, timeRssKb, treeRssKb, procs, stdout, stderr, timedOut }.
 */
export function measure(cmd, args, { cwd, env, timeoutMs = 30 * 60 * 1000, input } = {}) {
  const useTime = existsSync(TIME);
  const dir = useTime ? mkdtempSync(join(tmpdir(), "cg-bench-")) : null;
  const timeOut = dir ? join(dir, "time.txt") : null;
  const file = useTime ? TIME : cmd;
  const argv = useTime ? ["-o", timeOut, "-f", "%M", cmd, ...args] : args;
  return new Promise((resolve) => {
    const out = [];
    const err = [];
    let outLen = 0;
    let errLen = 0;
    const CAP = 4 * 1024 * 1024;
    let peakTree = 0;
    let maxProcs = 0;
    let timedOut = false;
    const t0 = process.hrtime.bigint();
    let child;
    try {
      child = spawn(file, argv, {
        cwd,
        env: env ?? measuredEnv(),
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        detached: true, // own process group, so a timeout can stop the whole tree
      });
    } catch (e) {
      resolve({
        ok: false,
        code: null,
        signal: null,
        ms: 0,
        rssKb: 0,
        stdout: "",
        stderr: String(e),
        error: String(e),
      });
      return;
    }
    if (input !== undefined) child.stdin.end(input);
    child.stdout.on("data", (d) => {
      if (outLen < CAP) out.push(d);
      outLen += d.length;
    });
    child.stderr.on("data", (d) => {
      if (errLen < CAP) err.push(d);
      errLen += d.length;
    });
    const sample = () => {
      if (!child.pid) return;
      const { sum, count } = treeRss(child.pid, useTime);
      if (sum > peakTree) peakTree = sum;
      if (count > maxProcs) maxProcs = count;
    };
    const poll = setInterval(sample, POLL_MS);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    let spawnError = null;
    child.on("error", (e) => (spawnError = e));
    child.on("exit", (code, signal) => {
      const t1 = process.hrtime.bigint();
      clearInterval(poll);
      clearTimeout(timer);
      const finish = () => {
        let timeRssKb = 0;
        if (timeOut && existsSync(timeOut)) {
          const lines = readFileSync(timeOut, "utf8").trim().split("\n");
          const n = Number(lines[lines.length - 1]);
          if (Number.isFinite(n)) timeRssKb = n;
        }
        if (dir) rmSync(dir, { recursive: true, force: true });
        const stdout = Buffer.concat(out).toString("utf8");
        const stderr = Buffer.concat(err).toString("utf8");
        resolve({
          ok: code === 0 && !timedOut && !spawnError,
          code,
          signal,
          timedOut,
          error: spawnError ? String(spawnError) : undefined,
          ms: Number(t1 - t0) / 1e6,
          rssKb: Math.max(timeRssKb, peakTree),
          timeRssKb,
          treeRssKb: peakTree,
          procs: maxProcs,
          stdout,
          stderr,
        });
      };
      // stdout/stderr may still hold buffered data after exit
      if (child.stdout.readableEnded && child.stderr.readableEnded) finish();
      else child.on("close", finish);
    });
  });
}

/** Run several commands one after another as one measurement: times add up, peaks take the max. */
export async function measureSeq(steps, opts) {
  const parts = [];
  for (const [cmd, args] of steps) {
    const r = await measure(cmd, args, opts);
    parts.push(r);
    if (!r.ok) break;
  }
  const ok = parts.length === steps.length && parts.every((p) => p.ok);
  return {
    ok,
    code: parts.at(-1)?.code,
    timedOut: parts.some((p) => p.timedOut),
    ms: parts.reduce((a, p) => a + p.ms, 0),
    rssKb: Math.max(0, ...parts.map((p) => p.rssKb)),
    timeRssKb: Math.max(0, ...parts.map((p) => p.timeRssKb ?? 0)),
    treeRssKb: Math.max(0, ...parts.map((p) => p.treeRssKb ?? 0)),
    procs: Math.max(0, ...parts.map((p) => p.procs ?? 0)),
    stepsMs: parts.map((p) => p.ms),
    stdout: parts.map((p) => p.stdout).join(""),
    stderr: parts.map((p) => p.stderr).join(""),
  };
}

export function median(xs) {
  const v = xs.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
