import { describe, expect, it } from "vitest";
import { removeBlock, upsertBlock } from "../../src/install/fenced-block.js";
import {
  removeJsonArrayItems,
  removeJsonMember,
  setJsonMember,
  upsertJsonArrayItem,
} from "../../src/install/json-edit.js";
import { COMMENT_LINES } from "../../src/install/json-render.js";
import { removeTomlTable, setTomlTable } from "../../src/install/toml-edit.js";
import { removeYamlMember, setYamlMember } from "../../src/install/yaml-edit.js";

const entry = { command: "codegraph", args: ["serve", "--mcp"] };
const key = ["mcpServers", "codegraph"];

/** Install then uninstall must give the original bytes back. */
function roundTrip(original: string) {
  const installed = setJsonMember(original, "f.json", key, entry);
  expect(JSON.stringify(installed)).not.toBe(JSON.stringify(original));
  expect(removeJsonMember(installed, "f.json", key, true)).toBe(original);
  return installed;
}

describe("JSON(C) edits keep the user's bytes", () => {
  it("adds beside a sibling without re-formatting it, and a trailing comment stays on its line", () => {
    const original = '{\n  "mcpServers": {\n    "x": {"command": "y"}, // mine\n  },\n}\n';
    const installed = roundTrip(original);
    // Trailing commas in the file: ours gets one too.
    expect(installed).toContain('    "x": {"command": "y"}, // mine\n    "codegraph": {');
    expect(installed).toMatch(/"--mcp"\]\n {4}\},\n {2}\},\n\}\n$/);
  });

  it("keeps the last member's comment on its line when the file has no trailing commas", () => {
    for (const comment of ["// c-b", "/* c-b */"]) {
      for (const eol of ["\n", "\r\n"]) {
        const original = [
          "{",
          '  "mcpServers": {',
          '    "a": { "command": "a" }, // c-a',
          `    "b": { "command": "b" } ${comment}`,
          "  }",
          "}",
          "",
        ].join(eol);
        const installed = roundTrip(original);
        expect(installed).toContain(`    "b": { "command": "b" }, ${comment}${eol}    "codegraph": {`);
        expect(JSON.stringify(installed.match(/"codegraph"[\s\S]*/)?.[0])).not.toContain("c-b");
      }
    }
  });

  it("removes our entry from between two members, whichever comma style", () => {
    for (const original of [
      '{\n  "mcpServers": {\n    "a": 1,\n    "codegraph": {"command": "c"},\n    "b": 2\n  }\n}\n',
      '{\n  "mcpServers": {\n    "a": 1, // a\n    "codegraph": {"command": "c"},\n    "b": 2,\n  }\n}\n',
    ]) {
      const removed = removeJsonMember(original, "f.json", key, true);
      expect(removed).toBe(original.replace(/\n {4}"codegraph": \{"command": "c"\},/, ""));
    }
  });

  it("follows the file's indentation (tabs) and one-line style", () => {
    expect(roundTrip('{\n\t"a": 1\n}\n')).toContain('\n\t"mcpServers": {\n\t\t"codegraph": {\n\t\t\t"command"');
    expect(roundTrip('{"a": 1}\n')).toBe(
      '{"a": 1, "mcpServers": {"codegraph": {"command": "codegraph", "args": ["serve", "--mcp"]}}}\n',
    );
  });

  it("opens up an empty object, and closes it again", () => {
    expect(roundTrip("{}\n")).toBe(
      '{\n  "mcpServers": {\n    "codegraph": {\n      "command": "codegraph",\n      "args": ["serve", "--mcp"]\n    }\n  }\n}\n',
    );
  });

  it("keeps a container that holds a comment of the user's", () => {
    const original = '{\n  "mcpServers": {\n    // servers go here\n  }\n}\n';
    const installed = setJsonMember(original, "f.json", key, entry);
    const removed = removeJsonMember(installed, "f.json", key, true);
    expect(removed).toContain("// servers go here");
    expect(removed).toContain('"mcpServers"');
  });

  it("replaces our value in place on a second install", () => {
    const once = setJsonMember("{}\n", "f.json", key, entry);
    const changed = setJsonMember(once, "f.json", key, { ...entry, args: ["serve", "--mcp", "-p", "/x"] });
    expect(changed.match(/"codegraph":/g)).toHaveLength(1);
    expect(changed).toContain('"-p", "/x"');
  });

  it("writes comment lines inside our own entry, so removing the entry removes them", () => {
    const original = '{\n  "theme": "dark"\n}\n';
    const installed = setJsonMember(original, "f.json", key, { ...entry, [COMMENT_LINES]: ["alternative"] });
    expect(installed).toContain('      "args": ["serve", "--mcp"]\n      // alternative\n    }');
    expect(removeJsonMember(installed, "f.json", key, true)).toBe(original);
  });

  it("upserts and removes array items without touching the others", () => {
    const original = '{\n  "permissions": {\n    "allow": ["Bash(ls)"]\n  }\n}\n';
    const is = (v: unknown) => v === "mine";
    const added = upsertJsonArrayItem(original, "f.json", ["permissions", "allow"], "mine", is);
    expect(added).toContain('["Bash(ls)", "mine"]');
    expect(upsertJsonArrayItem(added, "f.json", ["permissions", "allow"], "mine", is)).toBe(added);
    expect(removeJsonArrayItems(added, "f.json", ["permissions", "allow"], is, true)).toBe(original);
  });

  it("refuses a malformed file with its line and column, and a container of the wrong type", () => {
    expect(() => setJsonMember('{\n  "a": 1,,\n}', "bad.json", key, entry)).toThrow(
      /bad\.json:2:\d+: .*left untouched/,
    );
    expect(() => setJsonMember('{"mcpServers": []}', "bad.json", key, entry)).toThrow(/"mcpServers" is an array/);
    expect(() => setJsonMember("[1]", "bad.json", key, entry)).toThrow(/object at the top level/);
  });
});

describe("TOML tables", () => {
  const table = ["mcp_servers", "codegraph"];
  const body = { command: "codegraph", args: ["serve", "--mcp"] };

  it("appends our table after a blank line and removes exactly that", () => {
    const original = '# mine\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n';
    const installed = setTomlTable(original, "c.toml", table, body);
    expect(installed).toBe(`${original}\n[mcp_servers.codegraph]\ncommand = "codegraph"\nargs = ["serve", "--mcp"]\n`);
    expect(removeTomlTable(installed, "c.toml", table)).toBe(original);
  });

  it("replaces our table (and its sub-tables) in place, leaving the next table's comment", () => {
    const original =
      '[mcp_servers.codegraph]\ncommand = "old"\n\n[mcp_servers.codegraph.env]\nA = "1"\n\n# the next one\n[other]\nx = 1\n';
    const installed = setTomlTable(original, "c.toml", table, body);
    expect(installed).toBe(
      '[mcp_servers.codegraph]\ncommand = "codegraph"\nargs = ["serve", "--mcp"]\n\n# the next one\n[other]\nx = 1\n',
    );
  });

  it("refuses a malformed file, and an entry defined in a form we do not edit", () => {
    expect(() => setTomlTable("[a\n", "c.toml", table, body)).toThrow(/c\.toml:1:\d+.*left untouched/);
    expect(() => setTomlTable('mcp_servers = { codegraph = { command = "x" } }\n', "c.toml", table, body)).toThrow(
      /left untouched/,
    );
  });
});

describe("YAML", () => {
  it("keeps comments and siblings, and removal empties only what we made", () => {
    const original = "# mine\nmodel: o3 # keep\nmcp_servers:\n  other:\n    command: x\n";
    const installed = setYamlMember(original, "c.yaml", ["mcp_servers", "codegraph"], {
      command: "codegraph",
      args: ["serve"],
    });
    expect(installed).toContain("# keep");
    expect(installed).toContain("  codegraph:\n    command: codegraph");
    expect(removeYamlMember(installed, "c.yaml", ["mcp_servers", "codegraph"])).toBe(original);
  });

  it("fills a bare `mcp_servers:` key", () => {
    expect(setYamlMember("mcp_servers:\n", "c.yaml", ["mcp_servers", "codegraph"], { command: "c" })).toContain(
      "codegraph:\n    command: c",
    );
  });
});

describe("fenced blocks", () => {
  it("appends after a blank line, replaces in place, removes to the byte", () => {
    const mine = "# Rules\n\nBe kind.\n";
    const once = upsertBlock(mine, "A.md", "v1");
    expect(once.startsWith(`${mine}\n<!-- BEGIN codegraph`)).toBe(true);
    const twice = upsertBlock(`${once}After.\n`, "A.md", "v2");
    expect(twice).toContain("v2");
    expect(twice).not.toContain("v1");
    expect(twice.endsWith("After.\n")).toBe(true);
    expect(removeBlock(once, "A.md")).toBe(mine);
  });

  it("refuses a block with one marker missing", () => {
    expect(() => upsertBlock("<!-- BEGIN codegraph -->\nhalf\n", "A.md", "x")).toThrow(/no END marker/);
  });
});
