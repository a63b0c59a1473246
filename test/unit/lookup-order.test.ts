import { describe, expect, it } from "vitest";
import type { SymbolInfo } from "../../src/core/lookup.js";
import { MemoryLookup, type MemoryFile } from "../../src/resolve/memory-lookup.js";

/**
 * A full index meets files in the order its workers finish them, so ids and insertion order vary from
 * run to run. C and C++ resolution takes the first of several declarations of a name in places, so
 * the project-wide list of a name must come in an order that does not depend on either.
 */
function header(id: number, path: string, ids: number[]): MemoryFile {
  const nodeId = id * 100;
  const nodes: SymbolInfo[] = ids.map((n) => ({
    id: n,
    fileId: id,
    parentId: nodeId,
    kind: "class",
    name: "Promise",
    qualifiedName: "Mso.Promise",
    paramCount: null,
    exported: true,
    isStatic: false,
  }));
  return {
    file: { id, path, language: "cpp", packageName: null, nodeId },
    nodes,
    refs: [],
    imports: [],
    localTypes: [],
  };
}

describe("project-wide lookup by name", () => {
  it("lists declarations by file path, then in declaration order, however the files came in", () => {
    const paths = (l: MemoryLookup) => l.named("Promise").map((s) => `${s.fileId}:${s.id}`);
    // The same three headers, met in two orders and numbered accordingly.
    const first = new MemoryLookup([
      header(1, "Mso/future/future.h", [11]),
      header(2, "Mso/future/details/promiseInl.h", [21, 22]),
      header(3, "Mso/future/details/futureInl.h", [31]),
    ]);
    const second = new MemoryLookup([
      header(3, "Mso/future/future.h", [31]),
      header(1, "Mso/future/details/futureInl.h", [11]),
      header(2, "Mso/future/details/promiseInl.h", [21, 22]),
    ]);
    const byPath = (l: MemoryLookup) => l.named("Promise").map((s) => `${l.file(s.fileId)!.path}#${s.id % 10}`);
    expect(byPath(first)).toEqual([
      "Mso/future/details/futureInl.h#1",
      "Mso/future/details/promiseInl.h#1",
      "Mso/future/details/promiseInl.h#2",
      "Mso/future/future.h#1",
    ]);
    expect(byPath(second)).toEqual(byPath(first));
    expect(paths(first)).not.toEqual(paths(second));
  });
});
