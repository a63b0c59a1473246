import { setV8Flag } from "../core/v8-flag-hook.js";

/**
 * Have V8's optimising JavaScript compiler do less while we index. Every parse worker compiles the
 * same extractor and tree-sitter code afresh on background threads, and with two cores that
 * competes with parsing: on Django, those threads spent 0.47 s of CPU on JavaScript (perf, by stack).
 * Process-wide, and only for code compiled or budgeted after it: call it before starting parse workers.
 * - Inline 200 bytes of bytecode into a function in all, not 920. Full index: rails 1.50 -> 1.40 s,
 *   jdk-util 1.67 -> 1.60, Django 1.77 -> 1.73 (medians of 3); in-process search no slower.
 * - Let a function run 16 times as long before it is optimised (the interrupt budget), so that only
 *   the code that stays hot is. 8 times: Django 1.62 -> 1.54 s, jdk-util 1.50 -> 1.38, rails
 *   1.39 -> 1.28, doctrine 0.92 -> 0.81, xorg-server 1.47 -> 1.42, rxjs 0.51 -> 0.48 (interleaved,
 *   medians). 16 times, two interleaved medium-tier benches each (3 runs): the 14 repos 1.92 and
 *   1.91 -> 1.89 and 1.86 times the floor, Django 2.14 and 2.25 -> 2.06 and 2.16; tokio unchanged.
 */
export function optimiseLess(): void {
  setV8Flag("--max-inlined-bytecode-size-cumulative=200");
  setV8Flag("--interrupt-budget=1081344");
}
