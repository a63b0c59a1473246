import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fixtures are projects to index, and some of them have test files of their own.
    exclude: ["test/**/fixtures/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one file at a time on two cores (a core fewer than there are), and most of
    // the suite waits on the CLI's child processes: two at once took CI's tests from 558 to 296 s on
    // this 2-core machine, every test passing (docs/decisions.md, "The tests run two files at a time").
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
