import { describe, expect, it } from "vitest";
import { findSymbols } from "../../src/query/symbols.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// `Holder.member` where the holder inherits the member: the answer is the declaration a call on the
// holder reaches, found through bases, interfaces and mixins as the resolver looks (depth first, in
// the order the declaration names its bases).

const FILES = {
  "shop/models.py": `class Base:
    def save(self):
        pass

    def clean(self):
        pass


class Mixin:
    def clean(self):
        pass

    def render(self):
        pass


class Model(Base, Mixin):
    def full_clean(self):
        self.clean()


class Child(Model):
    pass


class Ping(Pong):
    pass


class Pong(Ping):
    pass


def helper():
    pass
`,
  "coll/Coll.java": "package coll;\n\ninterface Coll {\n  boolean containsAll();\n}\n",
  "coll/AbstractColl.java":
    "package coll;\n\nabstract class AbstractColl implements Coll {\n  public boolean containsAll() {\n    return true;\n  }\n}\n",
  "coll/Lst.java": "package coll;\n\ninterface Lst extends Coll {\n}\n",
  "coll/AbstractLst.java": "package coll;\n\nabstract class AbstractLst extends AbstractColl implements Lst {\n}\n",
  "coll/ArrayLst.java": "package coll;\n\nclass ArrayLst extends AbstractLst implements Lst {\n}\n",
  "lib/handling.rb": "module Handling\n  def establish\n  end\nend\n",
  "lib/base.rb": "class Base\n  extend Handling\nend\n",
  "lib/base_more.rb": "class Base\n  def other\n  end\nend\n",
};

const project = useIndexedProject("inherited", { files: FILES });

const found = (text: string) => findSymbols(project.db, text).map((h) => `${h.file}:${h.qualifiedName}`);

describe("a member named through a type that inherits it", () => {
  it("is found in a base, however many generations up", () => {
    expect(found("Model.render")).toEqual(["shop/models.py:Mixin.render"]);
    expect(found("Child.save")).toEqual(["shop/models.py:Base.save"]);
  });

  it("is the first base's (and its bases') before the next base's", () => {
    expect(found("Child.clean")).toEqual(["shop/models.py:Base.clean"]);
    expect(found("ArrayLst.containsAll")).toEqual(["coll/AbstractColl.java:AbstractColl.containsAll"]);
  });

  it("is the holder's own when it declares one, as before", () => {
    expect(found("Model.full_clean")).toEqual(["shop/models.py:Model.full_clean"]);
    expect(found("AbstractColl.containsAll")).toEqual(["coll/AbstractColl.java:AbstractColl.containsAll"]);
  });

  it("comes through an interface's interfaces", () => {
    expect(found("Lst.containsAll")).toEqual(["coll/Coll.java:Coll.containsAll"]);
  });

  it("comes through a Ruby mixin of any of a reopened class's declarations, written as Ruby writes it", () => {
    expect(found("Base.establish")).toEqual(["lib/handling.rb:Handling.establish"]);
    expect(found("Base::establish")).toEqual(["lib/handling.rb:Handling.establish"]);
    expect(found("Base.other")).toEqual(["lib/base_more.rb:Base.other"]);
  });

  it("finds nothing when no ancestor declares it, in a cycle of bases, or for a holder that is no type", () => {
    expect(found("Child.nothing")).toEqual([]);
    expect(found("Ping.nothing")).toEqual([]);
    expect(found("helper.save")).toEqual([]);
  });
});
