import { partlyParsedMentions, type PartlyParsed } from "./partly-parsed.js";
import {
  CALLER_KINDS,
  CALL_KINDS,
  USE_KINDS,
  incoming,
  outgoing,
  withMembers,
  type Neighbour,
} from "../graph/traverse.js";
import type { Db } from "../store/database.js";
import { declarationsByQualifiedName } from "../store/symbol-reader.js";
import { C_FAMILY_PATH, HEADER_PATH } from "../core/c-family-paths.js";
import { TYPE_KINDS } from "../core/kinds.js";
import { symbolSuggestions } from "./suggest.js";
import {
  capDefinitions,
  findDefinitions,
  groupDefinitions,
  symbolsById,
  type AlsoNamed,
  type SymbolHit,
} from "./symbols.js";

const TYPES: ReadonlySet<string> = TYPE_KINDS;

export interface RelationRow {
  symbol: SymbolHit;
  kind: string;
  line: number | null;
  resolution: string;
}

/** One definition the user may have meant, with its relations. Same-named symbols in two files are two groups. */
export interface RelationGroup {
  definition: SymbolHit;
  /** Further declarations of the same definition (overloads), whose relations are merged in. */
  overloads: number;
  rows: RelationRow[];
  total: number;
  /**
   * Callers asked for calls only, and none found: how many other uses it has (a constant's reads, a
   * class's references, imports), which asking for every use lists.
   */
  otherUses?: number;
}

/** A definition past those shown in full: where it is and how many relations it has, no rows. */
export interface RelationSummary {
  definition: SymbolHit;
  overloads: number;
  total: number;
}

export interface RelationResult {
  query: string;
  direction: "callers" | "callees";
  /** Every definition of the name, or, when more than DEFINITIONS_SHOWN share it, those with the most rows. */
  groups: RelationGroup[];
  /** The next definitions by rows, when more share the name than are shown. */
  others: RelationSummary[];
  /** Definitions neither shown nor listed. */
  omitted: number;
  /** When no symbol has the name: names it may have meant (a typo away, or containing it). */
  suggestions: string[];
  /** With no definition: files that parsed only in part and mention the name (see partlyParsedMentions). */
  partlyParsed: PartlyParsed[];
  /** Members of the name left out because top-level declarations matched it exactly. */
  alsoNamed: AlsoNamed | null;
  /** A `file` filter that matched no definition: every definition is shown instead, and the answer says so. */
  unmatchedFile: string | null;
  /** The per-definition row limit: a group with more rows says "Showing N of M". */
  limit: number;
}

export interface RelationOptions {
  file?: string;
  /** Rows per definition. */
  limit?: number;
  /** Only calls and instantiations (default); also references and imports (`callers`); or every use. */
  uses?: "calls" | "callers" | "all";
}

/**
 * Who calls a symbol (direction "callers") or what it calls ("callees"). For a class, its members'
 * callers and callees count as the class's (calls between its own members do not). Rows are grouped
 * per definition by (file, qualified name), and the limit applies to each group; a name with many
 * definitions is capped (capDefinitions).
 */
export function relations(
  db: Db,
  text: string,
  direction: "callers" | "callees",
  options: RelationOptions = {},
): RelationResult {
  const limit = Math.max(1, Math.min(options.limit ?? 50, 1000));
  const kinds = options.uses === "all" ? USE_KINDS : options.uses === "callers" ? CALLER_KINDS : CALL_KINDS;
  const { defs, unmatchedFile, alsoNamed } = findDefinitions(db, text, options.file);
  const definitions = groupDefinitions(db, defs).map((group) => {
    // A type's members speak for it both ways; a function's nested functions only for its callers.
    const whole = direction === "callers" || TYPES.has(group[0]!.kind);
    const ids = whole ? group.flatMap((d) => withMembers(db, d.id)) : group.map((d) => d.id);
    return { group, whole, ids };
  });
  // The callers of every definition in one read: a name may have a hundred.
  const into =
    direction === "callers"
      ? incoming(
          db,
          definitions.flatMap((d) => d.ids),
          kinds,
        )
      : null;
  let at = 0;
  const found = definitions.map(({ group, whole, ids }) => {
    const own = new Set(ids);
    // A call of a function from within it (recursion, from its own body or a function it nests) is a
    // caller like any other; a type's members calling each other, or a function calling what it
    // nests, is not.
    const recursion = TYPES.has(group[0]!.kind) ? null : new Set(group.map((d) => d.id));
    const seen = new Set<string>();
    const edges: Neighbour[] = [];
    const add = (e: Neighbour) => {
      const key = rowKey(e);
      if (seen.has(key)) return;
      seen.add(key);
      edges.push(e);
    };
    for (const id of ids) {
      for (const e of into ? into[at++]! : outgoing(db, id, kinds)) {
        if (whole && own.has(e.nodeId) && !recursion?.has(id)) continue;
        add(e);
      }
    }
    if (into && group[0]!.kind === "constructor") for (const e of instantiationsOf(db, group[0]!)) add(e);
    // Calls lead: the rows a limit keeps are the ones a change of behaviour breaks first.
    if (kinds !== CALL_KINDS) edges.sort((a, b) => useRank(a.kind) - useRank(b.kind));
    const linked = !into && C_FAMILY_PATH.test(group[0]!.file);
    return { group, ids, edges: linked ? oneRowPerLinkedCall(db, edges) : edges };
  });
  const { shown, listed, omitted } = capDefinitions(found, (f) => f.edges.length);
  const groups = shown.map(({ group, ids, edges }): RelationGroup => {
    const rows: RelationRow[] = [];
    let total = edges.length;
    // Rows past the limit are counted, not read: a class of the JDK has thousands of callers. Those
    // shown are read together, and again for the next ones when a node was gone (a sync meanwhile).
    for (let next = 0; rows.length < limit && next < edges.length;) {
      const batch = edges.slice(next, next + limit - rows.length);
      next += batch.length;
      const ids = batch.map((e) => e.nodeId);
      const symbols = symbolsById(db, ids);
      for (const e of batch) {
        const symbol = symbols.get(e.nodeId);
        if (symbol) rows.push({ symbol, kind: e.kind, line: e.line, resolution: e.resolution });
        else total--;
      }
    }
    const result: RelationGroup = { definition: group[0]!, overloads: group.length - 1, rows, total };
    if (!edges.length && into && kinds === CALL_KINDS) {
      // Counted as every use is listed (`rowKey`).
      const own = new Set(ids);
      const rows = new Set<string>();
      for (const e of incoming(db, ids, USE_KINDS).flat()) if (!own.has(e.nodeId)) rows.add(rowKey(e));
      result.otherUses = rows.size;
    }
    return result;
  });
  const others = listed.map(({ group, edges }) => ({
    definition: group[0]!,
    overloads: group.length - 1,
    total: edges.length,
  }));
  const suggestions = defs.length ? [] : symbolSuggestions(db, text);
  const partlyParsed = defs.length ? [] : partlyParsedMentions(db, text);
  return {
    query: text,
    direction,
    groups,
    others,
    omitted,
    suggestions,
    partlyParsed,
    alsoNamed,
    unmatchedFile,
    limit,
  };
}

/** One row per user, line and kind: two uses on one line (`MAX + MAX`) are one row. */
function rowKey(e: Neighbour): string {
  return `${e.nodeId}:${e.line}:${e.kind}`;
}

/**
 * The instantiations of a constructor's type: `new JSValue(…)`, `Foo()` in Python, `Widget w;` are
 * recorded against the type, as which of its constructors runs depends on the arguments; asked for a
 * constructor's callers, those are them. The type is the one its qualified name holds, in its own file
 * when several types have that name.
 */
function instantiationsOf(db: Db, constructor: SymbolHit): Neighbour[] {
  const dot = constructor.qualifiedName.lastIndexOf(".");
  if (dot <= 0) return [];
  const types = declarationsByQualifiedName(db, constructor.qualifiedName.slice(0, dot)).filter((t) =>
    TYPES.has(t.kind),
  );
  const type = types.length === 1 ? types[0] : types.find((t) => t.file === constructor.file);
  return type ? incoming(db, [type.id], ["instantiates"])[0]! : [];
}

/**
 * A call of a C or C++ function reaches its definition and its prototypes (resolve/linkage.ts), which
 * are one function: one row per call, at the definition (at its first declaration when the index has
 * no definition), as callers list a caller once.
 */
function oneRowPerLinkedCall(db: Db, edges: Neighbour[]): Neighbour[] {
  const symbols = symbolsById(
    db,
    edges.map((e) => e.nodeId),
  );
  const keyOf = (e: Neighbour) => {
    const s = symbols.get(e.nodeId);
    return s && C_FAMILY_PATH.test(s.file) ? `${s.qualifiedName}\0${e.line}\0${e.kind}` : null;
  };
  const chosen = new Map<string, Neighbour>();
  for (const e of edges) {
    const key = keyOf(e);
    if (key === null) continue;
    const held = chosen.get(key);
    if (!held || (HEADER_PATH.test(symbols.get(held.nodeId)!.file) && !HEADER_PATH.test(symbols.get(e.nodeId)!.file)))
      chosen.set(key, e);
  }
  return edges.filter((e) => {
    const key = keyOf(e);
    return key === null || chosen.get(key) === e;
  });
}

/** Calls and instantiations before other uses (stable, so each kind keeps its order). */
function useRank(kind: string): number {
  return kind === "calls" || kind === "instantiates" ? 0 : 1;
}
