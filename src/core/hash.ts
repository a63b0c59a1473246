import * as crypto from "node:crypto";
import { sha1Js, sha256Js } from "./sha-js.js";

/**
 * Bytes a thread hashes in JavaScript before it loads node:crypto, which costs 5-10 ms to load (see
 * sha-js.ts): a sync of a small file never loads it. Hashing in JavaScript is cheap only for little:
 * its first calls run in V8's interpreter, about 0.6 ms a KB of sha256 cold (a 20 KB file 12-16 ms,
 * 2,000 symbol ids 25-37 ms), so past a few KB the load is cheaper. A full index's threads, hashing
 * megabytes, switch within their first file or two. (128 KiB, first chosen, cost each thread of a full
 * index 40-70 ms, and a sync of a 20 KB file more than the load.)
 */
const HASHED_IN_JS_UP_TO = 8 * 1024;
let hashedInJs = 0;

/** Whether `bytes` more are hashed in JavaScript: only while this thread has hashed little. */
function inJs(bytes: number): boolean {
  if (hashedInJs + bytes > HASHED_IN_JS_UP_TO) {
    hashedInJs = Infinity;
    return false;
  }
  hashedInJs += bytes;
  return true;
}

/** Hex sha256 of file contents: the identity that decides whether a stat mismatch is a real change. */
export function sha256(data: Uint8Array): string {
  return inJs(data.length) ? sha256Js(data) : crypto.createHash("sha256").update(data).digest("hex");
}

const utf8 = new TextEncoder();
let sha1Of: ((text: string) => string) | undefined;

/**
 * One-shot hex sha1. `crypto.hash` (Node 20.12 and later) makes no Hash object: a full index takes a
 * stable id per symbol on the main thread, 2-3 times faster so (22k ids on Django: 6 ms, not 15-30).
 */
function sha1Hex(text: string): string {
  // A symbol's id text is short: its length stands for its bytes.
  if (inJs(text.length)) return sha1Js(utf8.encode(text));
  // Chosen on first use: asking at load time would load node:crypto in every command (see
  // scripts/after-build.mjs), most of which never hash.
  sha1Of ??=
    typeof crypto.hash === "function"
      ? (t) => crypto.hash("sha1", t, "hex")
      : (t) => crypto.createHash("sha1").update(t).digest("hex");
  return sha1Of(text);
}

/** Short stable id for a symbol: the same declaration keeps its id across re-indexing. */
export function stableId(path: string, kind: string, qualifiedName: string, ordinal: number): string {
  return sha1Hex(`${path}\0${kind}\0${qualifiedName}\0${ordinal}`).slice(0, 16);
}
