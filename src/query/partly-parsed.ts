import { readFileSync } from "node:fs";
import { rootOfIndex } from "../config/paths.js";
import { realPathOrGiven } from "../core/paths.js";
import type { Db } from "../store/database.js";
import { filesWithSyntaxErrors } from "../store/file-lookup.js";
import { readInsideProject } from "./read-project-file.js";
import { MAX_SYMBOL_CHARS } from "./symbols.js";
import { dottedSpelling } from "./symbol-spelling.js";

/** At most this many partly parsed files are read for one name, and this many bytes in all. */
const MAX_FILES = 100;
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_NAMED = 5;

export interface PartlyParsed {
  path: string;
  /** The syntax errors the file was indexed with. */
  errors: number;
}

/**
 * Files that parsed only in part and whose text holds the name asked for, as a word: a definition in a
 * stretch the parser could not read is not indexed (the C grammar loses a function whose braces an
 * `#ifdef` splits, and lifts its locals to the top level). Said beside "no symbol named …", so the
 * agent reads the file rather than concluding the symbol does not exist.
 */
export function partlyParsedMentions(db: Db, written: string): PartlyParsed[] {
  if (written.length > MAX_SYMBOL_CHARS) return [];
  const text = dottedSpelling(written) || written;
  const name = text.slice(text.lastIndexOf(".") + 1);
  const root = rootOfIndex(db.name);
  if (!root || !/^[A-Za-z_$][\w$]{2,}$/.test(name)) return [];
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
  const needle = Buffer.from(name);
  const realRoot = realPathOrGiven(root);
  const out: PartlyParsed[] = [];
  let read = 0;
  for (const f of filesWithSyntaxErrors(db, MAX_FILES)) {
    if (read + f.size > MAX_BYTES) continue;
    read += f.size;
    const bytes = readInsideProject(root, f.path, realRoot, (fd) => readFileSync(fd));
    if (!bytes || !bytes.includes(needle) || !word.test(bytes.toString("utf8"))) continue;
    out.push({ path: f.path, errors: f.errors });
    if (out.length >= MAX_NAMED) break;
  }
  return out;
}
