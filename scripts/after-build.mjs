// Bundle the CLI and its parse worker after tsc: one file per entry starts much faster than
// resolving ~60 ES modules one by one, and start-up is paid on every command and every prompt.
// One file rather than split chunks: V8 parses unused functions lazily, while each chunk is a
// module to resolve. tsc's per-module output stays for the library API.
import { chmodSync, readdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const out = new URL("../dist/cli/", import.meta.url);
for (const f of readdirSync(out)) if (f.startsWith("chunk-")) rmSync(new URL(f, out));

/**
 * The in-process parser (src/indexer/in-process.ts) is a bundle of its own, which the pool loads
 * when it has files to parse: the extractors are most of our code, and `status`, the read commands
 * and a sync with nothing to parse would otherwise compile them on every start. Bundles one folder
 * down (the daemon's) find it one folder up.
 */
const inProcessApart = (from) => ({
  name: "in-process-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\/in-process\.js$/ }, (args) =>
      args.importer.replaceAll("\\", "/").endsWith("src/indexer/pool.ts")
        ? { path: `${from}in-process.js`, external: true }
        : undefined,
    );
  },
});

const common = {
  bundle: true,
  splitting: false,
  format: "esm",
  platform: "node",
  target: "node20",
  // Native and WASM packages find their binaries relative to themselves: keep them as packages.
  external: ["better-sqlite3", "web-tree-sitter", "tree-sitter-wasms", "@parcel/watcher"],
  // jsonc-parser's CommonJS build loads its parts with a require() esbuild cannot follow: use its ES modules.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  // Bundled CommonJS dependencies call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __cgRequire } from 'node:module'; const require = __cgRequire(import.meta.url);",
  },
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: {
    // The executable is a small dispatcher (bin.ts) in front of the program (main.ts): the prompt
    // hook, run on every prompt, loads its own bundle without commander or the other commands.
    main: "src/cli/bin.ts",
    program: "src/cli/main.ts",
    worker: "src/indexer/worker.ts",
    "in-process": "src/indexer/in-process.ts",
    "finish-worker": "src/indexer/finish-worker.ts",
    "read-worker": "src/cli/read-worker.ts",
  },
  outdir: "dist/cli",
  plugins: [inProcessApart("./")],
});
await build({
  ...common,
  entryPoints: {
    "serve-command": "src/cli/commands/serve-command.ts",
    "install-commands": "src/cli/commands/install-commands.ts",
    "prompt-hook-command": "src/cli/commands/prompt-hook-command.ts",
  },
  outdir: "dist/cli/commands",
  plugins: [inProcessApart("../")],
});
chmodSync(new URL("main.js", out), 0o755);
