import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CLI = join(import.meta.dirname, "..", "..", "dist", "cli", "main.js");

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the built CLI as a real process and wait for it (with a timeout, never forever). With `input`,
 * that text is written to its stdin, which is then closed.
 */
export function run(
  args: string[],
  options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: options.env ?? { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`codegraph ${args.join(" ")} timed out\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    if (options.input !== undefined) child.stdin.end(options.input);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Run and parse `--json` output, failing loudly with stderr when the command failed. */
export async function runJson<T>(args: string[], options: { cwd?: string } = {}): Promise<T> {
  const r = await run([...args, "--json"], options);
  if (r.code !== 0) throw new Error(`codegraph ${args.join(" ")} exited ${r.code}\n${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

/** A temporary git repository holding a copy of `fixture` (or empty), removed by the returned cleanup. */
export function tempRepo(fixture?: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "codegraph-e2e-"));
  if (fixture) cpSync(fixture, dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: dir });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
