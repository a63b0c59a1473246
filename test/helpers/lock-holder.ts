import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const dist = join(import.meta.dirname, "..", "..", "dist");

/** A child process that takes the index's writer lock the way the indexer does, until its stdin closes. */
export async function holdLock(root: string): Promise<ChildProcess> {
  const script = `
    import { acquireWriterLock } from ${JSON.stringify(join(dist, "indexer", "lock.js"))};
    const release = acquireWriterLock(${JSON.stringify(join(root, ".codegraph"))});
    console.log("locked");
    process.stdin.resume();
    process.stdin.on("end", () => { release(); process.exit(0); });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => (d.toString().includes("locked") ? resolve() : undefined));
    child.on("exit", (c) => reject(new Error(`lock holder exited ${c}`)));
  });
  return child;
}
