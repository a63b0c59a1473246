import { fstatSync } from "node:fs";
import { isatty } from "node:tty";
import type { Progress } from "../../indexer/progress.js";

/**
 * Whether stderr is a terminal, asked without making `process.stderr`, which for a pipe (an agent,
 * a CI log) loads node:net and builds a socket; node:tty is loaded only for a character device.
 */
function stderrIsTerminal(): boolean {
  try {
    return fstatSync(2).isCharacterDevice() && isatty(2);
  } catch {
    return false;
  }
}

/**
 * Progress on a TTY's stderr, redrawn in place at most every 100 ms; silent when stderr is not a
 * terminal (CI logs, agents), so output stays clean.
 */
export function progressLine(): { update: (p: Progress) => void; done: () => void } {
  const tty = stderrIsTerminal();
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 100 && p.done !== p.total) return;
      last = now;
      const pct = p.total ? ` ${p.done}/${p.total} (${Math.floor((100 * p.done) / p.total)}%)` : "";
      process.stderr.write(`\r\x1b[K${p.phase}…${pct}`);
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write("\r\x1b[K");
    },
  };
}
