import picomatch from "picomatch";

const GENERATED_DIRS = new Set(["dist", "build", "generated", "__generated__", ".next", "node_modules"]);
const GENERATED_FILE =
  /(\.pb\.go$|\.pb\.gw\.go$|_pb2(_grpc)?\.pyi?$|_pb\.(js|d\.ts)$|_grpc_pb\.(js|d\.ts)$|\.generated\.|_generated\.|^zz_generated|_gen\.go$|\.min\.[cm]?js$|\.bundle\.js$)/;

/** Whether a path is generated or built output: `*.pb.go`, `*_pb2.py`, `*.generated.*`, `*.min.js`, `dist/`... */
export function isGeneratedPath(path: string): boolean {
  const parts = path.split("/");
  const file = parts.pop() ?? "";
  return GENERATED_FILE.test(file) || parts.some((p) => GENERATED_DIRS.has(p));
}

const matchers = new WeakMap<readonly string[], (path: string) => boolean>();

/**
 * A test for `[ranking] deprioritize` globs: a path matches when it, or a folder above it, matches
 * one of them, so `legacy` and `legacy/**` both cover everything under legacy/.
 */
export function deprioritized(globs: readonly string[]): (path: string) => boolean {
  let m = matchers.get(globs);
  if (m) return m;
  if (!globs.length) m = () => false;
  else {
    const isMatch = picomatch(globs as string[], { dot: true });
    m = (path: string) => {
      if (isMatch(path)) return true;
      for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
        if (isMatch(path.slice(0, i))) return true;
      }
      return false;
    };
  }
  matchers.set(globs, m);
  return m;
}
