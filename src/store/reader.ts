import { ALIAS_OF, TUPLE, isUseBinding, type RefKind } from "../core/extraction.js";
import { groupBy } from "../core/group-by.js";
import { TYPE_KINDS } from "../core/kinds.js";
import { dirOf } from "../core/paths.js";
import { localTypeName, roleOf, type NamedRole } from "../core/changed-names.js";
import type { RefInfo } from "../core/lookup.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

export interface StoredFile {
  id: number;
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  language: string;
}

/** Every indexed file's freshness facts, for diffing against the disk. */
export function storedFiles(db: Db): Map<string, StoredFile> {
  const rows = prepared(
    db,
    "SELECT id, path, size, mtime_ms AS mtimeMs, sha256, language FROM files",
  ).all() as StoredFile[];
  return new Map(rows.map((r) => [r.path, r]));
}

export function maxIds(db: Db): { file: number; node: number; ref: number } {
  const max = (t: string) => (prepared(db, `SELECT coalesce(max(id), 0) AS n FROM ${t}`).get() as { n: number }).n;
  return { file: max("files"), node: max("nodes"), ref: max("refs") };
}

const REF_COLS =
  "r.id, r.file_id AS fileId, r.from_id AS fromId, r.kind, r.name, r.receiver, r.line, r.arg_count AS argCount";

type RefSqlRow = Omit<RefInfo, "kind"> & { kind: string };
const toRef = (r: RefSqlRow): RefInfo => ({ ...r, kind: r.kind as RefKind });

/** References by id. */
export function refsByIds(db: Db, ids: Iterable<number>): RefInfo[] {
  const stmt = prepared(db, `SELECT ${REF_COLS} FROM refs r WHERE r.id = ?`);
  const out: RefInfo[] = [];
  for (const id of ids) {
    const row = stmt.get(id) as RefSqlRow | undefined;
    if (row) out.push(toRef(row));
  }
  return out;
}

export function allRefs(db: Db): RefInfo[] {
  return (prepared(db, `SELECT ${REF_COLS} FROM refs r ORDER BY r.id`).all() as RefSqlRow[]).map(toRef);
}

/**
 * Names each file declares or binds, with the part each plays there: what a change to it can make
 * appear or disappear elsewhere.
 */
export function namesOfFiles(db: Db, fileIds: number[]): Map<number, NamedRole[]> {
  const out = new Map<number, NamedRole[]>();
  const nodes = prepared(
    db,
    `SELECT DISTINCT n.name, n.kind, p.kind AS parentKind FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
     WHERE n.file_id = ? AND n.kind <> 'file'`,
  );
  const imports = prepared(db, "SELECT local, imported FROM imports WHERE file_id = ?");
  for (const id of fileIds) {
    const names: NamedRole[] = [];
    for (const r of nodes.all(id) as { name: string; kind: string; parentKind: string | null }[])
      names.push({ name: r.name, role: roleOf(r.kind, r.parentKind) });
    for (const r of imports.all(id) as { local: string; imported: string | null }[]) {
      // A Go file's `pkg.Name` bindings bind nothing another file sees: re-resolving every `Println`
      // of the project for them took x-tools' syncs that removed files 10-20% longer.
      if (!isUseBinding(r)) names.push(...bindingNames(r));
    }
    out.set(id, names);
  }
  return out;
}

/** The Go files of each folder ("" for the project's root): a Go package. */
export function goFilesByFolder(db: Db): Map<string, ReadonlySet<number>> {
  const files = prepared(db, "SELECT id, path FROM files WHERE language = 'go'").all() as {
    id: number;
    path: string;
  }[];
  return new Map(
    [...groupBy(files, (f) => dirOf(f.path))].map(([folder, group]) => [folder, new Set(group.map((f) => f.id))]),
  );
}

/** Go files that import a package with a dot (`import . "strings"`): they write its exported names bare. */
export function goDotImporters(db: Db): number[] {
  return prepared(
    db,
    `SELECT DISTINCT i.file_id FROM imports i JOIN files f ON f.id = i.file_id WHERE f.language = 'go' AND i.local = '*'`,
  )
    .pluck()
    .all() as number[];
}

/** Names of the modules these Ruby files `include` or `prepend` (as written, last segment). */
export function includedNamesOfFiles(db: Db, fileIds: number[]): Set<string> {
  const names = new Set<string>();
  const q = prepared(
    db,
    `SELECT r.name FROM refs r JOIN files f ON f.id = r.file_id
     WHERE r.file_id = ? AND f.language = 'ruby' AND r.kind = 'implements' AND coalesce(r.arg_count, 0) <> 1`,
  );
  for (const id of fileIds) for (const r of q.all(id) as { name: string }[]) names.add(r.name);
  return names;
}

/** References written in the files that declare a module of one of these names. */
export function refsInModulesNamed(db: Db, names: Set<string>): number[] {
  const q = prepared(
    db,
    `SELECT r.id FROM refs r WHERE r.file_id IN (SELECT file_id FROM nodes WHERE kind = 'module' AND name = ?)`,
  );
  const ids: number[] = [];
  for (const name of names) for (const r of q.all(name) as { id: number }[]) ids.push(r.id);
  return ids;
}

/** A file's extends/implements references as `from-qualified-name name receiver` lines, to notice a changed hierarchy. */
export function heritageSignature(db: Db, fileId: number): string {
  return (
    prepared(
      db,
      `SELECT n.qualified_name AS q, r.kind AS k, r.name AS name, coalesce(r.receiver, '') AS recv FROM refs r
         JOIN nodes n ON n.id = r.from_id WHERE r.file_id = ? AND r.kind IN ('extends', 'implements')`,
    ).all(fileId) as { q: string; k: string; name: string; recv: string }[]
  )
    .map((r) => `${r.q} ${r.k} ${r.recv}.${r.name}`)
    .sort()
    .join("\n");
}

/** One `extends` or `implements` reference, the same across a file's re-parse: its type, kind and text. */
export const heritageKey = (r: { fromId: number; kind: string; name: string; receiver: string | null }) =>
  `${r.fromId} ${r.kind} ${r.receiver ?? ""}.${r.name}`;

/** What each `extends` and `implements` reference of a file reaches now, by `heritageKey` (see `edgeTargets`). */
export function heritageTargetsOfFile(db: Db, fileId: number): Map<string, string> {
  const refs = prepared(
    db,
    `SELECT id, from_id AS fromId, kind, name, receiver FROM refs
     WHERE file_id = ? AND kind IN ('extends', 'implements')`,
  ).all(fileId) as { id: number; fromId: number; kind: string; name: string; receiver: string | null }[];
  return new Map(refs.map((r) => [heritageKey(r), edgeTargets(db, r.id)]));
}

/** Node ids of a file's declarations by stable id, so a modified file can keep the ids of what survives. */
export function nodeIdsByUid(db: Db, fileId: number): Map<string, number> {
  const rows = prepared(db, "SELECT uid, id FROM nodes WHERE file_id = ?").all(fileId) as { uid: string; id: number }[];
  return new Map(rows.map((r) => [r.uid, r.id]));
}

/** A local type with its scope, as resolution facts read it (see `storedFacts`). */
export interface LocalTypeFact {
  /** The scope's stable id, "" at module level. */
  scope: string;
  scopeKind: string | null;
  scopeName: string | null;
  name: string;
  typeName: string;
}

/**
 * The facts of the local types that can change how other files resolve, each with the names it
 * involves: types of fields, module-level values and return types can; a local variable's type inside
 * a function matters only to its own file, unless the function returns through its locals (Python
 * without a `->`: `return clone`, `return repo.find()`): what those hold is what its callers in other
 * files get, so a change to any of them is a change of the function's name.
 */
export function localTypeFacts(types: readonly LocalTypeFact[], facts: string[], names: NamedRole[][]): void {
  const locals = new Set(types.map((t) => `${t.scope}\0${t.name}`));
  const throughLocals = new Set<string>();
  for (const t of types) {
    const head = isReturn(t.name) ? /^[A-Za-z_$][\w$]*/.exec(t.typeName)?.[0] : undefined;
    if (head && locals.has(`${t.scope}\0${head}`)) throughLocals.add(t.scope);
  }
  for (const t of types) {
    const returns = isReturn(t.name);
    const returned = throughLocals.has(t.scope) && !returns;
    const inFunction = t.scopeKind === "function" || t.scopeKind === "method" || t.scopeKind === "constructor";
    if (!returned && inFunction && !returns) continue;
    facts.push(`t|${t.scope}|${t.name}|${t.typeName}`);
    // What a C++ alias names changes what `Alias::f()` reaches, written with the alias's name.
    // A result is read elsewhere by its function's name; `()` names nothing (as a name, it matched every
    // text with `$()` in it: Django's jQuery files followed their values from a Python change).
    if (t.name === ALIAS_OF || returned || returns)
      names.push([{ name: t.scopeName ?? "", role: roleOf(t.scopeKind ?? "", null) }]);
    else names.push([localTypeName(t.name, t.scopeKind)]);
  }
}

/**
 * What a function returns: `()`, and each position of a tuple it returns (`()#1`; Rust's `()#0` too,
 * Go's later results), which callers elsewhere read as much as the first.
 */
const isReturn = (name: string) => name === "()" || name.startsWith(`()${TUPLE}`);

/** A file's resolution facts, each with the names it involves (see `storedFacts`). */
export interface Facts {
  facts: string[];
  names: NamedRole[][];
}

/** The names an import binding involves: its local name and the name it imports. */
export const bindingNames = (i: { local: string; imported: string | null }): NamedRole[] => [
  { name: i.local, role: "binding" },
  { name: i.imported ?? "", role: "binding" },
];

/**
 * A file's resolution facts as stored: one string per declaration, import binding and cross-file
 * local type, each with the names it involves. Diffing old and new facts tells which names a change
 * to the file can make resolve differently elsewhere.
 */
export function storedFacts(db: Db, fileId: number): Facts {
  const symbols = prepared(
    db,
    `SELECT n.uid, n.kind, n.name, coalesce(n.param_count, '') AS pc, n.exported, n.is_static AS static,
       coalesce(p.uid, '') AS parent, p.kind AS parentKind
       FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.file_id = ?`,
  ).all(fileId) as {
    uid: string;
    kind: string;
    name: string;
    pc: string;
    exported: number;
    static: number;
    parent: string;
    parentKind: string | null;
  }[];
  const imports = prepared(db, "SELECT local, imported, specifier, reexport FROM imports WHERE file_id = ?").all(
    fileId,
  ) as {
    local: string;
    imported: string | null;
    specifier: string;
    reexport: number;
  }[];
  const types = prepared(
    db,
    `SELECT coalesce(n.uid, '') AS scope, n.kind AS scopeKind, n.name AS scopeName, t.name, t.type_name AS typeName
       FROM local_types t LEFT JOIN nodes n ON n.id = t.scope_id WHERE t.file_id = ?`,
  ).all(fileId) as {
    scope: string;
    scopeKind: string | null;
    scopeName: string | null;
    name: string;
    typeName: string;
  }[];
  const facts: string[] = [];
  const names: NamedRole[][] = [];
  for (const s of symbols) {
    facts.push(`s|${s.uid}|${s.kind}|${s.pc}|${s.exported ? 1 : 0}|${s.static ? 1 : 0}|${s.parent}`);
    names.push([{ name: s.name, role: roleOf(s.kind, s.parentKind) }]);
  }
  for (const i of imports) {
    facts.push(`i|${i.local}|${i.imported ?? ""}|${i.specifier}|${i.reexport ? 1 : 0}`);
    names.push(bindingNames(i));
  }
  localTypeFacts(types, facts, names);
  return { facts, names };
}

/** The type declarations (classes, interfaces, ...) of a file. */
export function typeIdsOfFile(db: Db, fileId: number): number[] {
  const kinds = [...TYPE_KINDS];
  return prepared(db, `SELECT id FROM nodes WHERE file_id = ? AND kind IN (${kinds.map(() => "?").join(",")})`)
    .pluck()
    .all(fileId, ...kinds) as number[];
}

/**
 * Names of what is declared inside a type, wherever it is: every symbol whose qualified name continues
 * the type's, in these files (all files of the language when null). Finds Go methods and Rust `impl`s
 * in other files and Ruby's reopened classes; nested types' members too, which only widens a re-resolve.
 */
export function memberNamesByQualifiedName(
  db: Db,
  files: readonly number[] | null,
  language: string,
  qualifiedName: string,
): Set<string> {
  // '/' follows '.': the range holds exactly the names that start with `qualifiedName.`.
  const range = [`${qualifiedName}.`, `${qualifiedName}/`];
  const inFile = prepared(
    db,
    "SELECT DISTINCT name FROM nodes WHERE file_id = ? AND qualified_name > ? AND qualified_name < ?",
  ).pluck();
  if (files) return new Set(files.flatMap((id) => inFile.all(id, ...range) as string[]));
  const inLanguage = prepared(
    db,
    `SELECT DISTINCT n.name FROM files f JOIN nodes n ON n.file_id = f.id
     WHERE f.language = ? AND n.qualified_name > ? AND n.qualified_name < ?`,
  ).pluck();
  return new Set(inLanguage.all(language, ...range) as string[]);
}

/** Whether any type the file declares has a base, or is named as one by an `extends`/`implements` anywhere. */
export function typesInHierarchy(db: Db, fileId: number): boolean {
  const bases = prepared(db, "SELECT 1 FROM refs WHERE from_id = ? AND kind IN ('extends', 'implements')");
  const named = prepared(
    db,
    "SELECT 1 FROM refs r JOIN nodes n ON n.name = r.name WHERE n.id = ? AND r.kind IN ('extends', 'implements')",
  );
  return typeIdsOfFile(db, fileId).some((id) => bases.get(id) !== undefined || named.get(id) !== undefined);
}

/** The names declared directly inside a node. */
export function childNames(db: Db, id: number): string[] {
  return prepared(db, "SELECT DISTINCT name FROM nodes WHERE parent_id = ?").pluck().all(id) as string[];
}

/** Every reference written in a file of these languages. */
export function refsOfLanguages(db: Db, languages: readonly string[]): number[] {
  return prepared(
    db,
    `SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.language IN (${languages.map(() => "?").join(",")})`,
  )
    .pluck()
    .all(...languages) as number[];
}

/** Module references, with their file's language: how they resolve depends on which files exist. */
export function moduleRefs(db: Db): { id: number; fileId: number; name: string; language: string }[] {
  return prepared(
    db,
    `SELECT r.id, r.file_id AS fileId, r.name, f.language FROM refs r JOIN files f ON f.id = r.file_id
     WHERE r.kind IN ('imports', 'exports')`,
  ).all() as { id: number; fileId: number; name: string; language: string }[];
}

/** The path and language of each of these files. */
export function filesOfIds(db: Db, fileIds: readonly number[]): { id: number; path: string; language: string }[] {
  const q = prepared(db, "SELECT id, path, language FROM files WHERE id = ?");
  return fileIds.flatMap((id) => (q.get(id) as { id: number; path: string; language: string } | undefined) ?? []);
}

/** The path and the package (null without one) of each of these files. */
export function packagesOfFiles(db: Db, fileIds: number[]): { path: string; packageName: string | null }[] {
  const q = prepared(db, "SELECT path, package AS packageName FROM files WHERE id = ?");
  return fileIds.flatMap((id) => (q.get(id) as { path: string; packageName: string | null } | undefined) ?? []);
}

/** The file itself and every file whose imports reach it, at any depth (C's includes of includes). */
export function includersOf(db: Db, fileId: number): number[] {
  return prepared(
    db,
    `WITH RECURSIVE up(id) AS (
       SELECT ? UNION
       SELECT e.file_id FROM up JOIN files f ON f.id = up.id JOIN edges e ON e.target_id = f.node_id AND e.kind = 'imports')
     SELECT id FROM up`,
  )
    .pluck()
    .all(fileId) as number[];
}

/** The files declaring a type or any type that extends or implements it, at any depth. */
export function filesOfTypesBelow(db: Db, typeId: number): number[] {
  return prepared(
    db,
    `WITH RECURSIVE below(id) AS (
       SELECT ? UNION
       SELECT e.source_id FROM below JOIN edges e ON e.target_id = below.id AND e.kind IN ('extends', 'implements'))
     SELECT DISTINCT n.file_id FROM below JOIN nodes n ON n.id = below.id`,
  )
    .pluck()
    .all(typeId) as number[];
}

/** The nodes a file's imports reach, comparable as a string. */
export function importTargetsOfFile(db: Db, fileId: number): string {
  return (
    prepared(
      db,
      `SELECT DISTINCT target_id FROM edges WHERE source_id = (SELECT node_id FROM files WHERE id = ?)
       AND kind = 'imports' ORDER BY target_id`,
    )
      .pluck()
      .all(fileId) as number[]
  ).join(",");
}

/** Every reference written in a file of the language under a folder ("" for the whole project). */
export function refIdsUnder(db: Db, dir: string, language: string): number[] {
  return prepared(
    db,
    "SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.language = ? AND substr(f.path, 1, ?) = ?",
  )
    .pluck()
    .all(language, dir ? dir.length + 1 : 0, dir ? `${dir}/` : "") as number[];
}

export function refIdsOfFile(db: Db, fileId: number): number[] {
  return (prepared(db, "SELECT id FROM refs WHERE file_id = ?").all(fileId) as { id: number }[]).map((r) => r.id);
}

/** A file's package, and the names it declares at its top level (imports left out), as stored. */
export function fileShape(db: Db, fileId: number): { packageName: string | null; topLevel: string[] } {
  const file = prepared(db, "SELECT package AS packageName, node_id AS nodeId FROM files WHERE id = ?").get(fileId) as
    { packageName: string | null; nodeId: number } | undefined;
  if (!file) return { packageName: null, topLevel: [] };
  const names = prepared(db, "SELECT name FROM nodes WHERE parent_id = ? AND kind != 'import'")
    .pluck()
    .all(file.nodeId) as string[];
  return { packageName: file.packageName, topLevel: names };
}

/** The targets a reference's edges point at now, to tell whether re-resolving changed anything. */
export function edgeTargets(db: Db, refId: number): string {
  return (
    prepared(db, "SELECT target_id AS t FROM edges WHERE ref_id = ? ORDER BY target_id").all(refId) as { t: number }[]
  )
    .map((r) => r.t)
    .join(",");
}
