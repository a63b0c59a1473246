// Run as `node --allow-natives-syntax optimised-map.mjs <dist> [pool]`: optimises a function that
// maps an array, and prints whether TurboFan compiled it and whether its answer is a holey array.
// With `pool`, a tool pool is made first (src/mcp/read-pool.ts), as a server does. V8's intrinsics
// go through `new Function`, which the flag lets use them, so that this file stays plain JavaScript.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, mode] = process.argv.slice(2);
if (mode === "pool") {
  const { toolPool } = await import(pathToFileURL(join(dist, "mcp", "read-pool.js")).href);
  toolPool(
    new URL("file:///never-started.js"),
    null,
    () => null,
    () => {},
  );
}

const intrinsic = (body) => new Function("f", "a", body);
const prepare = intrinsic("%PrepareFunctionForOptimization(f)");
const optimiseNext = intrinsic("%OptimizeFunctionOnNextCall(f)");
const status = intrinsic("return %GetOptimizationStatus(f)");
const holey = intrinsic("return %HasHoleyElements(a)");
const TURBOFANNED = 1 << 6;

function doubled(values) {
  return values.map((x) => x * 2);
}
prepare(doubled);
doubled([1, 2, 3]);
doubled([4, 5, 6]);
optimiseNext(doubled);
const answer = doubled([7, 8, 9]);
console.log(JSON.stringify({ optimised: (status(doubled) & TURBOFANNED) !== 0, holey: holey(null, answer) }));
