import { Resolver } from "../resolve/resolver.js";
import type { ProjectContext } from "../resolve/rules.js";
import type { Db } from "../store/database.js";
import { childNames, typeIdsOfFile } from "../store/reader.js";
import { SqliteLookup } from "../store/sqlite-lookup.js";

/**
 * Languages whose members are children of their type's node, and whose resolution reads a type's
 * ancestors only to look members up by name. A changed `extends`/`implements` in such a file can only
 * change references to the names its old and new ancestors declare. Elsewhere members live apart from
 * their type (Go and C++ methods, Rust `impl`s, Ruby's reopened classes), so every reference is
 * resolved again, as before.
 */
const NAMED_MEMBERS = new Set(["java", "typescript", "tsx", "javascript", "python", "php"]);

/** Languages whose calls reach extensions chosen by a receiver's ancestors' names, anywhere. */
export const EXTENSION_LANGUAGES = ["kotlin", "swift", "csharp"];

export function hierarchyByNames(language: string): boolean {
  return NAMED_MEMBERS.has(language);
}

/** Names declared in every ancestor of the file's types, as resolution finds the ancestors now. */
export function ancestorMemberNames(db: Db, ctx: ProjectContext, fileId: number): Set<string> {
  const resolver = new Resolver(new SqliteLookup(db), ctx);
  const names = new Set<string>();
  for (const t of typeIdsOfFile(db, fileId))
    for (const a of resolver.ancestors(t)) for (const n of childNames(db, a.id)) names.add(n);
  return names;
}
