import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// An instantiation is recorded against its type (which constructor runs depends on the arguments);
// asked for a constructor's callers, those instantiations are them.
const project = useIndexedProject("constructor-callers", {
  files: {
    "src/box.ts": `export class Box {
  constructor(readonly size: number) {}

  static unit(): Box {
    return new Box(1);
  }
}

export function pack(): Box {
  return new Box(3);
}
`,
    "app/cart.py": `class Cart:
    def __init__(self, owner):
        self.owner = owner


def open_cart(owner):
    return Cart(owner)
`,
  },
});

const callers = (name: string) =>
  relations(project.db, name, "callers").groups.flatMap((g) =>
    g.rows.map((r) => `${r.symbol.qualifiedName}:${r.line} ${r.kind}`),
  );

describe("the callers of a constructor", () => {
  it("are the instantiations of its class, its own static factory's included", () => {
    expect(callers("Box.constructor").sort()).toEqual(["Box.unit:5 instantiates", "pack:10 instantiates"]);
  });

  it("are the calls of a Python class, for its __init__", () => {
    expect(callers("Cart.__init__")).toEqual(["open_cart:7 instantiates"]);
  });
});
