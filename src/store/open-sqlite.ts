import Database from "better-sqlite3";
import { createRequire } from "node:module";

let addon: string | null | undefined;

/**
 * Where npm's build put better-sqlite3's compiled addon, or null when it is elsewhere. Left to itself,
 * better-sqlite3 finds the addon through the `bindings` package, which works out the caller's folder
 * from a stack trace and tries path after path: 1.5 to 3 ms of every command that opens the index.
 */
function addonPath(): string | null {
  if (addon === undefined) {
    try {
      addon = createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");
    } catch {
      addon = null;
    }
  }
  return addon;
}

/** A better-sqlite3 connection, with its addon named outright where it is where it usually is. */
export function openSqlite(path: string, options: Database.Options = {}): Database.Database {
  const nativeBinding = addonPath();
  return new Database(path, nativeBinding ? { ...options, nativeBinding } : options);
}
