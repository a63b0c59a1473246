import type { Node, QueryMatch } from "web-tree-sitter";

/**
 * `capture(match, name)` for one language: the node its pattern captured as `@name`. A pattern
 * without that capture is a bug in the language's query, reported with the language's name.
 */
export function captureFor(language: string): (m: QueryMatch, name: string) => Node {
  return (m, name) => {
    for (const c of m.captures) if (c.name === name) return c.node;
    throw new Error(`${language} query: no @${name} in pattern ${m.patternIndex}`);
  };
}

/** A node-shaped range from the start of one node to the end of another, for the builder's spans. */
export function spanOf(start: Node, end: Node): Node {
  if (start.startIndex === end.startIndex) return end;
  const span: Pick<Node, "startIndex" | "endIndex" | "startPosition" | "endPosition"> = {
    startIndex: start.startIndex,
    endIndex: end.endIndex,
    startPosition: start.startPosition,
    endPosition: end.endPosition,
  };
  return span as Node;
}

/** The first named child of this type. */
export function childOfType(node: Node, type: string): Node | null {
  for (const c of node.namedChildren) if (c?.type === type) return c;
  return null;
}
