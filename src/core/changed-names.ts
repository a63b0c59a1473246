import { TYPE_KINDS, type NodeKind } from "./kinds.js";

/**
 * Names whose declarations came, went or changed in a sync, each with where it may be written so as
 * to mean one of them. A text elsewhere that mentions such a name (a receiver, a local's type) may
 * resolve differently now; one that only shares the spelling cannot. In Go a struct's field `r` is
 * only ever written after a dot (`s.r`), so a local typed `r.Next()` (`r` a variable) does not read
 * it: followed by spelling alone, adding a field `r` to one struct re-resolved all of go-stdlib.
 */

/** The files a name may be written in: null for any file, else these (by id; none, for nowhere). */
export type FileSet = ReadonlySet<number> | null;

/** Where a name may be written so as to mean a declaration that changed. */
export interface NameReach {
  /** Written on its own or first in a chain: `name`, `name.x`, `*name`, `[]name`. */
  bare: FileSet;
  /** Written after a dot: `x.name`. */
  dotted: FileSet;
}

export const ANYWHERE: NameReach = { bare: null, dotted: null };

/**
 * The part a name plays in its file, which is what decides, in a language with such rules, where
 * other files can write it: a member of a type (a field, a method), a top-level declaration, or a
 * binding of the file's own (an import).
 */
export type NameRole = "member" | "top" | "binding";

export interface NamedRole {
  name: string;
  role: NameRole;
}

const MEMBER_KINDS = new Set(["method", "constructor", "property", "enum_member"]);

/** The role of a declaration of this kind inside a parent of that kind (null at the top of its file). */
export function roleOf(kind: string, parentKind: string | null): NameRole {
  if (kind === "import") return "binding";
  return MEMBER_KINDS.has(kind) || (parentKind !== null && TYPE_KINDS.has(parentKind as NodeKind)) ? "member" : "top";
}

/**
 * The name other files read a field or value by, given the name of its local type (`this.x` for a
 * field) and the kind of its scope, and the part it plays.
 */
export function localTypeName(name: string, scopeKind: string | null): NamedRole {
  return name.startsWith("this.")
    ? { name: name.slice(5), role: "member" }
    : { name, role: roleOf("variable", scopeKind) };
}

export const NOWHERE: ReadonlySet<number> = new Set();

const holdsAll = (a: ReadonlySet<number>, b: ReadonlySet<number>) => [...b].every((f) => a.has(f));

const coversFiles = (a: FileSet, b: FileSet) => a === null || (b !== null && holdsAll(a, b));

/**
 * Both sets' files; null (any file) absorbs. One that holds the other is returned as it is: a text
 * mentioning a Go member and a package's name would otherwise copy every Go file of the project.
 */
export function unionFiles(a: FileSet, b: FileSet): FileSet {
  if (a === null || b === null) return null;
  if (a.size >= b.size && holdsAll(a, b)) return a;
  if (b.size > a.size && holdsAll(b, a)) return b;
  return new Set([...a, ...b]);
}

/** A set of changed names, a name added twice reaching where either reach does. */
export class ChangedNames implements Iterable<string> {
  private readonly reaches = new Map<string, NameReach>();

  /** Names that may be written anywhere. */
  static anywhere(names: Iterable<string>): ChangedNames {
    const out = new ChangedNames();
    for (const n of names) out.add(n);
    return out;
  }

  /**
   * Adds a name, or widens its reach; true when it reaches further than before. An empty name names
   * nothing and is left out.
   */
  add(name: string, reach: NameReach = ANYWHERE): boolean {
    if (!name) return false;
    const had = this.reaches.get(name);
    if (!had) {
      this.reaches.set(name, reach);
      return true;
    }
    if (coversFiles(had.bare, reach.bare) && coversFiles(had.dotted, reach.dotted)) return false;
    this.reaches.set(name, { bare: unionFiles(had.bare, reach.bare), dotted: unionFiles(had.dotted, reach.dotted) });
    return true;
  }

  /** Adds every name of `other` with its reach. */
  addAll(other: ChangedNames): void {
    for (const [name, reach] of other.reaches) this.add(name, reach);
  }

  has(name: string): boolean {
    return this.reaches.has(name);
  }

  reachOf(name: string): NameReach | undefined {
    return this.reaches.get(name);
  }

  get size(): number {
    return this.reaches.size;
  }

  [Symbol.iterator](): Iterator<string> {
    return this.reaches.keys();
  }
}

/** Characters that cannot be part of an identifier: ASCII other than letters, digits and `_`. */
const NOT_IDENTIFIER = /[^A-Za-z0-9_\u0080-\uffff]+/;
const IDENTIFIER = /[A-Za-z0-9_\u0080-\uffff]+/g;

/**
 * The files in which a text mentions one of the names where it may be written (see `NameReach`), as a
 * whole identifier, not inside a longer one (a new method `go` is not mentioned by `algorithm`): null
 * for any file, an empty set when it mentions none. A name that is no identifier (`m!`, `$x`) is
 * searched for with identifier characters on neither side, and counts bare or dotted alike.
 */
export function mentionSites(names: ChangedNames): (text: string) => FileSet {
  const identifiers = new Map<string, NameReach>();
  const others: [string, FileSet][] = [];
  for (const n of names) {
    const reach = names.reachOf(n)!;
    if (NOT_IDENTIFIER.test(n)) others.push([n, unionFiles(reach.bare, reach.dotted)]);
    else identifiers.set(n, reach);
  }
  const isIdent = (c: string | undefined) => c !== undefined && !NOT_IDENTIFIER.test(c);
  const mentions = (text: string, word: string) => {
    for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1))
      if (!isIdent(text[i - 1]) && !isIdent(text[i + word.length])) return true;
    return false;
  };
  const identifier = new RegExp(IDENTIFIER);
  return (text) => {
    let files: FileSet = NOWHERE;
    identifier.lastIndex = 0;
    for (let m = identifier.exec(text); m; m = identifier.exec(text)) {
      const reach = identifiers.get(m[0]);
      if (!reach) continue;
      files = unionFiles(files, text[m.index - 1] === "." ? reach.dotted : reach.bare);
      if (files === null) return null;
    }
    for (const [word, where] of others) {
      if (mentions(text, word)) files = unionFiles(files, where);
      if (files === null) return null;
    }
    return files;
  };
}

/** Whether `mentionSites` found no file: the text mentions none of the names where they may be written. */
export const noSite = (files: FileSet): boolean => files !== null && files.size === 0;

/** Whether a file is one of `files`. */
export const inFileSet = (files: FileSet, fileId: number): boolean => files === null || files.has(fileId);

/** Whether a text mentions any of the names, written anywhere. */
export function mentionsAnyOf(names: Iterable<string>): (text: string) => boolean {
  const sites = mentionSites(ChangedNames.anywhere(names));
  return (text) => !noSite(sites(text));
}
