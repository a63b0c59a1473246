import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A variable and a function may share a file and a qualified name: Express's response.js binds
// `var send = require("send")` above `res.send = function send ..` on its module object. They are
// one definition, answered under the function.

const RESPONSE = `var send = require("send");
var res = (module.exports = {});

res.send = function send(body) {
  return format(body);
};

function format(body) {
  return String(body);
}

res.set = res.header = function header(field) {
  return format(field);
};
`;

const project = useIndexedProject("definition-groups", { files: { "response.js": RESPONSE } });

describe("definitions sharing a qualified name", () => {
  it("are headed by the function, not the variable above it", () => {
    const r = relations(project.db, "send", "callees");
    expect(r.groups).toHaveLength(1);
    expect(r.groups[0]!.definition.kind).toBe("function");
    expect(r.groups[0]!.definition.startLine).toBe(4);
    expect(r.groups[0]!.overloads).toBe(1);
    expect(r.groups[0]!.rows.map((row) => row.symbol.name)).toEqual(["format"]);
  });

  it("are found by the name code calls them with, `res.send`", () => {
    const r = relations(project.db, "res.send", "callees");
    expect(r.groups.map((g) => `${g.definition.kind} ${g.definition.qualifiedName}:${g.definition.startLine}`)).toEqual(
      ["function send:4"],
    );
    expect(relations(project.db, "other.send", "callees").groups).toEqual([]);
  });

  it("are found by each name a chained assignment gives them, `res.set` as `res.header`", () => {
    for (const name of ["res.set", "res.header"]) {
      const r = relations(project.db, name, "callees");
      expect(
        r.groups.map((g) => `${g.definition.qualifiedName}:${g.definition.startLine}`),
        name,
      ).toEqual(["header:12"]);
    }
    expect(relations(project.db, "res.get", "callees").groups).toEqual([]);
  });
});
