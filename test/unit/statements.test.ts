import Database from "better-sqlite3";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_KEPT_STATEMENTS, prepared, sqlLimit, unplanned } from "../../src/store/statements.js";

/**
 * The read paths' statements are compiled once per connection. SQLite compiles a statement again
 * each time a parameter it planned with is bound again (a LIMIT's, a LIKE's or GLOB's pattern), so
 * those values go into the text (sqlLimit) or through an expression (unplanned).
 */
describe("cached statements", () => {
  it("writes a row limit as a whole number, and refuses what is not a number", () => {
    expect(sqlLimit(20)).toBe("20");
    expect(sqlLimit(2.7)).toBe("2");
    expect(sqlLimit(-3)).toBe("0");
    expect(sqlLimit(0)).toBe("0");
    expect(() => sqlLimit(Number.NaN)).toThrow(/row limit/);
    expect(() => sqlLimit(Number.POSITIVE_INFINITY)).toThrow(/row limit/);
  });

  it("matches an unplanned pattern as the bound pattern itself", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE files(path TEXT PRIMARY KEY)");
    const paths = ["src/App.ts", "src/app.ts", "lib/a_b.py", "lib/a%b.py", "lib/axb.py", "a\\b/c.go", "Straße.rs", "x"];
    for (const p of paths) db.prepare("INSERT INTO files VALUES (?)").run(p);
    const bound = db.prepare("SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' ORDER BY path").pluck();
    const through = db
      .prepare(`SELECT path FROM files WHERE path LIKE ${unplanned("?")} ESCAPE '\\' ORDER BY path`)
      .pluck();
    const globBound = db.prepare("SELECT path FROM files WHERE path GLOB ? ORDER BY path").pluck();
    const globThrough = db.prepare(`SELECT path FROM files WHERE path GLOB ${unplanned("?")} ORDER BY path`).pluck();
    for (const pattern of [
      "src/%",
      "%.ts",
      "%a\\_b%",
      "%a\\%b%",
      "lib/a_b.py",
      "a\\\\b/%",
      "straße.rs",
      "%",
      "",
      null,
    ]) {
      expect(through.all(pattern)).toEqual(bound.all(pattern));
    }
    for (const pattern of ["src/*", "*.[tp][sy]", "lib/a?b.py", "*", "", null]) {
      expect(globThrough.all(pattern)).toEqual(globBound.all(pattern));
    }
    expect(through.all("%.ts")).toEqual(["src/App.ts", "src/app.ts"]);
    db.close();
  });

  it("keeps a bounded number of statements a connection, dropping the oldest first", () => {
    const db = new Database(":memory:");
    const first = prepared(db, "SELECT 0");
    expect(prepared(db, "SELECT 0")).toBe(first);
    for (let i = 1; i < MAX_KEPT_STATEMENTS; i++) prepared(db, `SELECT ${i}`);
    expect(prepared(db, "SELECT 0")).toBe(first);
    const last = prepared(db, `SELECT ${MAX_KEPT_STATEMENTS - 1}`);
    prepared(db, `SELECT ${MAX_KEPT_STATEMENTS}`);
    expect(prepared(db, "SELECT 0")).not.toBe(first);
    expect(prepared(db, `SELECT ${MAX_KEPT_STATEMENTS}`).get()).toEqual({
      [String(MAX_KEPT_STATEMENTS)]: MAX_KEPT_STATEMENTS,
    });
    expect(prepared(db, `SELECT ${MAX_KEPT_STATEMENTS - 1}`)).toBe(last);
    db.close();
  });

  it("binds no LIMIT and no LIKE or GLOB pattern as a bare parameter anywhere in the sources", () => {
    const bare = /\b(LIMIT|OFFSET|LIKE|GLOB)\s+([@?:]|\$(?!\{))/;
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (path.endsWith(".ts"))
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              if (bare.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
            });
      }
    };
    walk(join(import.meta.dirname, "../../src"));
    expect(found).toEqual([]);
  });
});
