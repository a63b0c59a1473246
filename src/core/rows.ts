import type { ImportBinding } from "./extraction.js";
import type { FileInfo, LocalTypeInfo, RefInfo, SymbolInfo } from "./lookup.js";

/** A file as stored: what the resolver knows plus what freshness checks need. */
export interface FileRow extends FileInfo {
  size: number;
  mtimeMs: number;
  sha256: string;
  syntaxErrors: number;
}

/** A node as stored. */
export interface NodeRow extends SymbolInfo {
  uid: string;
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
  signature: string | null;
  docstring: string | null;
  visibility: string | null;
  isStatic: boolean;
}

export interface RefRow extends RefInfo {
  col: number;
}

/** One file's complete contribution to the index, with ids assigned. */
export interface FileRecord {
  file: FileRow;
  nodes: NodeRow[];
  refs: RefRow[];
  imports: ImportBinding[];
  localTypes: LocalTypeInfo[];
}
