import { describe, expect, it } from "vitest";
import { addPromptHook, removePromptHook } from "../../src/install/claude-settings.js";
import { removeBlock, upsertBlock } from "../../src/install/fenced-block.js";
import {
  removeJsonArrayItems,
  removeJsonMember,
  setJsonMember,
  upsertJsonArrayItem,
} from "../../src/install/json-edit.js";
import { COMMENT_LINES } from "../../src/install/json-render.js";
import { removeTomlTable, setTomlTable } from "../../src/install/toml-edit.js";
import type { ServerCommand } from "../../src/install/targets.js";
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

describe("line endings: a CRLF file keeps CRLF, and a second install changes nothing", () => {
  const crlf = (text: string) => text.replace(/\n/g, "\r\n");
  const noBareLf = (text: string) => expect(text.replace(/\r\n/g, "")).not.toContain("\n");

  it("JSON: replacing our entry renders it with CRLF", () => {
    const original = crlf('{\n  "mcpServers": {\n    "other": {"command": "x"}\n  }\n}\n');
    const once = setJsonMember(original, "f.json", key, entry);
    noBareLf(once);
    expect(setJsonMember(once, "f.json", key, entry)).toBe(once);
    const changed = setJsonMember(once, "f.json", key, { ...entry, args: ["serve"] });
    noBareLf(changed);
    expect(removeJsonMember(once, "f.json", key, true)).toBe(original);
  });

  it("JSON arrays: a replaced item is rendered with CRLF", () => {
    const original = crlf('{\n  "list": [\n    {"a": 1}\n  ]\n}\n');
    const is = (v: unknown) => (v as { a?: number }).a !== undefined;
    const added = upsertJsonArrayItem(original, "f.json", ["list"], { a: 2, b: [{ c: 1 }] }, is);
    noBareLf(added);
    expect(upsertJsonArrayItem(added, "f.json", ["list"], { a: 2, b: [{ c: 1 }] }, is)).toBe(added);
  });

  it("TOML: the appended table uses CRLF, and uninstall gives the bytes back", () => {
    const original = crlf('# mine\nmodel = "o3"\n');
    const table = ["mcp_servers", "codegraph"];
    const body = { command: "codegraph", args: ["serve", "--mcp"] };
    const once = setTomlTable(original, "c.toml", table, body);
    noBareLf(once);
    expect(setTomlTable(once, "c.toml", table, body)).toBe(once);
    expect(removeTomlTable(once, "c.toml", table)).toBe(original);
  });

  it("Markdown: the appended block uses CRLF, and removing it gives the bytes back", () => {
    const original = crlf("# Rules\n\nBe kind.\n");
    const once = upsertBlock(original, "A.md", "line one\nline two\n");
    noBareLf(once);
    expect(upsertBlock(once, "A.md", "line one\nline two\n")).toBe(once);
    expect(removeBlock(once, "A.md")).toBe(original);
  });

  it("YAML: the re-printed document keeps CRLF", () => {
    const original = crlf("model: o3\nmcp_servers:\n  other:\n    command: x\n");
    const once = setYamlMember(original, "c.yaml", ["mcp_servers", "codegraph"], { command: "c" });
    noBareLf(once);
    expect(removeYamlMember(once, "c.yaml", ["mcp_servers", "codegraph"])).toBe(original);
  });
});

describe("round trips at the edges of a file", () => {
  const table = ["mcp_servers", "codegraph"];
  const body = { command: "codegraph", args: ["serve", "--mcp"] };

  it("TOML without a final line break: install twice changes nothing more, uninstall gives the bytes back", () => {
    for (const original of ['model = "o3"', 'model = "o3"\n', "[a]\nx = 1\n\n# end"]) {
      const once = setTomlTable(original, "c.toml", table, body);
      expect(setTomlTable(once, "c.toml", table, body)).toBe(once);
      expect(removeTomlTable(once, "c.toml", table)).toBe(original);
    }
  });

  it("Markdown without a final line break: removing our block gives the bytes back", () => {
    const original = "# Rules\n\nBe kind.";
    const once = upsertBlock(original, "A.md", "v1");
    expect(upsertBlock(once, "A.md", "v1")).toBe(once);
    expect(removeBlock(once, "A.md")).toBe(original);
  });

  it("JSON: a container holding only a comment gets its bytes back", () => {
    for (const original of [
      '{\n  "mcpServers": { // none yet\n  }\n}',
      '{\n  "mcpServers": {\n    // servers go here\n  }\n}\n',
      '{\r\n  "mcpServers": { // none yet\r\n  }\r\n}\r\n',
    ]) {
      expect(roundTrip(original)).toContain('"codegraph"');
    }
  });
});

describe("TOML uninstall reads the file as TOML does", () => {
  const table = ["mcp_servers", "codegraph"];

  it("a header-like line inside a multi-line string is no table", () => {
    for (const original of [
      'notes = """\n[mcp_servers.codegraph]\n"""\n',
      "notes = '''\n[mcp_servers.codegraph]\n'''\n",
    ]) {
      expect(removeTomlTable(original, "c.toml", table)).toBe(original);
      const installed = setTomlTable(original, "c.toml", table, { command: "c" });
      expect(installed.startsWith(original)).toBe(true);
      expect(removeTomlTable(installed, "c.toml", table)).toBe(original);
    }
  });

  it("a nested array spanning lines stays inside our table, and goes with it", () => {
    const original =
      'model = "o3"\n\n[mcp_servers.codegraph]\ncommand = "x"\nargs = [\n "a",\n ["x"]\n]\n\n# next\n[other]\ny = 1\n';
    expect(removeTomlTable(original, "c.toml", table)).toBe('model = "o3"\n\n# next\n[other]\ny = 1\n');
  });

  it("refuses a removal that would change the user's settings, and an entry defined by dotted keys", () => {
    // `["mcp_servers.codegraph"]` is one key with a dot in it, which the text finder takes for ours:
    // the parsed result shows that the user's table would go too.
    const decoy = '["mcp_servers.codegraph"]\nx = 1\n\n[mcp_servers.codegraph]\ncommand = "c"\n';
    expect(() => removeTomlTable(decoy, "c.toml", table)).toThrow(/change other settings.*left untouched/);
    expect(() => removeTomlTable('mcp_servers.codegraph.command = "c"\n', "c.toml", table)).toThrow(
      /outside a \[mcp_servers\.codegraph\] table.*left untouched/,
    );
  });
});

describe("Claude's prompt hook", () => {
  const file = "settings.json";
  const atPath: ServerCommand = { command: "codegraph", prefix: [] };
  const viaNode: ServerCommand = { command: "/usr/bin/node", prefix: ["/path/to/dist/cli/main.js"] };
  const commands = (text: string) =>
    (
      JSON.parse(text) as { hooks?: { UserPromptSubmit?: { hooks: { command: string }[] }[] } }
    ).hooks?.UserPromptSubmit?.map((g) => g.hooks.map((h) => h.command)) ?? [];

  it("keeps the user's hooks that share a group with ours: install updates our entry, uninstall takes only it", () => {
    const original =
      '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"~/bin/log-prompt.sh"},{"type":"command","command":"npx codegraph prompt-hook"}]}]}}';
    const installed = addPromptHook(original, file, viaNode);
    expect(commands(installed)).toEqual([
      ["~/bin/log-prompt.sh", "/usr/bin/node /path/to/dist/cli/main.js prompt-hook"],
    ]);
    expect(addPromptHook(installed, file, viaNode)).toBe(installed);
    expect(removePromptHook(installed, file, viaNode)).toBe(
      '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"~/bin/log-prompt.sh"}]}]}}',
    );
  });

  it("a group of ours alone is replaced whole, and removed whole", () => {
    const original =
      '{\n  "hooks": {\n    "UserPromptSubmit": [\n      { "hooks": [{ "type": "command", "command": "mine" }] }\n    ]\n  }\n}\n';
    const installed = addPromptHook(original, file, viaNode);
    expect(commands(installed)).toEqual([["mine"], ["/usr/bin/node /path/to/dist/cli/main.js prompt-hook"]]);
    const moved = addPromptHook(installed, file, atPath);
    expect(commands(moved)).toEqual([["mine"], ["codegraph prompt-hook"]]);
    expect(removePromptHook(moved, file, atPath)).toBe(original);
  });

  it("knows the node form as ours once codegraph is on PATH, quoted or not: one hook stays, uninstall takes all", () => {
    for (const old of [
      "/usr/bin/node /path/to/dist/cli/main.js prompt-hook",
      "'/opt/my node/bin/node' '/home/u/my tools/dist/cli/main.js' prompt-hook",
      '"C:\\\\Program Files\\\\nodejs\\\\node.exe" "C:\\\\src\\\\cg\\\\dist\\\\cli\\\\main.js" prompt-hook',
    ]) {
      const original = JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: old }] },
            {
              hooks: [
                { type: "command", command: "mine" },
                { type: "command", command: old },
              ],
            },
          ],
        },
      });
      const installed = addPromptHook(original, file, atPath);
      expect(commands(installed), old).toEqual([["codegraph prompt-hook"], ["mine"]]);
      expect(commands(removePromptHook(installed, file, atPath))).toEqual([["mine"]]);
      expect(commands(removePromptHook(original, file, atPath))).toEqual([["mine"]]);
    }
  });

  it("leaves other programs' hooks alone", () => {
    const theirs = [
      "node /x/dist/cli/main.js other-hook",
      "/usr/bin/python3 /x/dist/cli/main.js prompt-hook",
      "my-codegraph-notes.sh",
    ];
    const original = JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: theirs.map((command) => ({ type: "command", command })) }] },
    });
    expect(removePromptHook(original, file, atPath)).toBe(original);
    expect(commands(addPromptHook(original, file, atPath))).toEqual([theirs, ["codegraph prompt-hook"]]);
  });
});
