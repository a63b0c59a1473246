import { BUILTIN_FOLDERS, type ProjectScope } from "../indexer/scope.js";

/** Characters that make @parcel/watcher read an ignore entry as a glob instead of a literal folder. */
const GLOB_CHARS = /[*?[\]{}()!+@|\\]/;

/**
 * What the OS watch skips, so that neither the kernel nor our thread sees events from folders the index
 * never enters: the built-in folders anywhere, the folders .gitignore or exclude keep out right now
 * (literal project-relative paths), nested projects' .codegraph folders, and everything in our own
 * .codegraph except config.toml (a live control file) and the mark a reader leaves on a damaged index
 * (`DAMAGE_MARK`: its sync rebuilds the index). Events there are also dropped in code, so a
 * folder that only becomes ignored later costs events, never correctness.
 */
export function osIgnores(scope: ProjectScope | null): (string | RegExp)[] {
  const names = BUILTIN_FOLDERS.filter((n) => n !== ".codegraph");
  const ignores: (string | RegExp)[] = [
    /^\.codegraph\/(?!config\.toml$|graph\.db\.damaged$)/,
    "*/**/.codegraph",
    `**/{${names.join(",")}}`,
  ];
  for (const folder of scope?.ignoredFolders ?? []) if (!GLOB_CHARS.test(folder)) ignores.push(folder);
  return ignores;
}

/** A stable key of an ignore list, to tell whether the watch must be renewed. */
export function ignoresKey(ignores: readonly (string | RegExp)[]): string {
  return ignores.map(String).join("\n");
}
