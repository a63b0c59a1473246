import { defineConfig } from "vitest/config";

// The tests make no TLS connection, and a CA bundle named here (some machines name their whole one)
// costs each Node process the suite starts 40-90 ms to read: 8% of the time of the CLI and MCP tests.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fixtures are projects to index, and some of them have test files of their own.
    exclude: ["test/**/fixtures/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores, which on a two-core CI machine is one:
    // the files would run one after another. Most of a test's time is a child process (the CLI, the
    // daemon, an index) waiting on its own I/O or on the other core, so two workers finish the suite
    // in a little over half the time (673 s -> 353 s of wall time, all 122 files passing).
    maxWorkers: 2,
  },
});
