import type { RefRow } from "../core/rows.js";
import type { ResolvedEdge } from "../resolve/resolver.js";
import type { Writer } from "../store/writer.js";

/**
 * Resolved references waiting to be written, kept flat rather than as an object per edge: on the
 * JDK (3.2 M edges) those objects held 136 MB for as long as the declarations worker held the
 * database.
 */
export class ResolvedQueue {
  private refs: RefRow[] = [];
  /** How many edges each reference found; then each edge's target, kind and resolution, in order. */
  private counts: number[] = [];
  private targets: number[] = [];
  private kinds: ResolvedEdge["kind"][] = [];
  private resolutions: ResolvedEdge["resolution"][] = [];

  get length(): number {
    return this.refs.length;
  }

  add(ref: RefRow, edges: readonly ResolvedEdge[]): void {
    this.refs.push(ref);
    this.counts.push(edges.length);
    for (const e of edges) {
      this.targets.push(e.targetId);
      this.kinds.push(e.kind);
      this.resolutions.push(e.resolution);
    }
  }

  /**
   * Write every queued reference and its edges (in the caller's transaction), then empty the queue.
   * Returns how many of them found a target.
   */
  writeTo(writer: Writer): number {
    let resolved = 0;
    let e = 0;
    for (let i = 0; i < this.refs.length; i++) {
      const ref = this.refs[i]!;
      const n = this.counts[i]!;
      for (const end = e + n; e < end; e++) writer.addEdge(ref, this.targets[e]!, this.kinds[e]!, this.resolutions[e]!);
      writer.addRef(ref, n > 0);
      if (n > 0) resolved++;
    }
    writer.flush();
    this.refs = [];
    this.counts = [];
    this.targets = [];
    this.kinds = [];
    this.resolutions = [];
    return resolved;
  }
}
