import { readSync } from "node:fs";
import { sha256 } from "../core/hash.js";
import { readRegularInside } from "../core/regular-file.js";

export type ReadOutcome =
  | { ok: true; text: string; size: number; mtimeMs: number; sha256: string }
  | { ok: false; reason: "binary" | "not UTF-8" | "unreadable" | "too large"; size: number; mtimeMs: number };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Up to `size` bytes of an open file, from its start: fewer if it shrank since its stat. */
function readBytes(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * Read a source file once: its bytes give the hash and the text, and the stat taken on the same open
 * file gives size and mtime, so what we record matches what we parsed. `realRoot` is the project's
 * real path: a file that is not inside it once opened (swapped for a link out of the project after
 * the scan listed it) is not read.
 */
export function readSource(absPath: string, maxSize: number, realRoot: string): ReadOutcome {
  // Null when it is not a regular file inside the project: listed as one by the scan, but a FIFO (no
  // bytes to index) or a link out of the project by now.
  const read = readRegularInside(realRoot, absPath, (fd, st): ReadOutcome => {
    const size = st.size;
    const mtimeMs = Math.floor(st.mtimeMs);
    if (size > maxSize) return { ok: false, reason: "too large", size, mtimeMs };
    const bytes = readBytes(fd, size);
    // A NUL byte in the first 8 KiB means binary, as git decides it.
    if (bytes.subarray(0, 8192).includes(0)) return { ok: false, reason: "binary", size, mtimeMs };
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return { ok: false, reason: "not UTF-8", size, mtimeMs };
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { ok: true, text, size, mtimeMs, sha256: sha256(bytes) };
  });
  return read ?? { ok: false, reason: "unreadable", size: 0, mtimeMs: 0 };
}

/**
 * The stat of a file of the project whose bytes still hash to `sha256`, read but neither decoded nor
 * parsed; null if they do not, or it cannot be read (the parse then says why). A file saved unchanged,
 * or checked out and back, has a new mtime and the same bytes: no change to parse.
 */
export function sameBytes(absPath: string, realRoot: string, sha: string): { size: number; mtimeMs: number } | null {
  return readRegularInside(realRoot, absPath, (fd, st) =>
    sha256(readBytes(fd, st.size)) === sha ? { size: st.size, mtimeMs: Math.floor(st.mtimeMs) } : null,
  );
}
