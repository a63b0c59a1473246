import { readFileSync } from "node:fs";
import { fileSizes } from "../store/file-lookup.js";
import type { Db } from "../store/database.js";
import { innermostSymbolAt } from "../store/explore-lookup.js";
import { realPathOrGiven } from "../core/paths.js";
import { readInsideProject } from "./read-project-file.js";
import { CALLABLES } from "./explore-rank.js";
import { toHit, type SymbolHit } from "./symbols.js";

/** Bytes of source one literal search may read: the whole of a medium project, a bounded slice of a huge one. */
const READ_BUDGET = 48 * 1024 * 1024;
const MAX_HITS = 4;

/**
 * Does the query look like a pasted error message (`TypeError: ...`, `Http404: No Article matches`,
 * `Forbidden (CSRF cookie not set.)`)? Such text is usually a string literal in the code that raises it.
 */
export function looksLikeMessage(query: string): boolean {
  return /\b[A-Z]\w*(Error|Exception|Warning)\b|^\s*\w+(\.\w+)*\d*:\s|^\s*[A-Z][a-z]+ \(/.test(query);
}

/**
 * The fixed runs of words in a message, longest first: what survives of the literal in the source
 * once the values formatted into it (numbers, quoted values, paths, single letters) are cut out.
 */
export function messageFragments(query: string): string[] {
  const firstLine = query.split("\n")[0] ?? "";
  // Drop the exception's name: `pkg.module.SomeError: text` → `text`.
  const text = firstLine.replace(/^\s*[\w.$]*(Error|Exception|Warning|\d{3})\s*:\s*/, "");
  const runs: string[] = [];
  // Cut at what a formatted message fills in: quoted values, paths, dotted names, numbers, one-letter values.
  const cuts = /'[^']*'|"[^"]*"|`[^`]*`|\S*[/\\@]\S*|\b\w+(?:\.\w+)+\b|\b\d[\w.]*\b|\b(?![aAI]\b)\w\b|[():=]/;
  for (const piece of text.split(cuts)) {
    const words = (piece ?? "").trim().split(/\s+/).filter(Boolean);
    if (words.length < 2) continue;
    runs.push(words.join(" ").replace(/[.,;]+$/, ""));
    // A value at either end (`Duplicate key a`): the run without its first or last word.
    if (words.length >= 3) runs.push(words.slice(0, -1).join(" "), words.slice(1).join(" "));
    // A value formatted into the middle (`No %s matches`) breaks the whole run: try its four-word stretches too.
    for (let i = 0; i + 4 <= words.length && words.length > 4; i++) {
      runs.push(
        words
          .slice(i, i + 4)
          .join(" ")
          .replace(/[.,;]+$/, ""),
      );
    }
  }
  return [...new Set(runs)]
    .filter((r) => r.length >= 10)
    .sort((a, b) => b.length - a.length)
    .slice(0, 8);
}

/**
 * The declarations whose source contains a fragment of a pasted message: files already ranked are
 * read first, then the rest in path order, within a fixed byte budget so a huge project stays fast.
 */
export function symbolsQuoting(db: Db, root: string, query: string, rankedFiles: readonly string[]): SymbolHit[] {
  const fragments = messageFragments(query);
  if (!fragments.length) return [];
  // Files are searched as bytes, and only a file holding a fragment is decoded: most hold none. A file
  // holding a fragment holds every fragment inside it, so the innermost ones are all it is searched for.
  const innermost = fragments.filter((f) => !fragments.some((g) => g !== f && f.includes(g)));
  const encoded = innermost.map((f) => Buffer.from(f));
  const sizes = fileSizes(db);
  const order = [...new Set([...rankedFiles, ...[...sizes.keys()].sort()])];
  const hits = new Map<number, SymbolHit>();
  const users = new Map<number, SymbolHit>();
  const realRoot = realPathOrGiven(root);
  let read = 0;
  for (const path of order) {
    const size = sizes.get(path) ?? 0;
    if (read + size > READ_BUDGET) break;
    read += size;
    const bytes = readInsideProject(root, path, realRoot, (fd) => readFileSync(fd));
    if (!bytes || !encoded.some((f) => bytes.includes(f))) continue;
    const lines = bytes.toString("utf8").split("\n");
    for (let i = 0; i < lines.length && hits.size < MAX_HITS; i++) {
      if (!fragments.some((f) => lines[i]!.includes(f))) continue;
      const row = innermostSymbolAt(db, path, i + 1);
      if (!row) continue;
      const hit = toHit(row);
      hits.set(row.id, hit);
      if (NAMED_MESSAGE_KINDS.has(hit.kind) && hit.startLine === i + 1)
        for (const user of usersInFile(db, path, lines, hit)) users.set(user.id, user);
    }
    if (hits.size >= MAX_HITS) break;
  }
  for (const [id, user] of users) if (!hits.has(id)) hits.set(id, user);
  return [...hits.values()];
}

/** Declarations that give a message a name (`REASON_NO_CSRF_COOKIE = "CSRF cookie not set."`). */
const NAMED_MESSAGE_KINDS: ReadonlySet<string> = new Set(["constant", "variable", "property"]);
/** Functions that use one named message, at most. */
const MAX_USERS = 2;

/**
 * The functions of the message's own file that use its name (`REASON_X`, `self.REASON_X`): where it
 * is raised or returned. The name's definition holds the text, but the question is what produces the
 * error. Reading a name is no edge in the index, so the file's lines are looked at, as for the literal.
 */
function usersInFile(db: Db, path: string, lines: readonly string[], named: SymbolHit): SymbolHit[] {
  const word = new RegExp(`(?<![\\w$])${named.name.replace(/[$]/g, "\\$")}(?![\\w$])`);
  const found = new Map<number, SymbolHit>();
  for (let i = 0; i < lines.length && found.size < MAX_USERS; i++) {
    if (i + 1 === named.startLine || !lines[i]!.includes(named.name) || !word.test(lines[i]!)) continue;
    const row = innermostSymbolAt(db, path, i + 1);
    if (row && row.id !== named.id && CALLABLES.has(row.kind)) found.set(row.id, toHit(row));
  }
  return [...found.values()];
}
