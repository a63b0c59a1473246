import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/store/database.js";
import { indexedProject, type IndexedProject } from "../helpers/indexed-project.js";

/**
 * Cross-file resolution, checked against hand-written expectations: each fixture project has an
 * `expected.txt` of edges that must exist (`calls a.py:f -> b.py:C.m`) and must not (`! calls ...`).
 */
const fixtures = join(import.meta.dirname, "fixtures");

interface Expectation {
  negate: boolean;
  kind: string;
  from: End;
  to: End;
  text: string;
}

interface End {
  file: string;
  qname: string;
  kind?: string;
  /** Set by `@static` or `@instance`: a static member and an instance member share a qualified name. */
  isStatic?: boolean;
  /** Set by `@L<line>`: two types of one name in one file (C#'s `P` and `P<T>`) share qualified names. */
  line?: number;
}

/**
 * `file`, `file:Q.name`, or `file:Q.name@kind` where a field and a method share a qualified name
 * (`@static` and `@instance` where a static and an instance member do, `@L12` for the one declared on
 * line 12).
 */
function parseEnd(s: string): End {
  const i = s.indexOf(":");
  if (i < 0) return { file: s, qname: "<file>" };
  const at = /^(.*)@(\w+)$/.exec(s.slice(i + 1));
  if (!at) return { file: s.slice(0, i), qname: s.slice(i + 1) };
  const end = { file: s.slice(0, i), qname: at[1]! };
  if (at[2] === "static" || at[2] === "instance") return { ...end, isStatic: at[2] === "static" };
  if (/^L\d+$/.test(at[2]!)) return { ...end, line: Number(at[2]!.slice(1)) };
  return { ...end, kind: at[2]! };
}

function parse(text: string): Expectation[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const body = negate ? line.slice(1).trim() : line;
      const m = /^(\w+)\s+(\S+)\s+->\s+(\S+)$/.exec(body);
      if (!m) throw new Error(`bad expectation: ${line}`);
      return { negate, kind: m[1]!, from: parseEnd(m[2]!), to: parseEnd(m[3]!), text: line };
    });
}

function nodeIds(db: Db, end: End): number[] {
  const rows =
    end.qname === "<file>"
      ? db
          .prepare("SELECT n.id FROM nodes n JOIN files f ON f.id = n.file_id WHERE f.path = ? AND n.kind = 'file'")
          .all(end.file)
      : db
          .prepare(
            `SELECT n.id FROM nodes n JOIN files f ON f.id = n.file_id WHERE f.path = ? AND n.qualified_name = ?
               AND n.kind <> 'import' AND n.kind = coalesce(?, n.kind) AND n.is_static = coalesce(?, n.is_static)
               AND n.start_line = coalesce(?, n.start_line)`,
          )
          .all(
            end.file,
            end.qname,
            end.kind ?? null,
            end.isStatic === undefined ? null : Number(end.isStatic),
            end.line ?? null,
          );
  return (rows as { id: number }[]).map((r) => r.id);
}

for (const lang of readdirSync(fixtures)) {
  describe(`resolution: ${lang}`, () => {
    let project: IndexedProject;
    let db: Db;
    const expectations = parse(readFileSync(join(fixtures, lang, "expected.txt"), "utf8"));
    beforeAll(async () => {
      project = await indexedProject(`resolve-${lang}`, { from: join(fixtures, lang) });
      db = project.db;
    });
    afterAll(() => project?.cleanup());
    for (const e of expectations) {
      it(e.text, () => {
        const from = nodeIds(db, e.from);
        const to = nodeIds(db, e.to);
        if (!e.negate) {
          expect(from.length, `no node ${e.from.file}:${e.from.qname}`).toBeGreaterThan(0);
          expect(to.length, `no node ${e.to.file}:${e.to.qname}`).toBeGreaterThan(0);
        }
        const count =
          from.length && to.length
            ? (
                db
                  .prepare(
                    `SELECT count(*) AS n FROM edges WHERE kind = ? AND source_id IN (${from.join(",")}) AND target_id IN (${to.join(",")})`,
                  )
                  .get(e.kind) as { n: number }
              ).n
            : 0;
        if (e.negate) expect(count, "edge must not exist").toBe(0);
        else expect(count, "edge must exist").toBeGreaterThan(0);
      });
    }
  });
}
