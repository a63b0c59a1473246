import { TYPE_KINDS } from "../core/kinds.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/** References that may resolve differently when declarations of the names in `sync_names` come or go. */
const AFFECTED_BY_NAMES = [
  // By their own name,
  "SELECT r.id FROM refs r JOIN sync_names s ON s.name = r.name",
  // or through an import of the name (`import { x as y }`, then `y`, `y.m`).
  `SELECT r.id FROM refs r JOIN imports i ON i.file_id = r.file_id JOIN sync_names s ON s.name = i.imported
   WHERE r.name = i.local OR r.receiver = i.local OR r.receiver LIKE i.local || '.%'`,
];

/** Characters that cannot be part of an identifier: ASCII other than letters, digits and `_`. */
const NOT_IDENTIFIER = /[^A-Za-z0-9_\u0080-\uffff]+/;

/**
 * Whether a text (a receiver, a local's type) mentions any of the names as a whole identifier, not
 * inside a longer one (a new method `go` is not mentioned by `algorithm`): the text's identifiers are
 * looked up among the names, and a name that is no identifier (`m!`, `$x`) is searched for with
 * identifier characters on neither side.
 */
export function mentionsAnyOf(names: Iterable<string>): (text: string) => boolean {
  const identifiers = new Set<string>();
  const others: string[] = [];
  for (const n of names) {
    if (!n) continue;
    if (NOT_IDENTIFIER.test(n)) others.push(n);
    else identifiers.add(n);
  }
  const isIdent = (c: string | undefined) => c !== undefined && !NOT_IDENTIFIER.test(c);
  const mentions = (text: string, word: string) => {
    for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1))
      if (!isIdent(text[i - 1]) && !isIdent(text[i + word.length])) return true;
    return false;
  };
  return (text) => text.split(NOT_IDENTIFIER).some((w) => identifiers.has(w)) || others.some((w) => mentions(text, w));
}

/**
 * Asked of a reference that may be what types a local (a call, a name), when it still reaches what it
 * did (so what it reads is typed as before unless that declaration's own type changes): the name of
 * the declaration it reaches, one this sync left as it was, or none when it reaches nothing the
 * project declares. Null when it may reach otherwise now.
 */
export type StillReaches = (refId: number) => string[] | null;

/** Up to this many names, SQLite finds the local types containing one (see `refsAffectedByNames`). */
const FEW_NAMES = 8;

/**
 * A local typed by a call's result (`x := flag.String(...)` reads `flag.String()`) or by a name, of a
 * type or a value, maybe reached through a receiver (`String`, `cryptobyte.String`, `self.conf`).
 */
const READ = /^(?:(.+)\.)?([A-Za-z_$][\w$]*)(\(\))?$/;

/** A local whose type may read otherwise now. */
interface Local {
  fileId: number;
  scopeId: number;
  name: string;
}

/** A local typed by what still reads as it did: changed only if the type of what it reads is. */
interface HeldLocal extends Local {
  /** The name read, and the names of what it reaches. */
  reads: string[];
}

/**
 * Ids of references in other files that may now resolve differently because names in `names` changed.
 * What a field, a module-level value or a function's result is typed by may be one of them, and then
 * what a receiver reaches through that field or value, or that call, elsewhere may change too: their
 * names are followed in turn (Flask's `session_interface = SecureCookieSessionInterface()`, whose
 * import went: `self.app.session_interface.open_session()` in ctx.py no longer reaches it).
 *
 * With `stillReaches`, a local typed by a call or a name that reaches what it did, whose receiver
 * mentions no changed name, is held back (go-stdlib's `var out = flag.String(...)` when a method
 * `String` came to bufio.Reader): following every such local by name alone had reached every
 * reference of go-stdlib through `flag.String()` and then values named `c`, `s` and `n`, 20 s. It is
 * followed after all once what it reads may be typed otherwise. (Once its receiver may, a later round
 * finds it again by that name.)
 */
export function refsAffectedByNames(db: Db, names: Set<string>, stillReaches?: StillReaches): number[] {
  const ids = new Set<number>();
  // `*` (a wildcard or package import's binding) names nothing: joined with every such import in the
  // project, it re-resolved each `fmt.X` of go-stdlib when one file importing fmt went.
  const seen = new Set<string>();
  /** Names of values and functions whose type may read otherwise now. */
  const retyped = new Set<string>();
  const files = new Set<number>();
  let held: HeldLocal[] = [];
  for (let next = [...names]; ;) {
    const named = next.filter((n) => n && n !== "*" && !seen.has(n));
    if (!named.length) return [...ids];
    for (const n of named) seen.add(n);
    const round = affectedOnce(db, named, ids, stillReaches && { ask: stillReaches, seen, retyped });
    held.push(...round.held);
    const reached = new Set<string>();
    for (let changed = round.changed; changed.length;) {
      refsThroughLocalsOf(
        db,
        [...new Set(changed.map((l) => l.fileId))].filter((f) => !files.has(f)),
        ids,
      );
      for (const l of changed) {
        files.add(l.fileId);
        const name = nameSeenElsewhere(db, l.scopeId, l.name);
        if (name) reached.add(name);
      }
      for (const n of reached) retyped.add(n);
      const released = new Set(held.filter((h) => h.reads.some((r) => retyped.has(r))));
      held = held.filter((h) => !released.has(h));
      changed = [...released];
    }
    next = [...reached];
  }
}

/**
 * `refsAffectedByNames` for one round of names: adds to `ids` the references found by name, and
 * returns the locals whose type mentions one, changed or held back (see `StillReaches`).
 */
function affectedOnce(
  db: Db,
  named: readonly string[],
  ids: Set<number>,
  hold?: { ask: StillReaches; seen: Set<string>; retyped: Set<string> },
): { changed: Local[]; held: HeldLocal[] } {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS sync_names(name TEXT PRIMARY KEY) WITHOUT ROWID");
  db.exec("DELETE FROM sync_names");
  const ins = prepared(db, "INSERT OR IGNORE INTO sync_names(name) VALUES (?)");
  for (const n of named) ins.run(n);
  // Two queries, merged here: as one UNION, SQLite read every reference in id order to merge them and
  // looked up each one's file imports (Django: 100 ms for one added name, against 5 ms apart).
  for (const sql of AFFECTED_BY_NAMES) for (const id of prepared(db, sql).pluck().all() as number[]) ids.add(id);
  // And by a receiver that mentions one, or by a receiver in a file where a local's type mentions one.
  // SQLite finds the texts holding a name, each distinct receiver once; only those are split into
  // words here. Testing every reference with a JavaScript function for every name containing it took
  // 0.5 s each on go-stdlib for the 60 names of one file.
  const mentions = mentionsAnyOf(named);
  const receivers = (
    prepared(
      db,
      `SELECT DISTINCT x.receiver FROM (SELECT DISTINCT receiver FROM refs WHERE receiver IS NOT NULL) x
       JOIN sync_names s ON instr(x.receiver, s.name) > 0`,
    )
      .pluck()
      .all() as string[]
  ).filter(mentions);
  const byReceiver = prepared(db, "SELECT id FROM refs WHERE receiver IN (SELECT value FROM json_each(?))").pluck();
  for (const id of byReceiver.all(JSON.stringify(receivers)) as number[]) ids.add(id);
  // Local types are many more than distinct receivers: for more than a few names, reading each once
  // (and testing each distinct text once) costs less than SQLite testing each against every name
  // (go-stdlib, 60 names: 0.5 s; Django, one name: 4 ms, against 15 ms read whole).
  const typed =
    named.length > FEW_NAMES
      ? prepared(db, "SELECT file_id, type_name, scope_id, name, line FROM local_types").raw()
      : prepared(
          db,
          `SELECT DISTINCT t.file_id, t.type_name, t.scope_id, t.name, t.line FROM local_types t
           JOIN sync_names s ON instr(t.type_name, s.name) > 0`,
        ).raw();
  const typeMentions = new Map<string, boolean>();
  const changed: Local[] = [];
  const holding: HeldLocal[] = [];
  const retypes = hold && mentionsAnyOf([...hold.seen, ...hold.retyped]);
  for (const [fileId, type, scopeId, name, line] of typed.iterate() as IterableIterator<
    [number, string, number, string, number]
  >) {
    let hit = typeMentions.get(type);
    if (hit === undefined) typeMentions.set(type, (hit = mentions(type)));
    if (!hit) continue;
    const local = { fileId, scopeId, name };
    const read = hold && READ.exec(type);
    const reads = read && heldRead(db, { ...hold, retypes: retypes! }, { fileId, line }, read);
    if (reads) holding.push({ ...local, reads });
    else changed.push(local);
  }
  db.exec("DELETE FROM sync_names");
  return { changed, held: holding };
}

/**
 * The names a local typed by a `READ` is held back by (the name read and what it reaches), or null
 * when its type may read otherwise: its receiver mentions a changed name, or the type of what it reads
 * may have changed, or a reference at its line that may be it (the call, or the name) no longer
 * reaches what it did, or there is none.
 */
function heldRead(
  db: Db,
  hold: { ask: StillReaches; retyped: Set<string>; retypes: (text: string) => boolean },
  at: { fileId: number; line: number },
  [, receiver, name, call]: RegExpExecArray,
): string[] | null {
  if ((receiver && hold.retypes(receiver)) || hold.retyped.has(name!)) return null;
  const refs = prepared(
    db,
    `SELECT id FROM refs WHERE file_id = ? AND line = ? AND name = ? AND receiver IS ?
     AND kind IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(at.fileId, at.line, name, receiver ?? null, call ? CALL_KINDS : NAME_KINDS) as number[];
  // Several such references on one line (minified code): whichever types the local reads as it did.
  const reaches: string[] = [];
  for (const id of refs) {
    const answer = hold.ask(id);
    if (!answer || answer.some((r) => hold.retyped.has(r))) return null;
    reaches.push(...answer);
  }
  return refs.length ? [name!, ...new Set(reaches)] : null;
}

/** The references a `READ` is written as: a call, or a name (`x: Box`, `x = new Box()`). */
const CALL_KINDS = JSON.stringify(["calls"]);
const NAME_KINDS = JSON.stringify(["references", "instantiates"]);

/**
 * Adds the references of these files that a local's type may steer: those with a receiver, and a bare
 * call of a local bound to a member (`incr := s.incr; incr()`), which calls it.
 */
function refsThroughLocalsOf(db: Db, files: readonly number[], ids: Set<number>): void {
  if (!files.length) return;
  const inFiles = JSON.stringify(files);
  const withReceiver = prepared(
    db,
    "SELECT id FROM refs WHERE file_id IN (SELECT value FROM json_each(?)) AND receiver IS NOT NULL",
  ).pluck();
  for (const id of withReceiver.all(inFiles) as number[]) ids.add(id);
  const boundLocals = new Set(
    prepared(
      db,
      `SELECT file_id || ':' || name FROM local_types
       WHERE file_id IN (SELECT value FROM json_each(?)) AND instr(type_name, '.') > 0`,
    )
      .pluck()
      .all(inFiles) as string[],
  );
  const bareCalls = prepared(
    db,
    `SELECT id, file_id || ':' || name FROM refs
     WHERE file_id IN (SELECT value FROM json_each(?)) AND receiver IS NULL AND kind = 'calls'`,
  ).raw();
  for (const [id, local] of bareCalls.iterate(inFiles) as IterableIterator<[number, string]>)
    if (boundLocals.has(local)) ids.add(id);
}

/**
 * The name by which code in other files reaches what a local type types, or null for a local of a
 * function (seen in its own file only, whose receivers are resolved again anyway): a field
 * (`this.name`) or a value at the top of a module or type by its name, a function's result (`()`,
 * `()#1`) by the function's.
 */
function nameSeenElsewhere(db: Db, scopeId: number, name: string): string | null {
  if (name.startsWith("this.")) return name.slice(5);
  const scope = prepared(db, "SELECT kind, name FROM nodes WHERE id = ?").get(scopeId) as
    { kind: string; name: string } | undefined;
  if (!scope) return null;
  if (name.startsWith("()")) return scope.name;
  return scope.kind === "file" || scope.kind === "module" || TYPE_KINDS.has(scope.kind as never) ? name : null;
}
