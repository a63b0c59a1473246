import { createHash } from "node:crypto";

/** Hex sha256 of file contents: the identity that decides whether a stat mismatch is a real change. */
export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Short stable id for a symbol: the same declaration keeps its id across re-indexing. */
export function stableId(path: string, kind: string, qualifiedName: string, ordinal: number): string {
  return createHash("sha1").update(`${path}\0${kind}\0${qualifiedName}\0${ordinal}`).digest("hex").slice(0, 16);
}
