import { codegraphVersion } from "../core/version.js";

/**
 * Whether an index built by codegraph `built` (null: by one from before versions were recorded) is
 * older than this one. Releases index differently (new languages, patterns, fixes), and files a sync
 * does not touch would keep the older extraction, so an older index is rebuilt. A newer one is left
 * alone: two versions in use on one project (an editor's and a shell's) would otherwise rebuild it in
 * turn, on every sync.
 */
export function builtByOlder(built: string | null, current = codegraphVersion()): boolean {
  if (built === null) return true;
  const a = parts(built);
  const b = parts(current);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** Major, minor and patch as numbers; a pre-release suffix is ignored. */
function parts(v: string): number[] {
  const [core] = v.split(/[-+]/);
  return (core ?? "")
    .split(".")
    .map((n) => Number.parseInt(n, 10) || 0)
    .concat([0, 0, 0])
    .slice(0, 3);
}
