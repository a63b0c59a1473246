import type { Db } from "../store/database.js";
import { contentVersion } from "../store/content-version.js";
import { distinctNames } from "../store/search-reader.js";

/** The comparable form of a name or query: lower case, letters and digits only (`Query_Set` → `queryset`). */
export function typoKey(text: string): string {
  const lower = text.toLowerCase();
  return /^[a-z0-9]*$/.test(lower) ? lower : lower.replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Names whose keys have one length, with each key's character-set bitmask for a cheap rejection. */
interface Bucket {
  names: string[];
  keys: string[];
  masks: number[];
}

interface TypoIndex {
  version: string;
  byLength: Map<number, Bucket>;
}

const indexes = new WeakMap<Db, TypoIndex>();

/** Letters a–z take one bit each, digits share five, anything else the last. */
function charMask(key: string): number {
  let m = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 97 && c <= 122) m |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) % 5));
    else m |= 1 << 31;
  }
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The distinct names of the index grouped for typo lookups, built once per connection and rebuilt when
 * the index's content changes (a sync through another connection).
 */
function typoIndex(db: Db): TypoIndex {
  const version = contentVersion(db);
  const cached = indexes.get(db);
  if (cached && cached.version === version) return cached;
  const byLength = new Map<number, Bucket>();
  for (const name of distinctNames(db)) {
    const key = typoKey(name);
    if (key.length < 2) continue;
    let bucket = byLength.get(key.length);
    if (!bucket) byLength.set(key.length, (bucket = { names: [], keys: [], masks: [] }));
    bucket.names.push(name);
    bucket.keys.push(key);
    bucket.masks.push(charMask(key));
  }
  const index = { version, byLength };
  indexes.set(db, index);
  return index;
}

let rows: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions, the Damerau distance
 * typos need), or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0]!.length < n + 1) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** A name within the typo budget of a query. */
export interface TypoMatch {
  name: string;
  distance: number;
}

/**
 * Names within edit distance 1 of `query` (2 when the query has more than five letters and digits),
 * closest first, at most `cap` of them. Case and separators do not count as edits.
 */
export function typoMatches(db: Db, query: string, cap = 50): TypoMatch[] {
  const key = typoKey(query);
  if (key.length < 3) return [];
  const max = key.length <= 5 ? 1 : 2;
  const mask = charMask(key);
  const { byLength } = typoIndex(db);
  const found: TypoMatch[] = [];
  for (let len = key.length - max; len <= key.length + max; len++) {
    const bucket = byLength.get(len);
    if (!bucket) continue;
    const { names, keys, masks } = bucket;
    for (let i = 0; i < keys.length; i++) {
      // One edit changes at most two members of the character set.
      if (popcount(masks[i]! ^ mask) > 2 * max) continue;
      const distance = editDistance(key, keys[i]!, max);
      if (distance <= max) found.push({ name: names[i]!, distance });
    }
  }
  found.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return found.slice(0, cap);
}
