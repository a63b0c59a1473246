/** A node with its file, as stored (`exported` is 0 or 1): the row behind query's SymbolHit. */
export interface SymbolRow {
  id: number;
  uid: string;
  name: string;
  qualifiedName: string;
  kind: string;
  file: string;
  startLine: number;
  endLine: number;
  signature: string | null;
  docstring: string | null;
  exported: number;
}
