import { describe, expect, it } from "vitest";
import { impact } from "../../src/query/impact.js";
import { renderImpact } from "../../src/render/text.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Changing an override changes what a call of the method it overrides may run: Django's
// Field.get_db_prep_value calls self.get_prep_value, which is CharField's on a CharField, and
// doctrine's ProxyFactory calls loadById on the EntityPersister interface. Those callers are in the
// override's blast radius; a sibling override's super() call is not, as it names the base's method.
const PYTHON = `class Field:
    def prep(self, v):
        return v

    def save(self, v):
        return self.prep(v)


class CharField(Field):
    def prep(self, v):
        return super().prep(v).strip()


class IntField(Field):
    def prep(self, v):
        return int(super().prep(v))


def store(f):
    return Field().save(f)
`;

const TYPESCRIPT = `export interface Persister {
  load(id: number): string;
}

export class BasicPersister implements Persister {
  load(id: number): string {
    return String(id);
  }
}

export function proxy(p: Persister): string {
  return p.load(1);
}
`;

const project = useIndexedProject("impact-dispatch", {
  files: { "fields.py": PYTHON, "src/persister.ts": TYPESCRIPT },
});

const rows = (name: string, depth = 3) =>
  impact(project.db, name, { depth }).sections.flatMap((s) =>
    s.hits.map((h) => `${h.depth} ${h.symbol.qualifiedName} ${h.kind} ${h.through ?? "-"}>${h.via}`),
  );

describe("impact of an override", () => {
  it("takes in the calls of the base method it overrides, but not super() calls from siblings", () => {
    expect(rows("CharField.prep")).toEqual([
      "1 Field.save calls Field.prep>CharField.prep",
      "2 store calls ->Field.save",
    ]);
  });

  it("takes in the calls through the interface it implements", () => {
    expect(rows("BasicPersister.load")).toEqual(["1 proxy calls Persister.load>BasicPersister.load"]);
  });

  it("says which method the dependent calls and which override it may reach", () => {
    const text = renderImpact(impact(project.db, "BasicPersister.load", {}));
    expect(text).toContain(
      "proxy (function)  src/persister.ts:11  [calls Persister.load, overridden by BasicPersister.load]",
    );
  });

  it("leaves the base method's own blast radius as it was", () => {
    const names = impact(project.db, "Field.prep", { depth: 1 }).sections.flatMap((s) =>
      s.hits.map((h) => h.symbol.qualifiedName),
    );
    expect(names.sort()).toEqual(["CharField.prep", "Field.save", "IntField.prep"]);
  });
});
