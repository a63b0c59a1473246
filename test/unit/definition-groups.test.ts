import { describe, expect, it } from "vitest";
import { relations } from "../../src/query/callers.js";
import { renderRelations } from "../../src/render/text.js";
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

// Where a class's own method and its instances' method share a name, or a field and a method do,
// they are two things an agent must tell apart, each with its own callers.
const ERROR_RB = `class Report
  def self.render(value)
    value
  end

  def render
    "x"
  end
end

class Caller
  def run
    Report.render(1)
  end

  def show
    Report.new.render
  end
end
`;

const FORMATTER_PHP = `<?php
class Formatter
{
    protected $format;

    public function format(array $record)
    {
        return $this->format;
    }

    public function formatBatch(array $records)
    {
        return $this->format($records[0]);
    }
}
`;

const sides = useIndexedProject("definition-sides", {
  files: { "lib/report.rb": ERROR_RB, "src/Formatter.php": FORMATTER_PHP },
});

describe("definitions sharing a file and a qualified name, apart", () => {
  it("a class method and an instance method are two definitions, each with its callers", () => {
    const r = relations(sides.db, "Report.render", "callers");
    expect(
      r.groups.map((g) => `${g.definition.startLine}: ${g.rows.map((row) => row.symbol.qualifiedName).join()}`),
    ).toEqual(["2: Caller.run", "6: Caller.show"]);
  });

  it("a property and a method are two definitions", () => {
    const r = relations(sides.db, "Formatter.format", "callers");
    expect(r.groups.map((g) => `${g.definition.kind} ${g.definition.startLine} ${g.overloads}`)).toEqual([
      "property 4 0",
      "method 6 0",
    ]);
    expect(r.groups[1]!.rows.map((row) => row.symbol.qualifiedName)).toEqual(["Formatter.formatBatch"]);
    // A file filter could not pick between them: the answer does not ask for one.
    const text = renderRelations(r);
    expect(text).toContain("2 definitions share this name in src/Formatter.php, each shown above.");
    expect(text).not.toContain("pass file");
  });
});
