import { readFileSync } from "node:fs";

let version: string | undefined;

/**
 * This codegraph's version, from its package.json: the nearest one named codegraph above this module,
 * which sits at a different depth in the sources, the compiled library and each bundle.
 */
export function codegraphVersion(): string {
  if (version === undefined) {
    version = "0.0.0";
    for (let dir = new URL(".", import.meta.url); ; dir = new URL("..", dir)) {
      try {
        const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as {
          name?: unknown;
          version?: unknown;
        };
        if (pkg.name === "codegraph" && typeof pkg.version === "string") {
          version = pkg.version;
          break;
        }
      } catch {
        // none here: look further up
      }
      if (dir.pathname === "/") break;
    }
  }
  return version;
}
