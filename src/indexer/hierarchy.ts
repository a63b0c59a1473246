import { Resolver } from "../resolve/resolver.js";
import type { SymbolInfo } from "../core/lookup.js";
import type { ProjectContext } from "../resolve/rules.js";
import type { Db } from "../store/database.js";
import { childNames, memberNamesByQualifiedName, typeIdsOfFile } from "../store/reader.js";
import { SqliteLookup } from "../store/sqlite-lookup.js";

/**
 * Languages whose members are children of their type's node, and whose resolution reads a type's
 * ancestors only to look members up by name. A changed `extends`/`implements` in such a file can only
 * change references to the names its old and new ancestors declare. Elsewhere members live apart from
 * their type (Go and C++ methods, Rust `impl`s, Ruby's reopened classes), and are found by qualified
 * name (see `heritageChangeByNames` for what that is enough for).
 */
const NAMED_MEMBERS = new Set(["java", "typescript", "tsx", "javascript", "python", "php"]);

/** Languages whose calls reach extensions chosen by a receiver's ancestors' names, anywhere. */
export const EXTENSION_LANGUAGES = ["kotlin", "swift", "csharp"];

export function hierarchyByNames(language: string): boolean {
  return NAMED_MEMBERS.has(language);
}

/**
 * Languages where a modified file whose `extends`/`implements` changed makes only the references to
 * the names its types' old and new ancestors declare resolve again (see `ancestorMemberNames`): those
 * whose members are looked up by name, and Go, whose members are found by qualified name in the
 * type's package, as for a file that comes or goes. An embedding added to a struct of go-stdlib
 * re-resolved all 403k references (16 s). Elsewhere every reference is, as before: a Ruby module's
 * calls reach what the classes including it declare, a Rust trait's methods come with any `impl`.
 */
export function heritageChangeByNames(language: string): boolean {
  return NAMED_MEMBERS.has(language) || language === "go";
}

/**
 * Names a subclass may reach through the file's types: what every ancestor of each type declares, as
 * resolution finds the ancestors now. Where members live apart from their type, also what the type
 * itself declares elsewhere (a Go method in another file), found by qualified name.
 */
export function ancestorMemberNames(db: Db, ctx: ProjectContext, fileId: number): Set<string> {
  return namesThroughTypes(db, ctx, typeIdsOfFile(db, fileId), false);
}

/**
 * Names reached through the types `typeIds`: what each of their ancestors declares, and, with
 * `withOwn`, what each declares itself (a type that stops being a base takes its own members from
 * the types below it too).
 */
export function namesThroughTypes(
  db: Db,
  ctx: ProjectContext,
  typeIds: readonly number[],
  withOwn: boolean,
): Set<string> {
  const lookup = new SqliteLookup(db);
  const resolver = new Resolver(lookup, ctx);
  const names = new Set<string>();
  const add = (type: SymbolInfo, self: boolean) => {
    const language = lookup.file(type.fileId)?.language;
    if (!language) return;
    const byNames = hierarchyByNames(language);
    if (!self) for (const n of childNames(db, type.id)) names.add(n);
    if (!byNames)
      for (const n of memberNamesByQualifiedName(db, resolver.memberFiles(type), language, type.qualifiedName))
        names.add(n);
  };
  for (const t of typeIds) {
    const type = lookup.symbol(t);
    if (type) add(type, !withOwn);
    for (const a of resolver.ancestors(t)) add(a, false);
  }
  return names;
}
