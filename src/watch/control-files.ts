/**
 * The live control files (spec, "Daemon & live watch"), project-relative: the team's codegraph.json,
 * the local .codegraph/config.toml and the root .gitignore. Their events bypass the scope filter,
 * reload the scope, renew the OS watch and bring one full scan. A nested .gitignore also changes the
 * scope and is treated the same way once it is known to lie inside the scope.
 */
export const CONTROL_FILES: ReadonlySet<string> = new Set(["codegraph.json", ".codegraph/config.toml", ".gitignore"]);

export function isControlFile(rel: string): boolean {
  return CONTROL_FILES.has(rel);
}

/** Any .gitignore, at the root or below. */
export function isGitignore(rel: string): boolean {
  return rel === ".gitignore" || rel.endsWith("/.gitignore");
}
