import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "../config/config.js";
import { readEnv } from "../config/env.js";
import { indexDir, dbPath } from "../config/paths.js";
import type { FileRecord } from "../core/rows.js";
import type { RefInfo } from "../core/lookup.js";
import { TYPE_KINDS } from "../core/kinds.js";
import { languageForPath } from "../extract/language.js";
import {
  crateFolderBelow,
  importsNameDeclarations,
  moduleMayChange,
  seesThroughImports,
} from "../resolve/languages/index.js";
import { Resolver } from "../resolve/resolver.js";
import { linkGoInterfaces, parsedGoShape } from "./go-interfaces.js";
import { goFileShape, goMethodsChanged } from "../core/go-method-sets.js";
import {
  goInterfacesAskFor,
  restoreStructuralEdges,
  storedGoShape,
  structuralEdgesFrom,
  type StructuralEdge,
} from "../store/go-method-sets.js";
import type { ProjectContext } from "../resolve/rules.js";
import { parseSnapshot, snapshotText } from "../scan/folder-snapshot.js";
import { scanProject } from "../scan/inventory.js";
import { folderMtimeTracksEntries } from "../scan/mtime-probe.js";
import { countTotals } from "../store/counts.js";
import { damageDetail, isDamagedIndex, reportedDamage } from "../core/damaged-index.js";
import { isCodegraphError } from "../core/errors.js";
import {
  FOLDER_SNAPSHOT,
  getMeta,
  INDEXED_BY,
  openDatabase,
  setMeta,
  updateFileStats,
  type Db,
} from "../store/database.js";
import {
  allRefs,
  edgeTargets,
  fileShape,
  heritageKey,
  heritageSignature,
  heritageTargetsOfFile,
  filesOfIds,
  filesOfTypesBelow,
  importTargetsOfFile,
  includedNamesOfFiles,
  includersOf,
  maxIds,
  moduleRefs,
  namesOfFiles,
  nodeIdsByUid,
  packagesOfFiles,
  storedFacts,
  refIdsOfFile,
  refIdsUnder,
  refsByIds,
  refsInModulesNamed,
  refsOfLanguages,
  storedFiles,
  typesInHierarchy,
} from "../store/reader.js";
import {
  readSkippedFiles,
  rememberSkip,
  stillSkipped,
  writeSkippedFiles,
  type SkippedFile,
} from "../store/skipped-files.js";
import { refsAffectedByNames } from "../store/refs-affected.js";
import { SqliteLookup } from "../store/sqlite-lookup.js";
import { builtByOlder } from "./version.js";
import { Writer } from "../store/writer.js";
import { readProjectContext } from "./context.js";
import { fullIndex, removeAbandonedBuild } from "./full-index.js";
import { acquireWriterLock } from "./lock.js";
import { stillReaches } from "./still-reaches.js";
import { NameReaches, type ReachFile } from "./name-reach.js";
import { ChangedNames, type NamedRole } from "../core/changed-names.js";
import type { ParseJob, ParseOutcome } from "./messages.js";
import { parseAll } from "./pool.js";
import { sameBytes } from "./read-source.js";
import { realPathOrGiven } from "../core/paths.js";
import type { IndexSummary, ProgressFn } from "./progress.js";
import { phaseTimer } from "./timing.js";
import {
  EXTENSION_LANGUAGES,
  ancestorMemberNames,
  heritageChangeByNames,
  hierarchyByNames,
  namesThroughTypes,
} from "./hierarchy.js";
import { IdAllocator, changedNames, recordFacts, toRecord } from "./records.js";

export interface SyncOptions {
  /**
   * The configuration to index with instead of reading it from disk. A watcher passes the last valid
   * one while the user's config.toml does not parse, so a typo does not stop or widen the index.
   */
  config?: Config;
}

/**
 * Bring the index up to date with the disk. Every sync walks the whole tree under the current scope: a
 * file whose size and mtime match is fresh; otherwise its hash decides. Only added and modified files
 * are parsed, removed (or newly excluded) ones are dropped, and the references that could resolve
 * differently are resolved again, so the graph equals what `init --force` builds. An index it cannot
 * use (another schema, an older codegraph's, a damaged file) is built from scratch instead, and the
 * summary's `rebuilt` says why.
 */
export async function syncIndex(
  root: string,
  onProgress: ProgressFn = () => {},
  options: SyncOptions = {},
): Promise<IndexSummary> {
  try {
    return await syncOrRebuild(root, onProgress, options);
  } catch (e) {
    if (!isDamagedIndex(e)) throw e;
    // Damage a statement met on the way (SQLite reads a page when a statement first needs it): the
    // index is derived data, so it is built again, as one that will not open is, rather than fail
    // every sync (the daemon's included) until someone runs init --force.
    return rebuilt(root, onProgress, options.config, `the index was damaged (${damageDetail(e)})`);
  }
}

/** A full index standing in for a sync, with the reason. */
async function rebuilt(root: string, onProgress: ProgressFn, config: Config | undefined, why: string) {
  const summary = await fullIndex(root, onProgress, config);
  summary.rebuilt = why;
  return summary;
}

/** `syncIndex`, short of rebuilding an index found damaged after it opened. */
async function syncOrRebuild(root: string, onProgress: ProgressFn, options: SyncOptions): Promise<IndexSummary> {
  const started = performance.now();
  if (!existsSync(dbPath(root))) openDatabase(dbPath(root)); // throws NOT_INDEXED, saying what to run
  // The lock comes first: `init --force` replaces graph.db while holding it, and a database opened
  // before that would take our writes to the replaced file.
  const release = acquireWriterLock(indexDir(root));
  const reported = reportedDamage(dbPath(root));
  if (reported !== null) {
    release();
    return rebuilt(root, onProgress, options.config, `the index was damaged (${reported})`);
  }
  let db: Db;
  try {
    removeAbandonedBuild(root);
    db = openDatabase(dbPath(root));
  } catch (e) {
    release();
    if (!isCodegraphError(e) || e.code !== "SCHEMA_MISMATCH") throw e;
    // An index another codegraph version made is derived data: build it again rather than stop
    // every sync, the daemon's included, until someone runs init --force.
    return rebuilt(root, onProgress, options.config, e.message.replace(/ Run `codegraph init --force`.*$/, ""));
  }
  let built: string | null;
  let config: Config;
  let outcome: IndexSummary | Rebuild | null = null;
  try {
    built = getMeta(db, INDEXED_BY);
    config = options.config ?? loadConfig(root);
    if (!builtByOlder(built)) outcome = await syncOpen(db, root, config, onProgress);
  } finally {
    db.close();
    release();
  }
  if (outcome === null) {
    const by = built ? `codegraph ${built}` : "an earlier codegraph";
    return rebuilt(root, onProgress, config, `built by ${by}, which indexed differently`);
  }
  if ("reason" in outcome) {
    // Still a sync to whoever asked for one, with the changes it found; `rebuilt` says how it was done.
    const { reason, ...changes } = outcome;
    return { ...(await fullIndex(root, onProgress, config)), mode: "sync", rebuilt: reason, ...changes };
  }
  outcome.durationMs = Math.round(performance.now() - started);
  return outcome;
}

/** A sync that builds the index from scratch instead: why, and the changes the scan found. */
interface Rebuild {
  reason: string;
  added: number;
  /** Files whose bytes changed, or whose size did (not read). */
  modified: number;
  removed: number;
}

/** Below this many changed files, a sync is never turned into a full index. */
const REBUILD_MIN_FILES = 100;

/**
 * Why a sync should build the index from scratch instead, if it should: when at least half of the
 * indexed files were added, modified or removed (a branch switch, a large merge). Such a sync
 * resolves most references again one query at a time, while a full index resolves everything in
 * memory: on Django, every file modified took 4.5-5.6 s to sync against 2.2-2.8 s to index, and half
 * of them about as long either way.
 */
function rebuildReason(changed: number, indexed: number): string | null {
  if (changed < REBUILD_MIN_FILES || changed * 2 < indexed) return null;
  return `${changed} files changed, added or removed, of ${indexed} indexed: a full index is faster`;
}

async function syncOpen(db: Db, root: string, config: Config, onProgress: ProgressFn): Promise<IndexSummary | Rebuild> {
  const timer = phaseTimer();
  onProgress({ phase: "scanning", done: 0, total: 0 });
  const previous = parseSnapshot(getMeta(db, FOLDER_SNAPSHOT), config.indexing);
  const inventory = scanProject(root, config.indexing, (p) => languageForPath(p) !== null, { previous });
  const ctx = readProjectContext(root, inventory.manifests);
  const contextChanged = getMeta(db, "context") !== JSON.stringify(ctx);
  const stored = storedFiles(db);
  const onDisk = new Set(inventory.files.map((f) => f.path));
  // Files skipped for what they hold stay skipped until they change: not read again.
  const wasSkipped = readSkippedFiles(db);
  const skippedFiles = new Map<string, SkippedFile>();
  const jobs: ParseJob[] = [];
  /** Indexed files with a new stat and the same bytes: their stat is stored, nothing else. */
  const touched: { path: string; size: number; mtimeMs: number }[] = [];
  const realRoot = realPathOrGiven(root);
  for (const f of inventory.files) {
    const old = stored.get(f.path);
    if (!old && stillSkipped(wasSkipped, f)) skippedFiles.set(f.path, wasSkipped.get(f.path)!);
    else if (!old || old.size !== f.size || old.mtimeMs !== f.mtimeMs) {
      // Only a file of the size it had may hold the same bytes: hashed here, it is parsed only if not.
      const same = old?.size === f.size ? sameBytes(join(root, f.path), realRoot, old.sha256) : null;
      if (same) touched.push({ path: f.path, ...same });
      else jobs.push({ path: f.path, language: languageForPath(f.path)!, size: f.size });
    }
  }
  const removedIds = [...stored.values()].filter((s) => !onDisk.has(s.path)).map((s) => s.id);
  let removed = removedIds.length;
  const reason = rebuildReason(jobs.length + removed, stored.size);
  if (reason) {
    const added = jobs.filter((j) => !stored.has(j.path)).length;
    return { reason, added, modified: jobs.length - added, removed };
  }
  const outcomes: ParseOutcome[] = [];
  let done = 0;
  timer(`scan (${inventory.foldersRead} of ${inventory.folders.length} folders read)`);
  await parseAll(root, jobs, config.indexing.maxFileSize, readEnv().workers, (o) => {
    outcomes.push(o);
    onProgress({ phase: "parsing", done: ++done, total: jobs.length });
  });
  timer("parse");
  outcomes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const skipped: IndexSummary["skipped"] = [...inventory.skipped];
  const partial: IndexSummary["partial"] = [];
  const cutShort: string[] = [];
  const fresh: (ParseOutcome & { ok: true })[] = [];
  /** Modified files: path → the stored file they replace. */
  const replacing = new Map<string, number>();
  let added = 0;
  let modified = 0;
  for (const o of outcomes) {
    const old = stored.get(o.path);
    if (!o.ok) {
      skipped.push({ path: o.path, reason: o.reason });
      rememberSkip(skippedFiles, o);
      if (old) {
        removedIds.push(old.id); // it can no longer be indexed: drop what we had
        removed++;
      }
      continue;
    }
    if (o.result.syntaxErrors > 0) partial.push({ path: o.path, errors: o.result.syntaxErrors });
    if (o.result.cutShort) cutShort.push(o.path);
    if (old && old.sha256 === o.sha256) {
      touched.push(o); // the same bytes after all (written again since it was hashed above): not a change
      continue;
    }
    if (old) {
      replacing.set(o.path, old.id);
      modified++;
    } else added++;
    fresh.push(o);
  }

  let resolvedCount = 0;
  // Go's implicit interfaces come from every Go file's declarations (see go-interfaces.ts): derived
  // again when a Go file goes, or one comes or changes with other types, interfaces or embeddings, or
  // with methods an interface asks for (`goMethodsChanged`). Otherwise (a body, a comment) the edges
  // of the files' declarations are written again where they now are.
  const removedSet = new Set(removedIds);
  let goChanged =
    contextChanged ||
    (removedSet.size > 0 && [...stored.values()].some((f) => f.language === "go" && removedSet.has(f.id)));
  /** The derived edges of modified Go files whose shape stayed, to write again once they are stored. */
  const goKept: StructuralEdge[] = [];
  /** Methods of concrete types that came, went or changed in Go files otherwise alike. */
  const goMethods = new Set<string>();
  const goShapeChanged = (before: string, record: FileRecord) => {
    const names = goMethodsChanged(before, parsedGoShape(record));
    if (names === null) goChanged = true;
    else for (const n of names) goMethods.add(n);
  };
  const apply = db.transaction(() => {
    updateFileStats(db, touched);
    // Without a snapshot to build on, the file system is first asked whether one can be trusted.
    if (previous ? inventory.foldersRead > 0 : folderMtimeTracksEntries(indexDir(root)))
      setMeta(db, FOLDER_SNAPSHOT, snapshotText(inventory.snapshot, config.indexing));
    if (!fresh.length && !removedIds.length && !contextChanged) return;

    const writer = new Writer(db);
    /** Names of files written or removed, with the part each plays there: reached once they are written. */
    const declared: { file: ReachFile; named: NamedRole[] }[] = [];
    const removedFiles = filesOfIds(db, removedIds);
    const removedNames = namesOfFiles(db, removedIds);
    for (const f of removedFiles) declared.push({ file: f, named: removedNames.get(f.id) ?? [] });
    /** Names of members a file's types reach (see `ancestorMemberNames`). */
    const members = (file: ReachFile, names: Iterable<string>) =>
      declared.push({ file, named: [...names].map((name) => ({ name, role: "member" as const })) });
    // A Ruby module's calls of methods it lacks resolve through the classes that include it (see
    // resolve/ruby.ts), so a file that comes or goes with an `include` changes what they reach.
    const included = includedNamesOfFiles(db, removedIds);
    const reshaped = reshapedFiles(db, fresh, replacing);
    const moduleShapeChanged =
      added > 0 || removedIds.length > 0 || reshaped.comeOrGo.length > 0 || reshaped.renamed.length > 0;
    // Old targets of the module references files coming or going may change, to notice a file whose
    // imports now point elsewhere.
    const moduleBefore = new Map<number, string>();
    /** What the includes of C and C++ files reached before, by file: their includers see through them. */
    const includesBefore = new Map<number, string>();
    /** The module references files coming or going may make resolve differently. */
    const moduleReached: number[] = [];
    if (moduleShapeChanged) {
      const comeOrGo = [
        ...packagesOfFiles(db, removedIds),
        ...fresh
          .filter((o) => !replacing.has(o.path))
          .map((o) => ({ path: o.path, packageName: o.result.packageName })),
        ...reshaped.comeOrGo,
      ];
      for (const ref of moduleRefs(db)) {
        const byNames = importsNameDeclarations(ref.language);
        // A file declaring other names changes only imports that reach files by the names they declare.
        if (!moduleMayChange(ref, comeOrGo, ctx) && !(byNames && moduleMayChange(ref, reshaped.renamed, ctx))) continue;
        moduleReached.push(ref.id);
        // Where imports name declarations, a file sees through them the names those files declare at
        // their top level, and the names of files coming, going or reshaped are re-resolved by name:
        // no need to resolve the whole file again. A class added to java.util made the JDK's 793 files
        // importing java.util.* resolve again, 24 s.
        if (!byNames) moduleBefore.set(ref.id, edgeTargets(db, ref.id));
        if (seesThroughImports(ref.language) && !includesBefore.has(ref.fileId))
          includesBefore.set(ref.fileId, importTargetsOfFile(db, ref.fileId));
      }
    }
    const toResolve = new Set<number>();
    /** Folders whose files may belong to another crate now, by language (a Rust `mod.rs` came or went). */
    const recrated: { dir: string; language: string }[] = [];
    const crateMayChange = (f: { path: string; language: string }) => {
      const dir = crateFolderBelow(f.language, f.path);
      if (dir !== null) recrated.push({ dir, language: f.language });
    };
    for (const o of fresh) if (!replacing.has(o.path)) crateMayChange(o);
    /** Whether a type of a language with extensions came or went inside a hierarchy. */
    let extendedHierarchy = false;
    const extensionsMayMove = (f: { id: number; language: string }) =>
      EXTENSION_LANGUAGES.includes(f.language) && typesInHierarchy(db, f.id);
    // A type that goes takes from its subclasses what it inherited too: the names its ancestors
    // declare, read while it is still there (Django's fields/__init__.py took RegisterLookupMixin's
    // get_transform from ArrayField, whose override of it kept its edge).
    for (const f of removedFiles) {
      crateMayChange(f);
      members(f, ancestorMemberNames(db, ctx, f.id));
      if (extensionsMayMove(f)) extendedHierarchy = true;
    }
    /** References that lost a target this sync: its declaration went. */
    const lostTargets = new Set<number>();
    /** What the `extends` and `implements` of modified files reached before, by `heritageKey`. */
    const heritageBefore = new Map<string, string>();
    for (const id of removedIds)
      for (const refId of writer.deleteFile(id)) {
        toResolve.add(refId);
        lostTargets.add(refId);
      }

    const max = maxIds(db);
    const ids = new IdAllocator(max.file + 1, max.node + 1, max.ref + 1);
    let hierarchyChanged = false;
    const newHierarchies: ReachFile[] = [];
    const comingTypes: ReachFile[] = [];
    /** Files this sync writes: what they declare may read otherwise even where its id stays. */
    const written = new Set<number>();
    const insert = (record: FileRecord) => {
      written.add(record.file.id);
      writer.insertFile(record);
      for (const ref of record.refs) toResolve.add(ref.id);
    };
    for (const o of fresh) {
      const oldId = replacing.get(o.path);
      if (oldId === undefined) {
        const record = toRecord(o, o.result, ids);
        if (o.language === "go" && !goChanged) goShapeChanged(goFileShape(record.file.packageName, [], [], []), record);
        declared.push({ file: record.file, named: recordFacts(record).names.flat() });
        if (record.file.language === "ruby")
          for (const r of record.refs) if (r.kind === "implements" && r.argCount !== 1) included.add(r.name);
        insert(record);
        // And a type that comes brings its ancestors' names to its new subclasses (below).
        if (record.nodes.some((n) => TYPE_KINDS.has(n.kind))) comingTypes.push(record.file);
        continue;
      }
      // A modified file keeps the ids of surviving declarations; only what changed is news elsewhere.
      if (seesThroughImports(o.language)) includesBefore.set(oldId, importTargetsOfFile(db, oldId));
      const before = storedFacts(db, oldId);
      // What its `extends` reach may change without their text (an import of the base went).
      for (const [key, targets] of heritageTargetsOfFile(db, oldId)) heritageBefore.set(key, targets);
      const signatureBefore = heritageSignature(db, oldId);
      const byNames = heritageChangeByNames(o.language);
      const ancestorsBefore = byNames && signatureBefore ? ancestorMemberNames(db, ctx, oldId) : null;
      const record = toRecord(o, o.result, ids, { fileId: oldId, nodeIds: nodeIdsByUid(db, oldId) });
      const kept = new Set(record.nodes.map((n) => n.id).filter((id) => id <= max.node));
      if (o.language === "go" && !goChanged) {
        goShapeChanged(storedGoShape(db, oldId), record);
        goKept.push(...structuralEdgesFrom(db, oldId));
      }
      for (const refId of writer.deleteFile(oldId, kept)) {
        toResolve.add(refId);
        lostTargets.add(refId);
      }
      const after = recordFacts(record);
      declared.push({ file: record.file, named: changedNames(before, after) });
      // Its declarations are now seen from another package: as if the file went and came back.
      if (reshaped.moved.has(o.path))
        declared.push({ file: record.file, named: [...before.names, ...after.names].flat() });
      insert(record);
      if (heritageSignature(db, oldId) === signatureBefore) continue;
      // A class hierarchy changed: what references find through its old and new ancestors may differ.
      if (!byNames) {
        hierarchyChanged = true;
        continue;
      }
      members(record.file, ancestorsBefore ?? []);
      newHierarchies.push(record.file);
    }
    for (const f of newHierarchies) members(f, ancestorMemberNames(db, ctx, f.id));
    for (const f of comingTypes) {
      members(f, ancestorMemberNames(db, ctx, f.id));
      if (extensionsMayMove(f)) extendedHierarchy = true;
    }

    const lookup = new SqliteLookup(db);
    const resolver = new Resolver(lookup, ctx);
    let refs: RefInfo[];
    if (contextChanged || hierarchyChanged) {
      // Resolution rules or a class hierarchy changed: anything may resolve differently.
      refs = allRefs(db);
    } else {
      // Extensions apply by the names of a receiver's ancestors, which any hierarchy change may alter.
      if (newHierarchies.length || extendedHierarchy)
        for (const id of refsOfLanguages(db, EXTENSION_LANGUAGES)) toResolve.add(id);
      const reaches = new NameReaches(db);
      const names = new ChangedNames();
      for (const { file, named } of declared)
        for (const n of named) names.add(n.name, reaches.of(file, n.role, n.name));
      const affected = refsAffectedByNames(db, names, {
        stillReaches: stillReaches(db, resolver, lookup, { lost: lostTargets, written, maxRef: max.ref }),
        reachOf: (fileId, role, name) => reaches.ofFileId(fileId, role, name),
      });
      for (const id of affected) toResolve.add(id);
      for (const id of refsInModulesNamed(db, included)) toResolve.add(id);
      for (const id of moduleReached) toResolve.add(id);
      for (const { dir, language } of recrated) for (const id of refIdsUnder(db, dir, language)) toResolve.add(id);
      refs = refsByIds(
        db,
        [...toResolve].sort((a, b) => a - b),
      );
    }
    const resolveAll = (list: RefInfo[]) => {
      writer.clearRefEdges(list.map((r) => r.id));
      for (const ref of list) {
        const edges = resolver.resolve(ref);
        writer.insertResolved(ref, edges);
        if (edges.length) resolvedCount++;
      }
      // Resolution reads no edges: they are written together, before anything reads them.
      writer.flush();
    };
    // The bases of types declared before this sync, as they were.
    // A modified file's references are new, but its types kept their ids: its own were read before it went.
    const basesBefore = new Map(
      refs
        .filter((r) => r.kind === "extends" || r.kind === "implements")
        .flatMap((r) => {
          if (r.id <= max.ref) return [[r, lostTargets.has(r.id) ? null : edgeTargets(db, r.id)] as const];
          const before = heritageBefore.get(heritageKey(r));
          return before === undefined ? [] : [[r, before] as const];
        }),
    );
    onProgress({ phase: "resolving", done: 0, total: refs.length });
    resolveAll(refs);
    const seen = new Set(refs.map((r) => r.id));
    const cascade = new Set<number>();
    const fileOfRef = new Map(refs.map((r) => [r.id, r.fileId]));
    const rebased = rebasedTypes(db, basesBefore);
    for (const fileId of filesSeeingOtherwise(db, { moduleBefore, fileOfRef, includesBefore }, rebased))
      for (const id of refIdsOfFile(db, fileId)) if (!seen.has(id)) cascade.add(id);
    // And a call on a value of a rebased type, or of a type below it, anywhere: `m.hello()` of an
    // unchanged file, `m` a Mid, when a barrel now re-exports another `Base` for Mid to extend.
    const reached = namesThroughRebased(db, ctx, rebased);
    const more =
      reached === "all" ? allRefs(db).map((r) => r.id) : refsAffectedByNames(db, ChangedNames.anywhere(reached));
    for (const id of more) if (!seen.has(id)) cascade.add(id);
    if (cascade.size) resolveAll(refsByIds(db, cascade));
    // Methods no interface asks for change nothing; the edges of the files' declarations are written
    // again where they now are (false when one of their ends went).
    if (
      goChanged ||
      (goMethods.size > 0 && goInterfacesAskFor(db, [...goMethods])) ||
      !restoreStructuralEdges(db, goKept)
    )
      linkGoInterfaces(db);
    setMeta(db, "context", JSON.stringify(ctx));
    writeSkippedFiles(db, skippedFiles);
  });
  apply.immediate();
  timer(`apply (${resolvedCount} references resolved)`);
  setMeta(db, "synced_at", new Date().toISOString());
  const counts = countTotals(db);
  timer("count");
  return {
    mode: "sync",
    root,
    files: counts.files,
    nodes: counts.nodes,
    edges: counts.edges,
    languages: counts.languages,
    added,
    modified,
    removed,
    skipped,
    partial,
    cutShort,
    refsResolved: resolvedCount,
    durationMs: 0,
  };
}

/**
 * Files whose every reference may resolve differently once this sync's references are resolved again,
 * from what was read before: their names are looked up through what changed.
 */
function filesSeeingOtherwise(
  db: Db,
  before: {
    /** Module references' targets, by reference. */
    moduleBefore: ReadonlyMap<number, string>;
    fileOfRef: ReadonlyMap<number, number>;
    /** C and C++ files' include targets, by file. */
    includesBefore: ReadonlyMap<number, string>;
  },
  rebased: readonly Rebased[],
): Set<number> {
  const files = new Set<number>();
  // A file whose imports now reach other modules may see every name differently.
  for (const [refId, targets] of before.moduleBefore) {
    if (edgeTargets(db, refId) === targets) continue;
    const fileId = before.fileOfRef.get(refId);
    if (fileId !== undefined) files.add(fileId);
  }
  // A C or C++ file whose includes reach other files changes what its includers see, at any depth:
  // removing os.h left xorg-server's log.c calling a macro of Xprintf.h, which os.h included.
  for (const [fileId, targets] of before.includesBefore)
    if (importTargetsOfFile(db, fileId) !== targets) for (const f of includersOf(db, fileId)) files.add(f);
  // A type whose bases changed, known or not, changes where names inside it and its subclasses are
  // looked up (a base from outside the project may declare any name): deleting jdk-util's
  // BaseStream.java left SortedOps' nested classes reached by their bare names, as if Stream's
  // bases were all known.
  for (const { type } of rebased) for (const f of filesOfTypesBelow(db, type)) files.add(f);
  return files;
}

/** A type whose `extends` or `implements` reference now reaches other types, and those it reached. */
interface Rebased {
  type: number;
  fileId: number;
  /** The bases before, by node id (none when its target went). */
  before: number[];
}

/** The types of `basesBefore` (`extends` and `implements` references' targets before; null for a target that went) whose bases changed. */
function rebasedTypes(db: Db, basesBefore: ReadonlyMap<RefInfo, string | null>): Rebased[] {
  const rebased: Rebased[] = [];
  for (const [ref, targets] of basesBefore) {
    if (targets !== null && edgeTargets(db, ref.id) === targets) continue;
    rebased.push({ type: ref.fromId, fileId: ref.fileId, before: targets ? targets.split(",").map(Number) : [] });
  }
  return rebased;
}

/**
 * Names a reference may now find elsewhere through the rebased types: what their ancestors declare
 * now, and what their bases before (still there) and those bases' ancestors declare. Where members
 * live apart from their types (see `hierarchyByNames`), any reference may: "all".
 */
function namesThroughRebased(db: Db, ctx: ProjectContext, rebased: readonly Rebased[]): Set<string> | "all" {
  const names = new Set<string>();
  if (!rebased.length) return names;
  for (const { language } of filesOfIds(db, [...new Set(rebased.map((r) => r.fileId))]))
    if (!hierarchyByNames(language)) return "all";
  const through = (ids: number[], withOwn: boolean) => {
    for (const n of namesThroughTypes(db, ctx, ids, withOwn)) names.add(n);
  };
  through(
    rebased.map((r) => r.type),
    false,
  );
  through(
    rebased.flatMap((r) => r.before),
    true,
  );
  return names;
}

/**
 * Modified files that leave one package for another (`moved`): for module references they go from
 * where they were and come where they are (`comeOrGo`), as a file removed and another added. And,
 * where imports name declarations (Java's `import a.b.C`, Go's uses of a package), files that declare
 * other names at their top level (`renamed`): they change only what such imports reach.
 */
function reshapedFiles(
  db: Db,
  fresh: readonly (ParseOutcome & { ok: true })[],
  replacing: ReadonlyMap<string, number>,
): { comeOrGo: FilePlace[]; renamed: FilePlace[]; moved: Set<string> } {
  const comeOrGo: FilePlace[] = [];
  const renamed: FilePlace[] = [];
  const moved = new Set<string>();
  for (const o of fresh) {
    const oldId = replacing.get(o.path);
    if (oldId === undefined) continue;
    const before = fileShape(db, oldId);
    const now = o.result.packageName;
    if (before.packageName !== now) {
      moved.add(o.path);
      comeOrGo.push({ path: o.path, packageName: before.packageName }, { path: o.path, packageName: now });
    } else if (importsNameDeclarations(o.language) && !sameNames(before.topLevel, topLevelNames(o.result.symbols)))
      renamed.push({ path: o.path, packageName: now });
  }
  return { comeOrGo, renamed, moved };
}

/** Where a file is, as module references see it. */
type FilePlace = { path: string; packageName: string | null };

/** The names a file declares at its top level, as `fileShape` reads them back. */
function topLevelNames(symbols: readonly { parent: number; kind: string; name: string }[]): string[] {
  return symbols.filter((s) => s.parent === -1 && s.kind !== "import").map((s) => s.name);
}

/** The same names, in any order. */
function sameNames(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = [...b].sort();
  return [...a].sort().every((n, i) => n === sorted[i]);
}
