import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import { FUNCTIONS_AND_METHODS, type LanguageRules } from "../rules.js";

/** Leading folders two paths share. */
function sharedFolders(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length - 1 && n < y.length - 1 && x[n] === y[n]) n++;
  return n;
}

/**
 * Whether `path` may be the file a load path gives for `spec` (`a/b.rb`). Below a gem's `lib/` the load
 * path is that `lib/`: `lib/a/b.rb` is `require "a/b"`, and `lib/x/a/b.rb` is not, so rails'
 * `require "date"` (the standard library) is not `active_support/core_ext/date.rb`, nor `require
 * "nokogiri"` the file `xml_mini/nokogiri.rb` that says it. Files under no `lib/` (tests, scripts) keep
 * the suffix match: their load path is not known.
 */
function loadable(path: string, spec: string): boolean {
  const prefix = path.slice(0, path.length - spec.length);
  return prefix === "" || prefix === "lib/" || prefix.endsWith("/lib/") || !/(^|\/)lib\//.test(prefix);
}

/**
 * `require "foo/bar"` names a file on the load path: any project file ending in `foo/bar.rb`. Of
 * several, one right under a `lib/` folder (a gem's load path), then the one sharing the most leading
 * folders with the requiring file; none on a tie. `require_relative` (written `./x` by the
 * extractor) and `require "./x"` are relative to the requiring file.
 */
export function requireTarget(spec: string, from: FileInfo, lookup: Lookup): FileInfo[] {
  const withExt = /\.rb$/.test(spec) ? spec : `${spec}.rb`;
  if (spec.startsWith(".")) {
    const rel = joinRel(dirOf(from.path), withExt);
    const hit = rel === null ? undefined : lookup.fileByPath(rel);
    return hit ? [hit] : [];
  }
  const exact = lookup.fileByPath(withExt);
  if (exact) return [exact];
  let matches = lookup.filesByPathSuffix(withExt).filter((f) => f.language === "ruby" && loadable(f.path, withExt));
  if (matches.length <= 1) return matches;
  const onLoadPath = matches.filter((f) => f.path === `lib/${withExt}` || f.path.endsWith(`/lib/${withExt}`));
  if (onLoadPath.length) matches = onLoadPath;
  if (matches.length === 1) return matches;
  const scored = matches.map((f) => ({ f, n: sharedFolders(f.path, from.path) })).sort((a, b) => b.n - a.n);
  return scored[0]!.n > scored[1]!.n ? [scored[0]!.f] : [];
}

/**
 * Ruby. Names resolve through `resolve/ruby.ts` (constants are global, looked up by lexical nesting;
 * classes reopen across files; methods are found through mixins), so most of these flags are moot.
 */
export const rubyRules: LanguageRules = {
  alternatives: FUNCTIONS_AND_METHODS,
  resolveModule: requireTarget,
  selfNames: new Set(["self"]),
  implicitThis: true,
  packageOf: () => null,
  exportsOnly: false,
  importsReexport: false,
  reexports: false,
  membersAcrossPackage: false,
  rubyConstants: true,
};
