import type { Db } from "../store/database.js";
import { declarationsMentioning } from "../store/explore-lookup.js";
import { toHit, type SymbolHit } from "./symbols.js";

/** More throwers than this and the exception says little about where the message came from. */
const MAX_THROWERS = 8;

/** Exception classes a pasted message names: `django.core.exceptions.RequestDataTooBig` → RequestDataTooBig. */
export function exceptionNames(query: string): string[] {
  const names = query.match(/\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)\b|\bHttp\d{3}\b/g) ?? [];
  // The class a traceback's last line starts with, whatever it is called: `pkg.RequestDataTooBig: ...`.
  const lead = /^\s*(?:[\w$]+\.)*([A-Z][\w$]*)\s*:/.exec(query)?.[1];
  return [...new Set([...names, ...(lead ? [lead] : [])])];
}

/**
 * Where a pasted exception is raised: the declarations that construct or call it. A widely raised
 * one (`IllegalStateException`) names no particular place, so it yields nothing.
 */
export function raisersOf(db: Db, names: readonly string[]): SymbolHit[] {
  if (!names.length) return [];
  const rows = declarationsMentioning(db, names, ["calls", "instantiates"]).filter((r) => !names.includes(r.name));
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  return unique.length <= MAX_THROWERS ? unique.map(toHit) : [];
}

/**
 * Declarations that mention two or more of the names a query writes (`pre_save` and `post_save` →
 * `Model.save_base`), with how many they mention: where named things meet is usually the answer.
 */
export function meetingPoints(db: Db, names: readonly string[]): { symbol: SymbolHit; count: number }[] {
  if (names.length < 2) return [];
  const byId = new Map<number, { row: Parameters<typeof toHit>[0]; names: Set<string> }>();
  for (const r of declarationsMentioning(db, names, ["calls", "instantiates", "references"])) {
    const e = byId.get(r.id) ?? { row: r, names: new Set<string>() };
    e.names.add(r.mentioned);
    byId.set(r.id, e);
  }
  return [...byId.values()]
    .filter((e) => e.names.size >= 2)
    .map((e) => ({ symbol: toHit(e.row), count: e.names.size }));
}
