import { TYPE_KINDS } from "../core/kinds.js";
import type { Db } from "./database.js";
import { prepared } from "./statements.js";

/**
 * Languages that write a type's methods outside its body: Go's `func (c *Command) Run()`, Rust's
 * `impl Builder { fn new() }`, C++'s `void View::Layout() {}` in a source file, Swift's `extension`.
 * The index keeps such a method under its file, namespace, impl or extension, and names it by the
 * type (`Command.Run`). C and C++ are one family here: a header read as C may declare a class whose
 * methods a `.cpp` file defines.
 */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  go: ["go"],
  rust: ["rust"],
  c: ["c", "cpp"],
  cpp: ["c", "cpp"],
  swift: ["swift"],
};

const TYPES: ReadonlySet<string> = TYPE_KINDS;
const TYPE_LIST = [...TYPES].map((k) => `'${k}'`).join(",");

interface TypeRow {
  name: string;
  qualifiedName: string;
  kind: string;
  fileId: number;
  language: string;
  package: string | null;
}

/**
 * The ids of the declarations named as members of a type (`Type.member`, and what nested types of it
 * hold) that its body does not contain, in the files of its language family and package (Go: its
 * folder). When another type there has the same qualified name (two modules' `Error` in one crate,
 * specialisations of a C++ template), only its own file's count. Each file is one range read of the
 * (file, qualified name) index.
 */
export function membersOutside(db: Db, typeId: number): number[] {
  const type = prepared(
    db,
    `SELECT n.name, n.qualified_name AS qualifiedName, n.kind, n.file_id AS fileId, f.language, f.package
     FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.id = ?`,
  ).get(typeId) as TypeRow | undefined;
  const family = type && TYPES.has(type.kind) ? FAMILIES[type.language] : undefined;
  if (!type || !family) return [];
  const scope = {
    id: typeId,
    name: type.name,
    qn: type.qualifiedName,
    pkg: type.package,
    langs: JSON.stringify(family),
  };
  const twin = prepared(
    db,
    `SELECT 1 FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE n.name = @name AND n.qualified_name = @qn AND n.id != @id AND n.kind IN (${TYPE_LIST})
       AND f.package IS @pkg AND f.language IN (SELECT value FROM json_each(@langs)) LIMIT 1`,
  ).get(scope);
  // Names from `Type.` up to `Type/`, the next character after the dot: every `Type.<anything>`.
  const range = { lo: `${type.qualifiedName}.`, hi: `${type.qualifiedName}/` };
  const rows = twin
    ? prepared(
        db,
        `SELECT id FROM nodes WHERE file_id = @fileId AND qualified_name > @lo AND qualified_name < @hi AND kind != 'import'`,
      ).all({ fileId: type.fileId, ...range })
    : prepared(
        db,
        `SELECT n.id FROM files f JOIN nodes n ON n.file_id = f.id AND n.qualified_name > @lo AND n.qualified_name < @hi
         WHERE f.package IS @pkg AND f.language IN (SELECT value FROM json_each(@langs)) AND n.kind != 'import'`,
      ).all({ pkg: type.package, langs: scope.langs, ...range });
  return (rows as { id: number }[]).map((r) => r.id);
}
