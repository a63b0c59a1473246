import Database from "better-sqlite3";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let addon: string | null | undefined;

/**
 * Where npm's build put better-sqlite3's compiled addon, or null when it is elsewhere. Left to itself,
 * better-sqlite3 finds the addon through the `bindings` package, which works out the caller's folder
 * from a stack trace and tries path after path: 1.5 to 3 ms of every command that opens the index.
 */
function addonPath(): string | null {
  if (addon === undefined) {
    try {
      addon = require.resolve("better-sqlite3/build/Release/better_sqlite3.node");
    } catch {
      addon = null;
    }
  }
  return addon;
}

/**
 * A better-sqlite3 connection. The CLI's bundles hold better-sqlite3's JavaScript (its 13 modules
 * cost 5 ms to resolve and compile on every command), given the addon's path; where the addon is not
 * where npm's build puts it, the package is loaded as installed, and finds the addon itself.
 */
export function openSqlite(path: string, options: Database.Options = {}): Database.Database {
  const nativeBinding = addonPath();
  if (nativeBinding) return new Database(path, { ...options, nativeBinding });
  // A name in a variable: bundlers leave this require to run time.
  const installed = "better-sqlite3";
  const Installed = require(installed) as typeof Database;
  return new Installed(path, options);
}
