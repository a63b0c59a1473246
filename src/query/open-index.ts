import { statSync } from "node:fs";
import { dbPath } from "../config/paths.js";
import { reportDamage } from "../core/damaged-index.js";
import { openDatabase, type Db } from "../store/database.js";

interface Open {
  db: Db;
  /** Identity of the database file when it was opened: `init --force` renames a new file into place. */
  ino: number;
}

/** More projects than this, and the least recently used connection is closed. */
const MAX_OPEN = 32;

/**
 * Read-only connections to project indexes, kept open across tool calls of a long-lived server
 * (opening one costs more than most queries). A rebuilt index is a new file: the stale connection is
 * closed and the new file opened, so answers never come from a replaced database.
 */
export class IndexConnections {
  private readonly open = new Map<string, Open>();

  /** The project's index, opened on first use. Throws NOT_INDEXED / SCHEMA_MISMATCH with how to fix it. */
  get(root: string): Db {
    const path = dbPath(root);
    let ino: number;
    try {
      ino = statSync(path).ino;
    } catch {
      this.drop(root);
      return openDatabase(path, { readonly: true }); // throws the NOT_INDEXED explanation
    }
    const cached = this.open.get(root);
    if (cached && cached.ino === ino) {
      this.open.delete(root);
      this.open.set(root, cached); // most recently used last
      return cached.db;
    }
    this.drop(root);
    const db = openDatabase(path, { readonly: true });
    this.open.set(root, { db, ino });
    if (this.open.size > MAX_OPEN) this.drop(this.open.keys().next().value!);
    return db;
  }

  closeAll(): void {
    for (const root of [...this.open.keys()]) this.drop(root);
  }

  private drop(root: string) {
    const o = this.open.get(root);
    if (!o) return;
    this.open.delete(root);
    o.db.close();
  }
}

/**
 * An error from reading the project's index, as a reader should be told it: damage any statement
 * found (a corrupt page, a file that is not a database) is named, with the command that rebuilds it,
 * and marked for that command (see `reportDamage`).
 */
export function explainIndexError(root: string, e: unknown): unknown {
  return reportDamage(dbPath(root), e);
}
