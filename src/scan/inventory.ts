import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { relative, sep } from "node:path";
import { readRegularFile } from "../core/regular-file.js";
import type { IndexingConfig } from "../config/config.js";
import {
  ENTER,
  IGNORED,
  LINK,
  MANIFEST,
  OTHER_LINK,
  settled,
  SOURCE,
  SPECIAL,
  type FolderRecord,
  type FolderSnapshot,
} from "./folder-snapshot.js";
import { ScopeRules, type GitignoreLayer } from "./scope.js";
import { hasControlCharacters, printablePath } from "./control-names.js";

export { MANIFEST_NAMES } from "./scope.js";

/** A file in scope, as seen on disk. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export type SkipReason =
  | "too large"
  | "unreadable"
  | "symlink outside project"
  | "symlink loop"
  | "name not UTF-8"
  | "name has control characters"
  | "not a regular file"
  | "link to a folder, not followed";

/**
 * Why a link by a name no language claims is not followed, when it stands for something the walk
 * would otherwise enter: a folder (`ln -s .. up` too), or links that lead round to each other and so
 * to nothing. Null for a link to a file, or one that leads nowhere (left out, as any other file is).
 */
function unfollowedLink(abs: string): SkipReason | null {
  try {
    return statSync(abs).isDirectory() ? "link to a folder, not followed" : null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ELOOP" ? "symlink loop" : null;
  }
}

/**
 * Why an entry the listing named could not be opened. Node decodes names as UTF-8, so a name with
 * other bytes (Latin-1, from an old archive) comes back with U+FFFD in it and names no file: say that,
 * not "unreadable", which sends the user looking at permissions.
 */
function openFailure(err: unknown, rel: string): SkipReason {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return "symlink loop";
  return code === "ENOENT" && rel.includes("\uFFFD") ? "name not UTF-8" : "unreadable";
}

export interface Skipped {
  path: string;
  reason: SkipReason;
}

export interface Inventory {
  files: ScannedFile[];
  skipped: Skipped[];
  /** Project files that steer resolution (tsconfig.json, go.mod), found on the same walk. */
  manifests: string[];
  /** Folders the walk entered, the root ("") first. */
  folders: string[];
  /** Folders it did not enter because of .gitignore or the config's exclude (built-in ignores aside). */
  ignoredFolders: string[];
  /** What the walk learnt of each folder it entered, for the next walk to build on. */
  snapshot: FolderSnapshot;
  /** How many folders it read; the others it took from the snapshot it was given. */
  foldersRead: number;
}

/** What an earlier walk learnt, for this one to build on. */
export interface ScanOptions {
  /** Called with the number of files listed so far and the file just added, each time one is. */
  onFile?: (listed: number, file: ScannedFile) => void;
  /** The folders as an earlier walk under the same rules found them (see folder-snapshot.ts). */
  previous?: FolderSnapshot | undefined;
}

/**
 * Walks the project and lists the files to index: built-in ignores, nested .gitignore files, the
 * config's include/exclude globs and size limit, and only files some language claims.
 * Symlinked folders are not followed (no loops, nothing outside the project); a symlinked file is
 * indexed only when it resolves inside the project.
 * A folder in `previous` whose mtime (and .gitignore) has not moved since is not read again: its
 * recorded entries stand, and only its files are looked at. Below a .gitignore that changed, or a
 * folder not seen before, every folder is read.
 */
export function scanProject(
  root: string,
  config: IndexingConfig,
  claims: (path: string) => boolean,
  options: ScanOptions = {},
): Inventory {
  const { onFile = () => {} } = options;
  const files: ScannedFile[] = [];
  const skipped: Skipped[] = [];
  const manifests: string[] = [];
  const folders: string[] = [];
  const ignoredFolders: string[] = [];
  const snapshot: FolderSnapshot = new Map();
  let foldersRead = 0;
  const scope = new ScopeRules(config, claims);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }

  /** Reads folder `rel`: its entries that matter, and the .gitignore layers in force inside it. */
  const readFolder = (
    dir: string,
    rel: string,
    parentLayers: () => GitignoreLayer[],
  ): { record: FolderRecord; layers: GitignoreLayer[] } | SkipReason => {
    const readAtMs = Date.now();
    let mtimeMs: number;
    let entries: Dirent[];
    try {
      mtimeMs = statSync(dir).mtimeMs; // before the listing: a change during it moves the mtime again
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      return openFailure(err, rel);
    }
    let gitignore: FolderRecord["gitignore"] = null;
    const layers = scope.layersInside(rel, parentLayers(), () => {
      // A regular file only, as git reads it: not a link (which could lead out of the project), nor a
      // FIFO (whose read would wait for a writer).
      if (!entries.some((e) => e.name === ".gitignore" && e.isFile())) return null;
      const st = statSync(`${dir}/.gitignore`);
      gitignore = [st.size, st.mtimeMs];
      return readRegularFile(`${dir}/.gitignore`, { followLink: false });
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const recorded: [string, number][] = [];
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      let flags = 0;
      if (e.isDirectory()) {
        const skip = scope.skipsFolder(childRel, e.name, layers);
        flags = skip === "ignored" ? IGNORED : skip ? 0 : ENTER;
      } else if (e.isFile() || e.isSymbolicLink()) {
        if (e.isFile() && scope.isManifest(childRel, e.name, layers)) flags |= MANIFEST;
        if (scope.admitsFile(childRel, e.name, layers)) flags |= e.isSymbolicLink() ? LINK : SOURCE;
        // A link by any other name may stand for a folder the walk would have entered.
        else if (e.isSymbolicLink() && !scope.skipsFolder(childRel, e.name, layers)) flags |= OTHER_LINK;
      } else if (scope.admitsFile(childRel, e.name, layers)) {
        flags |= SPECIAL;
      }
      if (flags) recorded.push([e.name, flags]);
    }
    return { record: { mtimeMs, readAtMs, gitignore, entries: recorded }, layers };
  };

  const addFile = (abs: string, rel: string, symlink: boolean): void => {
    let st;
    try {
      if (symlink) {
        const target = realpathSync(abs);
        const inside = relative(realRoot, target);
        if (inside.startsWith("..") || inside.startsWith(sep) || inside === "") {
          skipped.push({ path: rel, reason: "symlink outside project" });
          return;
        }
        st = statSync(abs);
        if (!st.isFile()) {
          skipped.push({
            path: rel,
            reason: st.isDirectory() ? "link to a folder, not followed" : "not a regular file",
          });
          return;
        }
      } else {
        st = lstatSync(abs);
      }
    } catch (err) {
      skipped.push({ path: rel, reason: openFailure(err, rel) });
      return;
    }
    if (st.size > config.maxFileSize) {
      skipped.push({ path: rel, reason: "too large" });
      return;
    }
    const file = { path: rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
    onFile(files.push(file), file);
  };

  const walk = (
    dir: string,
    rel: string,
    parentLayers: () => GitignoreLayer[],
    previous: FolderSnapshot | undefined,
  ): void => {
    const before = previous?.get(rel);
    let record: FolderRecord;
    let layers: () => GitignoreLayer[];
    if (before && unchanged(dir, before)) {
      record = before;
      let inside: GitignoreLayer[] | undefined;
      // Only a folder read below this one needs them.
      layers = () =>
        (inside ??= scope.layersInside(rel, parentLayers(), () =>
          before.gitignore ? readRegularFile(`${dir}/.gitignore`, { followLink: false }) : null,
        ));
    } else {
      const read = readFolder(dir, rel, parentLayers);
      if (typeof read === "string") {
        if (rel) skipped.push({ path: rel, reason: read });
        return;
      }
      foldersRead++;
      record = read.record;
      layers = () => read.layers;
      // Rules that changed here change what every folder below holds.
      if (!before || !sameStat(before.gitignore, record.gitignore)) previous = undefined;
    }
    folders.push(rel);
    snapshot.set(rel, record);
    for (const [name, flags] of record.entries) {
      const childRel = rel ? `${rel}/${name}` : name;
      if (flags & (ENTER | SOURCE | LINK | SPECIAL | OTHER_LINK) && hasControlCharacters(name)) {
        skipped.push({ path: printablePath(childRel), reason: "name has control characters" });
        continue;
      }
      const abs = `${dir}/${name}`; // not path.join: this runs for every entry of the tree
      if (flags & IGNORED) ignoredFolders.push(childRel);
      if (flags & ENTER) walk(abs, childRel, layers, previous);
      if (flags & MANIFEST) manifests.push(childRel);
      if (flags & (SOURCE | LINK)) addFile(abs, childRel, (flags & LINK) !== 0);
      if (flags & SPECIAL) skipped.push({ path: childRel, reason: "not a regular file" });
      const unfollowed = flags & OTHER_LINK ? unfollowedLink(abs) : null;
      if (unfollowed) skipped.push({ path: childRel, reason: unfollowed });
    }
  };
  walk(root, "", () => [], options.previous);
  return { files, skipped, manifests, folders, ignoredFolders, snapshot, foldersRead };
}

/** Whether folder `dir` still holds the entries `before` recorded: its mtime and .gitignore stand. */
function unchanged(dir: string, before: FolderRecord): boolean {
  if (!settled(before.mtimeMs, before.readAtMs)) return false;
  try {
    if (statSync(dir).mtimeMs !== before.mtimeMs) return false;
    if (!before.gitignore) return true;
    const st = statSync(`${dir}/.gitignore`);
    return sameStat(before.gitignore, [st.size, st.mtimeMs]) && settled(st.mtimeMs, before.readAtMs);
  } catch {
    return false;
  }
}

function sameStat(a: readonly [number, number] | null, b: readonly [number, number] | null): boolean {
  return a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1]);
}
