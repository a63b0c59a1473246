import { EDGE_KINDS, RESOLUTIONS, type EdgeKind, type Resolution } from "./kinds.js";

/**
 * Resolved edges as columns of numbers. A full index hands them to the thread that writes them, and
 * typed arrays cross for the cost of their buffers (moved, not copied), where an object per edge is
 * copied field by field.
 */
export interface EdgeBatch {
  count: number;
  /** Five per edge: source node, target node, file, line, reference (0 for none: ids start at 1). */
  ints: Int32Array<ArrayBuffer>;
  /** Two per edge: its kind (an index into EDGE_KINDS) and its resolution (into RESOLUTIONS). */
  codes: Uint8Array<ArrayBuffer>;
  /** The share of the references resolved when it was taken, from 0 to 1. */
  progress: number;
}

/** One edge of a batch, as `forEachEdge` reads it back. */
export type EdgeFields = [
  sourceId: number,
  targetId: number,
  kind: EdgeKind,
  fileId: number,
  line: number,
  resolution: Resolution,
  refId: number | null,
];

const KIND_CODES = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));
const RESOLUTION_CODES = new Map<string, number>(RESOLUTIONS.map((r, i) => [r, i]));

/** Fills batches of at most `capacity` edges, and counts the edges of each kind it was given. */
export class EdgeBatchBuilder {
  private ints: Int32Array<ArrayBuffer>;
  private codes: Uint8Array<ArrayBuffer>;
  private count = 0;
  /** Edges added so far (taken or not), by kind. */
  readonly byKind = new Map<EdgeKind, number>();

  constructor(private readonly capacity = 4096) {
    this.ints = new Int32Array(capacity * 5);
    this.codes = new Uint8Array(capacity * 2);
  }

  get full(): boolean {
    return this.count === this.capacity;
  }

  add(
    sourceId: number,
    targetId: number,
    fileId: number,
    line: number,
    refId: number | null,
    kind: EdgeKind,
    resolution: Resolution,
  ): void {
    const i = this.count * 5;
    this.ints[i] = sourceId;
    this.ints[i + 1] = targetId;
    this.ints[i + 2] = fileId;
    this.ints[i + 3] = line;
    this.ints[i + 4] = refId ?? 0;
    this.codes[this.count * 2] = KIND_CODES.get(kind)!;
    this.codes[this.count * 2 + 1] = RESOLUTION_CODES.get(resolution)!;
    this.count++;
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }

  /** The edges added since the last `take`; the builder starts a new batch. */
  take(progress: number): EdgeBatch {
    const batch = { count: this.count, ints: this.ints, codes: this.codes, progress };
    this.ints = new Int32Array(this.capacity * 5);
    this.codes = new Uint8Array(this.capacity * 2);
    this.count = 0;
    return batch;
  }
}

/** Each edge of a batch, in the order it was added. */
export function forEachEdge(batch: EdgeBatch, visit: (...edge: EdgeFields) => void): void {
  const { ints, codes } = batch;
  for (let e = 0; e < batch.count; e++) {
    const i = e * 5;
    visit(
      ints[i]!,
      ints[i + 1]!,
      EDGE_KINDS[codes[e * 2]!]!,
      ints[i + 2]!,
      ints[i + 3]!,
      RESOLUTIONS[codes[e * 2 + 1]!]!,
      ints[i + 4]! || null,
    );
  }
}
