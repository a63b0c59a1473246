import {
  ANYWHERE,
  ChangedNames,
  inFileSet,
  localTypeName,
  mentionSites,
  mentionsAnyOf,
  noSite,
  roleOf,
  type FileSet,
  type NamedRole,
  type NameReach,
  type NameRole,
} from "../core/changed-names.js";
import { getOr } from "../core/group-by.js";
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

/** What `refsAffectedByNames` may be told besides the names. */
export interface AffectedOptions {
  /** Whether a reference still reaches what it did (see `StillReaches`); without it, nothing is held. */
  stillReaches?: StillReaches;
  /**
   * Where a name seen elsewhere through a local of this file may be written, the local being a field
   * (a member) or a module-level value or function (top): anywhere without it.
   */
  reachOf?: (fileId: number, role: NameRole, name: string) => NameReach;
}

/**
 * Ids of references in other files that may now resolve differently because names in `names` changed.
 * What a field, a module-level value or a function's result is typed by may be one of them, and then
 * what a receiver reaches through that field or value, or that call, elsewhere may change too: their
 * names are followed in turn (Flask's `session_interface = SecureCookieSessionInterface()`, whose
 * import went: `self.app.session_interface.open_session()` in ctx.py no longer reaches it). A name
 * counts only where it may be written so as to mean what changed (see core/changed-names.ts).
 *
 * With `stillReaches`, a local typed by a call or a name that reaches what it did, whose receiver
 * mentions no changed name, is held back (go-stdlib's `var out = flag.String(...)` when a method
 * `String` came to bufio.Reader): following every such local by name alone had reached every
 * reference of go-stdlib through `flag.String()` and then values named `c`, `s` and `n`, 20 s. It is
 * followed after all once what it reads may be typed otherwise. (Once its receiver may, a later round
 * finds it again by that name.)
 */
export function refsAffectedByNames(db: Db, names: ChangedNames, options: AffectedOptions = {}): number[] {
  const { stillReaches, reachOf = () => ANYWHERE } = options;
  const ids = new Set<number>();
  /** Every name followed so far, reaching as far as it was followed; a name reached further is again. */
  const seen = new ChangedNames();
  /** Names of values and functions whose type may read otherwise now. */
  const retyped = new ChangedNames();
  /** The locals followed in their own files, by file (see `refsThroughLocalsOf`). */
  const followed = new Map<number, Set<string>>();
  const texts = new TypeTexts(db);
  let held: HeldLocal[] = [];
  for (let next = names; ;) {
    const round = new ChangedNames();
    // `*` (a wildcard or package import's binding) names nothing: joined with every such import in the
    // project, it re-resolved each `fmt.X` of go-stdlib when one file importing fmt went.
    for (const n of next) if (n !== "*" && seen.add(n, next.reachOf(n))) round.add(n, seen.reachOf(n));
    if (!round.size) return [...ids];
    const found = affectedOnce(db, texts, round, ids, stillReaches && { ask: stillReaches, seen, retyped });
    held.push(...found.held);
    const reached = new ChangedNames();
    for (let changed = found.changed; changed.length;) {
      refsThroughLocalsOf(db, changed, ids, followed);
      for (const l of changed) {
        const named = nameSeenElsewhere(db, l.scopeId, l.name);
        if (named) reached.add(named.name, reachOf(l.fileId, named.role, named.name));
      }
      retyped.addAll(reached);
      const released = new Set(held.filter((h) => h.reads.some((r) => retyped.has(r))));
      held = held.filter((h) => !released.has(h));
      changed = [...released];
    }
    next = reached;
  }
}

/**
 * `refsAffectedByNames` for one round of names: adds to `ids` the references found by name, and
 * returns the locals whose type mentions one, changed or held back (see `StillReaches`).
 */
function affectedOnce(
  db: Db,
  texts: TypeTexts,
  names: ChangedNames,
  ids: Set<number>,
  hold?: { ask: StillReaches; seen: ChangedNames; retyped: ChangedNames },
): { changed: Local[]; held: HeldLocal[] } {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS sync_names(name TEXT PRIMARY KEY) WITHOUT ROWID");
  db.exec("DELETE FROM sync_names");
  const ins = prepared(db, "INSERT OR IGNORE INTO sync_names(name) VALUES (?)");
  for (const n of names) ins.run(n);
  // Two queries, merged here: as one UNION, SQLite read every reference in id order to merge them and
  // looked up each one's file imports (Django: 100 ms for one added name, against 5 ms apart).
  for (const sql of AFFECTED_BY_NAMES) for (const id of prepared(db, sql).pluck().all() as number[]) ids.add(id);
  // And by a receiver that mentions one, or by a receiver in a file where a local's type mentions one.
  // SQLite finds the texts holding a name, each distinct receiver once; only those are split into
  // words here. Testing every reference with a JavaScript function for every name containing it took
  // 0.5 s each on go-stdlib for the 60 names of one file.
  const sites = mentionSites(names);
  const anywhere: string[] = [];
  const somewhere = new Map<string, ReadonlySet<number>>();
  for (const receiver of prepared(
    db,
    `SELECT DISTINCT x.receiver FROM (SELECT DISTINCT receiver FROM refs WHERE receiver IS NOT NULL) x
     JOIN sync_names s ON instr(x.receiver, s.name) > 0`,
  )
    .pluck()
    .all() as string[]) {
    const where = sites(receiver);
    if (where === null) anywhere.push(receiver);
    else if (where.size) somewhere.set(receiver, where);
  }
  const byReceiver = prepared(db, "SELECT id FROM refs WHERE receiver IN (SELECT value FROM json_each(?))").pluck();
  for (const id of byReceiver.all(JSON.stringify(anywhere)) as number[]) ids.add(id);
  const inFiles = prepared(
    db,
    "SELECT id, file_id, receiver FROM refs WHERE receiver IN (SELECT value FROM json_each(?))",
  );
  for (const [id, fileId, receiver] of inFiles.raw().iterate(JSON.stringify([...somewhere.keys()])) as IterableIterator<
    [number, number, string]
  >)
    if (somewhere.get(receiver)!.has(fileId)) ids.add(id);
  // Local types are many more than distinct receivers: for more than a few names, testing each
  // distinct type text once (read once for every round) costs less than SQLite testing each against
  // every name (go-stdlib, 60 names: 0.5 s; Django, one name: 4 ms, against 15 ms read whole), and
  // reading then only the local types of the texts that mention one, less than reading them all
  // (go-stdlib's 162k: 320 ms, against 60 ms).
  const typeSites = new Map<string, FileSet>();
  const siteOfType = (text: string) => getOr(typeSites, text, () => sites(text));
  const typed = (
    names.size > FEW_NAMES
      ? prepared(
          db,
          `SELECT file_id, type_name, scope_id, name, line FROM local_types
           WHERE type_name IN (SELECT value FROM json_each(?))`,
        )
          .raw()
          .iterate(JSON.stringify(texts.all().filter((t) => !noSite(siteOfType(t)))))
      : prepared(
          db,
          `SELECT DISTINCT t.file_id, t.type_name, t.scope_id, t.name, t.line FROM local_types t
           JOIN sync_names s ON instr(t.type_name, s.name) > 0`,
        )
          .raw()
          .iterate()
  ) as IterableIterator<[number, string, number, string, number]>;
  const changed: Local[] = [];
  const holding: HeldLocal[] = [];
  let retypes: ((text: string) => FileSet) | undefined;
  if (hold) {
    const soFar = new ChangedNames();
    soFar.addAll(hold.seen);
    soFar.addAll(hold.retyped);
    retypes = mentionSites(soFar);
  }
  for (const [fileId, type, scopeId, name, line] of typed) {
    if (!inFileSet(siteOfType(type), fileId)) continue;
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
  hold: { ask: StillReaches; retyped: ChangedNames; retypes: (text: string) => FileSet },
  at: { fileId: number; line: number },
  [, receiver, name, call]: RegExpExecArray,
): string[] | null {
  if ((receiver && inFileSet(hold.retypes(receiver), at.fileId)) || hold.retyped.has(name!)) return null;
  // Through the file's references (`+name`): by name, SQLite read every reference of a common one
  // (`Err`) for each local, 0.6 ms against 0.06.
  const refs = prepared(
    db,
    `SELECT id FROM refs WHERE file_id = ? AND line = ? AND +name = ? AND receiver IS ?
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

/** Every distinct text that types a local, read once by the first round that needs them. */
class TypeTexts {
  private texts: string[] | null = null;

  constructor(private readonly db: Db) {}

  all(): string[] {
    return (this.texts ??= prepared(this.db, "SELECT DISTINCT type_name FROM local_types").pluck().all() as string[]);
  }
}

/** A local's name as receivers write it: a plain identifier, a field's without its `this.`. */
const PLAIN_LOCAL = /^(?:this\.)?([A-Za-z_$][\w$]*)$/;

/**
 * Adds the references of their own files that changed locals may steer: those whose receiver mentions
 * one, or a local of the file typed through one (`y := x.Next()`), and bare calls of such a local
 * (`incr := s.incr; incr()`), which call what it holds. A function's result (`()`) is followed by the
 * function's name instead (see `nameSeenElsewhere`), its own file included. A local of another kind
 * (a result typed through a changed local, the marks of core/extraction.ts: `(anonymous body)`, `+`,
 * `c[0]`) may steer any reference of its file with a receiver: all of them are. Every receiver of a
 * file whose locals changed had made one local of go-stdlib typed by a bufio.Scanner method
 * re-resolve 87k references.
 */
function refsThroughLocalsOf(
  db: Db,
  changed: readonly Local[],
  ids: Set<number>,
  followed: Map<number, Set<string>>,
): void {
  const byFile = new Map<number, Set<string>>();
  const whole = new Set<number>();
  for (const l of changed) {
    if (l.name.startsWith("()") || followed.get(l.fileId)?.has(WHOLE)) continue;
    const plain = PLAIN_LOCAL.exec(l.name)?.[1];
    if (plain === undefined) whole.add(l.fileId);
    else getOr(byFile, l.fileId, () => new Set()).add(plain);
  }
  const localsOf = prepared(db, "SELECT name, type_name FROM local_types WHERE file_id = ?").raw();
  const refsOf = prepared(db, "SELECT id, name, receiver, kind FROM refs WHERE file_id = ?").raw();
  for (const [fileId, names] of byFile) {
    if (whole.has(fileId)) continue;
    const done = getOr(followed, fileId, () => new Set());
    const locals = localsOf.all(fileId) as [string, string][];
    // Locals typed through the changed ones, and through those, within the file.
    for (let fresh = [...names].filter((n) => !done.has(n)); fresh.length && !whole.has(fileId);) {
      for (const n of fresh) done.add(n);
      const mentions = mentionsAnyOf(fresh);
      const next = new Set<string>();
      for (const [name, type] of locals) {
        if (!mentions(type)) continue;
        const plain = PLAIN_LOCAL.exec(name)?.[1];
        if (plain === undefined) whole.add(fileId);
        else if (!done.has(plain)) next.add(plain);
      }
      fresh = [...next];
    }
    if (whole.has(fileId)) continue;
    const mentions = mentionsAnyOf(done);
    for (const [id, name, receiver, kind] of refsOf.iterate(fileId) as IterableIterator<
      [number, string, string | null, string]
    >) {
      if (receiver === null ? kind === "calls" && done.has(name) : mentions(receiver)) ids.add(id);
    }
  }
  if (!whole.size) return;
  for (const fileId of whole) followed.set(fileId, new Set([WHOLE]));
  const withReceiver = prepared(
    db,
    "SELECT id FROM refs WHERE file_id IN (SELECT value FROM json_each(?)) AND receiver IS NOT NULL",
  ).pluck();
  for (const id of withReceiver.all(JSON.stringify([...whole])) as number[]) ids.add(id);
}

/** In `followed`: every reference of the file with a receiver was added. */
const WHOLE = "";

/**
 * The name by which code in other files reaches what a local type types, and the part it plays, or
 * null for a local of a function (seen in its own file only, whose receivers are resolved again
 * anyway): a field (`this.name`) or a value at the top of a module or type by its name, a function's
 * result (`()`, `()#1`) by the function's.
 */
function nameSeenElsewhere(db: Db, scopeId: number, name: string): NamedRole | null {
  if (name.startsWith("this.")) return localTypeName(name, null);
  const scope = prepared(db, "SELECT kind, name FROM nodes WHERE id = ?").get(scopeId) as
    { kind: string; name: string } | undefined;
  if (!scope) return null;
  if (name.startsWith("()")) return { name: scope.name, role: roleOf(scope.kind, null) };
  return scope.kind === "file" || scope.kind === "module" || TYPE_KINDS.has(scope.kind as never)
    ? localTypeName(name, scope.kind)
    : null;
}
