// Bundle the CLI and its parse worker after tsc: one file per entry starts much faster than
// resolving ~60 modules one by one, and start-up is paid on every command and every prompt.
// One file rather than split chunks: V8 parses unused functions lazily, while each chunk is a
// module to resolve. tsc's per-module output stays for the library API.
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

const out = new URL("../dist/cli/", import.meta.url);
// tsc's per-module output of src/cli is not used at run time (the bundles below are): left there, it
// would be read as CommonJS too. The library API (dist/index.js) does not reach into cli/.
rmSync(out, { recursive: true, force: true });

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

/**
 * web-tree-sitter by its CommonJS build. Its ES module build, chosen for our `import()`, loads
 * `require` with `await import("module")` into a variable of that name, which shadows the one the
 * bundle's `import()`s become.
 *
 * And the source text handed to the parser is copied into WASM memory by Node's native UTF-16
 * writer. The library copies each chunk the parser asks for (5,119 characters at most) a character
 * at a time (`charCodeAt`, then a `DataView` store): 150-190 ms of three passes over the JDK's util
 * (CPU profile), against 30-40 ms so. The bytes are the same: UTF-16LE, which is WASM's byte order;
 * on a big-endian machine, or a library whose code reads otherwise, its own copy stays.
 */
const CHUNK_COPY = "stringToUTF16(string, inputBufferAddress, INPUT_BUFFER_SIZE);";
const FAST_CHUNK_COPY = `if (__littleEndian) __copyChunk(HEAPU8.buffer, inputBufferAddress, string, Math.min(string.length, (INPUT_BUFFER_SIZE >> 1) - 1));
else ${CHUNK_COPY}`;
const COPY_FUNCTION = `var __littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
function __copyChunk(memory, address, text, n) {
  const bytes = Buffer.from(memory, address, 2 * n + 2);
  bytes.write(text, 0, 2 * n, "utf16le");
  bytes[2 * n] = 0;
  bytes[2 * n + 1] = 0;
}
`;
const treeSitterAsCommonJs = {
  name: "tree-sitter-as-commonjs",
  setup(b) {
    b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({
      path: createRequire(import.meta.url).resolve("web-tree-sitter"),
    }));
    b.onLoad({ filter: /web-tree-sitter[\\/]tree-sitter\.cjs$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (text.split(CHUNK_COPY).length !== 2) {
        console.warn("after-build: web-tree-sitter's chunk copy not found; its own is used");
        return { contents: text, loader: "js" };
      }
      return { contents: COPY_FUNCTION + text.replace(CHUNK_COPY, FAST_CHUNK_COPY), loader: "js" };
    });
  },
};

/**
 * Node built-ins that cost milliseconds to load (crypto about 4, child_process 3.5, worker_threads
 * 2.5, net 4, tty 4 with net), on every command, though most commands never use them: commander
 * requires child_process for subcommands we do not have, the parse pool worker_threads for a sync
 * that finds nothing to parse, the prompt hook net for a daemon that is mostly not there, the
 * progress line tty for a stderr that is mostly not a terminal. Each import of one
 * gets an object whose getters load it on first use. The names are this Node's exports; our code
 * uses none younger than Node 20.
 */
const LAZY_BUILTINS = ["crypto", "child_process", "worker_threads", "net", "tty"];
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join("|")})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === "lazy-builtin"
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" },
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async (args) => {
      const names = Object.keys(await import(`node:${args.path}`)).filter((n) => n !== "default");
      const getters = names.map((n) => `  get ${n}() { return load().${n}; },`).join("\n");
      return {
        contents: `let m;\nconst load = () => (m ??= require("node:${args.path}"));\nmodule.exports = {\n${getters}\n};\n`,
        loader: "js",
      };
    });
  },
};

/**
 * The bundles are CommonJS, in a folder of their own type (dist/cli/package.json): Node loads them
 * without its ES module loader (about 20 ms a start on Node 20), and our compile cache can hand V8
 * their compiled code (src/cli/compile-cache.ts), which Node 20 allows only for CommonJS. Our
 * `import.meta.url` becomes the bundle's file URL, and each `import()` of what is left out of a
 * bundle (another bundle, a package) a `require`.
 */
const common = {
  bundle: true,
  splitting: false,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Native and WASM packages find their binaries relative to themselves: keep them as packages.
  // better-sqlite3 is bundled but for its addon, which src/store/open-sqlite.ts names outright;
  // `bindings`, which it calls only when not given the addon, stays a package. web-tree-sitter is
  // bundled, and told where its WASM file is (src/extract/parser.ts).
  external: ["bindings", "tree-sitter-wasms", "@parcel/watcher"],
  // jsonc-parser's CommonJS build loads its parts with a require() esbuild cannot follow: use its ES modules.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__bundleUrl" },
  banner: { js: 'var __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
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
  plugins: [inProcessApart("./"), lazyBuiltins, treeSitterAsCommonJs],
});
await build({
  ...common,
  entryPoints: {
    "serve-command": "src/cli/commands/serve-command.ts",
    "install-commands": "src/cli/commands/install-commands.ts",
    "prompt-hook-command": "src/cli/commands/prompt-hook-command.ts",
  },
  outdir: "dist/cli/commands",
  plugins: [inProcessApart("../"), lazyBuiltins, treeSitterAsCommonJs],
});
writeFileSync(new URL("package.json", out), '{ "type": "commonjs" }\n');
chmodSync(new URL("main.js", out), 0o755);

// A bundle compiled through the compile cache has no ES module loader to call: an `import()` left in
// one would fail at run time, so it fails the build instead. (A method named `import` is not a call.)
const dynamicImport = /(?:await|return|=>|[=(,])\s*import\(/;
for (const dir of [out, new URL("commands/", out)]) {
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
    if (dynamicImport.test(readFileSync(new URL(f, dir), "utf8"))) {
      throw new Error(`dist/cli bundle ${f} still calls import(), which its compile cache cannot serve`);
    }
  }
}
