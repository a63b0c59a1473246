import Database from "better-sqlite3";
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";

/**
 * Write `count` small TypeScript files into `dir`: enough rows that an index's tables span many
 * pages, so the middle of a table holds data rather than its schema.
 */
export function writeManyFiles(dir: string, count = 200): void {
  for (let i = 0; i < count; i++) {
    writeFileSync(
      join(dir, `mod${i}.ts`),
      `/** Module ${i}. */\nexport function helper${i}(x: number): number {\n  return x + ${i};\n}\n` +
        `export class Widget${i} {\n  grow(by: number): number {\n    return helper${i}(by);\n  }\n}\n`,
    );
  }
}

/**
 * Overwrite the middle leaf pages (up to three) of one table of an SQLite file with random bytes, as a
 * failing disk or a stray write would: the commands that read that table then meet
 * "database disk image is malformed". The pages are found with SQLite's `dbstat` table, so which
 * table is hit does not depend on how the file happens to be laid out. Returns the pages overwritten.
 */
export function damageTable(dbFile: string, table: string): number[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const pages = (
    db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").all(table) as {
      pageno: number;
    }[]
  ).map((r) => r.pageno);
  db.close();
  const middle = Math.floor(pages.length / 2);
  const chosen = pages.slice(Math.max(0, middle - 1), middle + 2);
  const fd = openSync(dbFile, "r+");
  try {
    for (const page of chosen) writeSync(fd, randomBytes(pageSize), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return chosen;
}
