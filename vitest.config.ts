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
  },
});
