import { basename } from "node:path";
import { rootOfIndex } from "../config/paths.js";
import { getMeta, type Db } from "../store/database.js";
import { filePackage } from "../store/file-lookup.js";
import type { SymbolRow } from "../store/symbol-row.js";
import { C_FAMILY_PATH, HEADER_PATH } from "../core/c-family-paths.js";
import { groupBy } from "../core/group-by.js";
import { CALLABLE_KINDS, TYPE_KINDS, type NodeKind } from "../core/kinds.js";
import {
  basesOf,
  declarationsByName,
  declarationsByQualifiedName,
  declarationsHeldBy,
  otherDeclarationsNamed,
  staticIds,
  symbolRowById,
  symbolRowsById,
  symbolRowsByUid,
  type DeclarationPlace,
} from "../store/symbol-reader.js";
import { dottedSpelling, moduleFit } from "./symbol-spelling.js";

/** A node with where it lives: the shape every query returns for a symbol (the stored row, `exported` as a boolean). */
export type SymbolHit = Omit<SymbolRow, "exported"> & { exported: boolean };

type Row = SymbolRow;
export const toHit = (r: Row): SymbolHit => ({ ...r, exported: r.exported === 1 });

export function symbolById(db: Db, id: number): SymbolHit | undefined {
  const row = symbolRowById(db, id);
  return row ? toHit(row) : undefined;
}

/** The nodes with these ids, by id; an id with no node (removed by a sync meanwhile) is left out. */
export function symbolsById(db: Db, ids: readonly number[]): Map<number, SymbolHit> {
  const hits = new Map<number, SymbolHit>();
  for (const [id, row] of symbolRowsById(db, ids)) hits.set(id, toHit(row));
  return hits;
}

/**
 * Characters past which a symbol argument names nothing: the longest qualified names of the medium
 * tier's projects are 85-112 characters. Looking a longer one up (a paste, a runaway argument) only
 * costs: 120,000 characters kept `callers` busy 18 s before it failed.
 */
export const MAX_SYMBOL_CHARS = 1000;

/**
 * The declarations a user means by `text`: a stable id, an exact qualified name (`Class.method`), or a
 * name; optionally narrowed to files whose path ends with `file`. Imports are never a definition.
 * A name as its language writes it (`Persistence#save`, `geo::Shape::count`) is read as dotted
 * when it names nothing as written.
 */
export function findSymbols(db: Db, text: string, file?: string): SymbolHit[] {
  if (text.length > MAX_SYMBOL_CHARS) return [];
  // `lib/router/layer.js:Layer.match`, pytest's `tests/test_x.py::test_y`: a symbol in a file.
  const inFile = file === undefined ? IN_FILE.exec(text.trim()) : null;
  if (inFile) {
    const narrowed = findSymbols(db, inFile[2]!, inFile[1]!);
    if (narrowed.length) return narrowed;
  }
  let rows: Row[] = symbolRowsByUid(db, text);
  if (!rows.length) rows = byQualifiedName(db, text);
  const dotted = dottedSpelling(text);
  if (!rows.length && dotted && dotted !== text) rows = byQualifiedName(db, dotted);
  if (!rows.length) rows = inheritedMember(db, dotted || text);
  if (file) rows = narrowToFile(db, text, rows, file);
  return rows.map(toHit);
}

/** Whether `path` is the file a `file` filter names: the path itself or a suffix of it at a `/`. */
export const inFilterFile = (path: string, file: string) => path === file || path.endsWith(`/${file}`);

/**
 * The declarations of `rows` in the file `file` names. A bare name means its top-level declarations
 * first, but where all of them lie elsewhere the file's members of that name are meant: `make_response`
 * in flask/app.py is `Flask.make_response`, though flask/helpers.py has a function of that name.
 */
function narrowToFile(db: Db, text: string, rows: Row[], file: string): Row[] {
  const f = file.replace(/^\.\//, "");
  const narrowed = rows.filter((r) => inFilterFile(r.file, f));
  if (narrowed.length || !BARE_NAME.test(text)) return narrowed;
  return declarationsByName(db, text).filter((r) => inFilterFile(r.file, f));
}

const BARE_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** A file path with an extension, then `:` or `::`, then a name (not a line number: that is `node`'s). */
const IN_FILE = /^([^\s:]+\.[A-Za-z0-9]+)::?([A-Za-z_$][^\s]*)$/;

/**
 * Declarations whose qualified name is `text`, ends with it (`Persistence.save` for
 * ActiveRecord.Persistence.save), or follows a module path naming their file (`http.ListenAndServe`,
 * `django.db.models.query.QuerySet.filter`, `tokio.runtime.Builder.build`: code elsewhere, docs and
 * stack traces write them so), those whose file the path names best.
 */
function byQualifiedName(db: Db, text: string): Row[] {
  const exact = declarationsByQualifiedName(db, text);
  if (exact.length) return exact;
  const dot = text.lastIndexOf(".");
  const named = declarationsByName(db, text.slice(dot + 1));
  if (dot < 0) return named;
  const ending = named.filter((r) => r.qualifiedName.endsWith(`.${text}`));
  if (ending.length) return ending;
  let best = Infinity;
  let rows: Row[] = [];
  const rootNames = rootNamesOf(db);
  for (const r of named) {
    if (!text.endsWith(`.${r.qualifiedName}`)) continue;
    const module = text.slice(0, text.length - r.qualifiedName.length - 1);
    const fit = moduleFit(module, r.file, () => filePackage(db, r.file), rootNames(r.file));
    if (fit < best) [best, rows] = [fit, [r]];
    else if (fit === best && fit < Infinity) rows.push(r);
  }
  const holder = text.slice(0, dot);
  return rows.length || !/^[A-Za-z_$][\w$]*$/.test(holder) ? rows : declarationsHeldBy(db, holder, text.slice(dot + 1));
}

/** Kinds whose members `Holder.member` may reach through the holder's ancestors (Ruby's modules are mixins). */
const HOLDER_KINDS: ReadonlySet<NodeKind> = new Set([...TYPE_KINDS, "module"]);

/** How deep into a hierarchy an inherited member is looked for (cycles are cut anyway). */
const MAX_GENERATIONS = 16;

/**
 * `HttpResponse.set_cookie` when HttpResponseBase declares it, `ActiveRecord::Base.establish_connection`
 * from the ConnectionHandling it extends: the member a call on the holder reaches, looked for as the
 * resolver does (bases in the order the declaration names them, each one's own bases before the next:
 * ArrayList's containsAll is AbstractCollection's, through AbstractList, before List's).
 * A type's declarations under one qualified name (a reopened Ruby class, a partial class) are one type.
 */
function inheritedMember(db: Db, text: string): Row[] {
  const dot = text.lastIndexOf(".");
  if (dot <= 0 || dot === text.length - 1) return [];
  const member = text.slice(dot + 1);
  const holders = byQualifiedName(db, text.slice(0, dot)).filter(isHolder);
  const seen = new Set(holders.map((r) => r.qualifiedName));
  const below = (types: Row[], generation: number): Row[] => {
    if (generation > MAX_GENERATIONS) return [];
    const ids = types.map((t) => t.id);
    for (const base of basesOf(db, ids)) {
      if (seen.has(base.qualifiedName)) continue;
      seen.add(base.qualifiedName);
      const own = declarationsByQualifiedName(db, `${base.qualifiedName}.${member}`);
      if (own.length) return own;
      const found = below(declarationsByQualifiedName(db, base.qualifiedName).filter(isHolder), generation + 1);
      if (found.length) return found;
    }
    return [];
  };
  return holders.length ? below(holders, 1) : [];
}

const isHolder = (r: Row) => HOLDER_KINDS.has(r.kind as NodeKind);

/**
 * The names code outside a file's package may write at the head of a path to it: the project's folder
 * name, and the name of the Cargo crate that holds the file (`tokio::spawn`, `tokio_util::codec::Framed`).
 */
function rootNamesOf(db: Db): (file: string) => string[] {
  const root = rootOfIndex(db.name);
  const folder = root ? [basename(root)] : [];
  const crates = storedCrates(db);
  return (file) => [...folder, ...crates.filter((c) => !c.dir || file.startsWith(`${c.dir}/`)).map((c) => c.name)];
}

/** The Cargo crates the last index or sync found (its stored project context), or none. */
function storedCrates(db: Db): { dir: string; name: string }[] {
  try {
    const ctx = JSON.parse(getMeta(db, "context") ?? "{}") as { cargoCrates?: { dir: string; name: string }[] };
    return Array.isArray(ctx.cargoCrates) ? ctx.cargoCrates : [];
  } catch {
    return [];
  }
}

/** Definitions for a query, and whether a `file` filter matched none of them (then all are returned). */
export interface Definitions {
  defs: SymbolHit[];
  /** The filter that matched nothing, so the answer can say it fell back to every definition. */
  unmatchedFile: string | null;
  /** Other declarations of the name the answer leaves out (see `alsoNamed`). */
  alsoNamed: AlsoNamed | null;
}

/**
 * A bare name matches top-level declarations exactly (`Serve`, a Go function) before any member of the
 * name (`Server.Serve`), which the answer then leaves out: how many there are and the first few, so
 * the answer can name them rather than let them look absent.
 */
export interface AlsoNamed {
  count: number;
  first: DeclarationPlace[];
  /** `count` stopped counting there: there are at least that many. */
  atLeast: boolean;
}

const ALSO_NAMED_SHOWN = 5;
const ALSO_NAMED_COUNTED = 1000;

function alsoNamed(db: Db, text: string, defs: readonly SymbolHit[]): AlsoNamed | null {
  if (!defs.length || !defs.every((d) => d.qualifiedName === text && d.name === text)) return null;
  const { count, first } = otherDeclarationsNamed(db, text, ALSO_NAMED_COUNTED, ALSO_NAMED_SHOWN);
  return count ? { count, first, atLeast: count >= ALSO_NAMED_COUNTED } : null;
}

/**
 * Like findSymbols, but a `file` filter that matches no definition falls back to all of them and
 * says so: an empty answer there would wrongly read as "nobody calls it".
 */
export function findDefinitions(db: Db, text: string, file?: string): Definitions {
  if (!file) {
    const defs = findSymbols(db, text);
    return { defs, unmatchedFile: null, alsoNamed: alsoNamed(db, text, defs) };
  }
  const narrowed = findSymbols(db, text, file);
  if (narrowed.length) return { defs: narrowed, unmatchedFile: null, alsoNamed: null };
  const all = findSymbols(db, text);
  return { defs: all, unmatchedFile: all.length ? file : null, alsoNamed: alsoNamed(db, text, all) };
}

/**
 * Definitions grouped by (file, qualified name): overloads of one definition stay together, while
 * two files that each define `handle` stay apart. Within a name, a class's own method and an
 * instance's (Ruby's `def self.full_message` and `def full_message`, a static and an instance
 * method) are apart, and so are a property and a method (Java's field `values` and `values()`,
 * PHP's `$format` and `format()`). A C or C++ function's prototypes join its definition.
 */
export function groupDefinitions(db: Db, defs: readonly SymbolHit[]): SymbolHit[][] {
  const groups = [...groupBy(defs, (d) => `${d.file}\0${d.qualifiedName}`).values()];
  const shared = groups.filter((g) => g.length > 1);
  if (!shared.length) return withPrototypes(groups);
  const statics = staticIds(
    db,
    shared.flat().map((d) => d.id),
  );
  const split = groups.flatMap((g) => {
    if (g.length === 1) return [g];
    const withMethod = g.some((d) => d.kind === "method");
    const sides = groupBy(
      g,
      (d) => `${withMethod && d.kind === "property" ? "property" : ""}${statics.has(d.id) ? " static" : ""}`,
    );
    // A group is headed by its function or type before a variable of the same name: Express's
    // response.js has `var send = require("send")` above `res.send = function send ..`.
    return [...sides.values()].map((side) =>
      side.length > 1 ? side.sort((a, b) => valueRank(a) - valueRank(b)) : side,
    );
  });
  return withPrototypes(split);
}

/**
 * A C or C++ function declared in headers (a prototype, or its class's declaration of a method) and
 * defined in one source file is one function, and calls reach all of them (resolve/linkage.ts): its
 * header groups join the definition's, which heads them. With no definition, or several (a repository
 * of several programs, each with its own `main`), each group stays its own.
 */
const CALLABLES: ReadonlySet<string> = CALLABLE_KINDS;

function withPrototypes(groups: SymbolHit[][]): SymbolHit[][] {
  const linked = (g: SymbolHit[]) => CALLABLES.has(g[0]!.kind) && C_FAMILY_PATH.test(g[0]!.file);
  if (!groups.some(linked)) return groups;
  const byName = groupBy(groups.filter(linked), (g) => g[0]!.qualifiedName);
  const merged = new Map<SymbolHit[], SymbolHit[] | null>();
  for (const same of byName.values()) {
    const sources = same.filter((g) => !HEADER_PATH.test(g[0]!.file));
    if (same.length < 2 || sources.length !== 1) continue;
    for (const g of same) merged.set(g, null);
    merged.set(sources[0]!, [...sources[0]!, ...same.filter((g) => g !== sources[0]).flat()]);
  }
  return groups.flatMap((g) => {
    const m = merged.get(g);
    return m === undefined ? [g] : m ? [m] : [];
  });
}

const valueRank = (d: SymbolHit) => (d.kind === "variable" || d.kind === "constant" || d.kind === "property" ? 1 : 0);

/** Definitions answered in full when more share a name; the next ones are listed with a count, the rest counted. */
export const DEFINITIONS_SHOWN = 10;
export const DEFINITIONS_LISTED = 40;

/**
 * Keep an answer about a common name readable: `toString` has 2,098 definitions in the JDK, whose
 * callers made a 420 KB answer (an impact, 1 MB). Up to DEFINITIONS_SHOWN definitions keep their
 * order; past that, the heaviest (most callers, most dependents) are shown, the next
 * DEFINITIONS_LISTED listed, and the rest counted.
 */
export function capDefinitions<T>(
  items: readonly T[],
  weight: (item: T) => number,
): { shown: T[]; listed: T[]; omitted: number } {
  if (items.length <= DEFINITIONS_SHOWN) return { shown: [...items], listed: [], omitted: 0 };
  const weights = new Map(items.map((item) => [item, weight(item)]));
  // Array sort is stable: equal weights keep the definitions' order.
  const ranked = [...items].sort((a, b) => weights.get(b)! - weights.get(a)!);
  const end = DEFINITIONS_SHOWN + DEFINITIONS_LISTED;
  return {
    shown: ranked.slice(0, DEFINITIONS_SHOWN),
    listed: ranked.slice(DEFINITIONS_SHOWN, end),
    omitted: Math.max(0, ranked.length - end),
  };
}
