import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, run } from "../helpers/cli.js";
import { textOf } from "../helpers/mcp.js";

/**
 * Every target of the installer, run as the built CLI in a scratch HOME and XDG_CONFIG_HOME. The
 * expected paths and shapes are written out here from the issue's table and the agents' documented
 * formats, not read from our source, so a wrong path fails.
 */
type Format = "json" | "jsonc" | "toml" | "yaml";
interface Case {
  id: string;
  /** Relative to HOME ("~/") or XDG_CONFIG_HOME ("xdg/"). */
  global?: string;
  /** Relative to the project root. */
  local?: string;
  format: Format;
  key: [string, string];
  shape: "commandArgs" | "commandArray";
  /** Fields the entry must carry besides the command. */
  fields?: Record<string, unknown>;
  /** Fields the entry must not carry. */
  absent?: string[];
}

const CASES: Case[] = [
  {
    id: "claude",
    global: "~/.claude.json",
    local: ".mcp.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "cursor",
    global: "~/.cursor/mcp.json",
    local: ".cursor/mcp.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "codex",
    global: "~/.codex/config.toml",
    local: ".codex/config.toml",
    format: "toml",
    key: ["mcp_servers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "opencode",
    global: "xdg/opencode/opencode.json",
    local: "opencode.json",
    format: "jsonc",
    key: ["mcp", "codegraph"],
    shape: "commandArray",
    fields: { type: "local" },
  },
  {
    id: "hermes",
    global: "~/.hermes/config.yaml",
    format: "yaml",
    key: ["mcp_servers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "gemini",
    global: "~/.gemini/settings.json",
    local: ".gemini/settings.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "antigravity",
    global: "~/.gemini/antigravity/mcp_config.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "kiro",
    global: "~/.kiro/settings/mcp.json",
    local: ".kiro/settings/mcp.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "trae",
    global: "xdg/Trae/User/mcp.json",
    local: ".trae/mcp.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "qoder",
    global: "xdg/Qoder/SharedClientCache/mcp.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
  },
  {
    id: "zed",
    global: "xdg/zed/settings.json",
    local: ".zed/settings.json",
    format: "jsonc",
    key: ["context_servers", "codegraph"],
    shape: "commandArgs",
    fields: { env: {} },
    absent: ["type"],
  },
  {
    id: "zuno",
    global: "xdg/zuno/zuno.json",
    local: ".zuno/zuno.json",
    format: "jsonc",
    key: ["mcp", "codegraph"],
    shape: "commandArray",
    fields: { type: "local", enabled: true },
  },
  {
    id: "vscode",
    global: "xdg/Code/User/mcp.json",
    local: ".vscode/mcp.json",
    format: "jsonc",
    key: ["servers", "codegraph"],
    shape: "commandArgs",
    fields: { type: "stdio" },
  },
  {
    id: "copilot-cli",
    global: "~/.copilot/mcp-config.json",
    format: "json",
    key: ["mcpServers", "codegraph"],
    shape: "commandArgs",
    fields: { type: "local", tools: ["*"] },
  },
  {
    id: "jetbrains",
    global: "xdg/github-copilot/intellij/mcp.json",
    format: "json",
    key: ["servers", "codegraph"],
    shape: "commandArgs",
    fields: { type: "stdio" },
  },
];

let scratch: string;
let home: string;
let xdg: string;
let project: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "codegraph-install-"));
  home = join(scratch, "home");
  // XDG_CONFIG_HOME outside HOME: a path that ignored it would land in ~/.config instead.
  xdg = join(scratch, "xdg");
  project = join(scratch, "project");
  for (const dir of [home, xdg, join(project, ".git")]) mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The CLI with a scratch HOME and XDG_CONFIG_HOME, and a PATH without any agent (or codegraph) on it
 * unless `env` says otherwise.
 */
function cli(args: string[], env: Record<string, string> = {}) {
  return run(args, {
    cwd: project,
    env: { HOME: home, XDG_CONFIG_HOME: xdg, PATH: dirname(process.execPath), NO_COLOR: "1", ...env },
  });
}

/** A folder holding an executable `codegraph` (a stand-in: only its presence on PATH matters). */
function binWithCodegraph(dir: string): string {
  write(join(dir, "codegraph"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, "codegraph"), 0o755);
  return dir;
}

const withPath = (...dirs: string[]) => ({ PATH: [...dirs, dirname(process.execPath)].join(":") });

function pathOf(spec: string, scope: "global" | "local"): string {
  if (scope === "local") return join(project, spec);
  return spec.startsWith("~/") ? join(home, spec.slice(2)) : join(xdg, spec.slice(4));
}

function write(file: string, text: string) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A file as its agent would read it. */
function parseAs(format: Format, text: string): Record<string, unknown> {
  if (format === "toml") return parseToml(text) as Record<string, unknown>;
  if (format === "yaml") return parseYaml(text) as Record<string, unknown>;
  const errors: unknown[] = [];
  const value = parseJsonc(text, errors as never, { allowTrailingComma: true }) as Record<string, unknown>;
  expect(errors).toEqual([]);
  if (format === "json") expect(() => JSON.parse(text)).not.toThrow();
  return value;
}

function at(doc: Record<string, unknown>, key: readonly string[]): unknown {
  return key.reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], doc);
}

/** A user's existing file: a comment (where the format has them) and another server beside ours. */
function existing(c: Case): string {
  const [container] = c.key;
  switch (c.format) {
    case "toml":
      return `# my settings\nmodel = "o3"\n\n[${container}.other]\ncommand = "other-server"\n`;
    case "yaml":
      return `# my settings\nmodel: o3\n${container}:\n  other:\n    command: other-server # keep me\n`;
    case "jsonc":
      return `{\n  // my settings\n  "theme": "dark",\n  "${container}": {\n    "other": { "command": "other-server" }, // keep me\n  },\n}\n`;
    case "json":
      return `{\n  "theme": "dark",\n  "${container}": {\n    "other": {\n      "command": "other-server"\n    }\n  }\n}\n`;
  }
}

function malformed(format: Format): string {
  return format === "toml"
    ? '[mcp_servers\ncommand = "x"\n'
    : format === "yaml"
      ? "a: [1, 2\nb: }\n"
      : '{\n  "theme": "dark",,\n}\n';
}

function expectOurEntry(c: Case, entry: unknown, scope: "global" | "local") {
  const e = entry as Record<string, unknown>;
  expect(e, `${c.id}: entry at ${c.key.join(".")}`).toBeTypeOf("object");
  const argv =
    c.shape === "commandArray"
      ? (e.command as string[])
      : [e.command as string, ...((e.args as string[] | undefined) ?? [])];
  // Zed cannot pass the workspace to a server, and Kiro starts servers in the home folder: their
  // project entries pin the project's absolute path.
  const pinned = (c.id === "zed" || c.id === "kiro") && scope === "local" ? ["--path", project] : [];
  expect(argv.slice(-2 - pinned.length)).toEqual(["serve", "--mcp", ...pinned]);
  // `codegraph` when on PATH; here it is not, so this very build, run by node.
  expect(argv[0] === "codegraph" || argv.some((a) => a.endsWith(join("dist", "cli", "main.js")))).toBe(true);
  for (const [k, v] of Object.entries(c.fields ?? {})) expect(e[k], `${c.id}: ${k}`).toEqual(v);
  for (const k of c.absent ?? []) expect(e).not.toHaveProperty(k);
}

const scopes = (c: Case) => (["global", "local"] as const).filter((s) => (s === "global" ? c.global : c.local));

describe.each(CASES)("install --target=$id", (c) => {
  it.each(scopes(c))(
    "%s: writes the documented shape into a user's file, once, and uninstall gives the file back",
    async (scope) => {
      const file = pathOf((scope === "global" ? c.global : c.local)!, scope);
      const flag = scope === "local" ? ["--local"] : [];
      const original = existing(c);
      write(file, original);

      const first = await cli(["install", `--target=${c.id}`, ...flag, "--yes"]);
      expect(first.code, first.stderr + first.stdout).toBe(0);
      const installed = readFileSync(file, "utf8");
      const doc = parseAs(c.format, installed);
      expectOurEntry(c, at(doc, c.key), scope);
      expect(at(doc, [c.key[0], "other"])).toEqual({ command: "other-server" });
      expect((doc as { theme?: string; model?: string }).theme ?? (doc as { model?: string }).model).toBeTruthy();
      if (c.format !== "json") expect(installed).toContain(c.format === "jsonc" ? "// my settings" : "# my settings");
      if (c.format !== "json" && c.format !== "toml") expect(installed).toContain("keep me");

      const again = await cli(["install", `--target=${c.id}`, ...flag, "--yes"]);
      expect(again.code).toBe(0);
      expect(readFileSync(file, "utf8")).toBe(installed);

      const removed = await cli(["uninstall", `--target=${c.id}`, ...flag, "--yes"]);
      expect(removed.code, removed.stderr).toBe(0);
      const after = readFileSync(file, "utf8");
      // YAML is re-printed from its document tree: the same data and comments, maybe not the same bytes.
      if (c.format === "yaml") expect(parseAs("yaml", after)).toEqual(parseAs("yaml", original));
      else expect(after).toBe(original);
    },
  );

  it.each(scopes(c))("%s: creates the file when there is none, and uninstall deletes it", async (scope) => {
    const file = pathOf((scope === "global" ? c.global : c.local)!, scope);
    const flag = scope === "local" ? ["--local"] : [];
    const r = await cli(["install", `--target=${c.id}`, ...flag, "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(file.replace(home, "~"));
    expectOurEntry(c, at(parseAs(c.format, readFileSync(file, "utf8")), c.key), scope);
    await cli(["uninstall", `--target=${c.id}`, ...flag, "--yes"]);
    expect(existsSync(file)).toBe(false);
  });

  it("leaves a malformed file untouched, names it, and exits non-zero", async () => {
    const scope = scopes(c)[0]!;
    const file = pathOf((scope === "global" ? c.global : c.local)!, scope);
    const broken = malformed(c.format);
    write(file, broken);
    const r = await cli(["install", `--target=${c.id}`, ...(scope === "local" ? ["--local"] : []), "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(file);
    expect(r.stdout + r.stderr).toMatch(/left untouched/);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });
});

describe("instruction blocks and skill", () => {
  const block = /<!-- BEGIN codegraph[^\n]*-->\n[\s\S]*?<!-- END codegraph -->/g;

  it("Codex global writes the block into ~/.codex/AGENTS.md, keeping the user's text around it byte for byte", async () => {
    const agents = join(home, ".codex", "AGENTS.md");
    const mine = "# My rules\n\nAlways run the tests.\n";
    write(agents, mine);
    expect((await cli(["install", "--target=codex", "--yes"])).code).toBe(0);
    const text = readFileSync(agents, "utf8");
    expect(text.startsWith(mine)).toBe(true);
    expect(text.match(block)).toHaveLength(1);
    for (const tool of [
      "codegraph_explore",
      "codegraph_node",
      "codegraph_search",
      "codegraph_callers",
      "codegraph explore",
    ]) {
      expect(text).toContain(tool);
    }
    // Edited by hand, then installed again: replaced in place, never duplicated.
    writeFileSync(agents, text.replace("Reach for it", "IGNORE THIS") + "\nMore of my text.\n");
    expect((await cli(["install", "--target=codex", "--yes"])).code).toBe(0);
    const again = readFileSync(agents, "utf8");
    expect(again.match(block)).toHaveLength(1);
    expect(again).not.toContain("IGNORE THIS");
    expect(again.endsWith("\nMore of my text.\n")).toBe(true);
    expect((await cli(["uninstall", "--target=codex", "--yes"])).code).toBe(0);
    expect(readFileSync(agents, "utf8")).toBe(`${mine}\nMore of my text.\n`);
  });

  it("Codex local writes AGENTS.md and the skill at the project root, says to trust the project, and its uninstall leaves the global entry", async () => {
    expect((await cli(["install", "--target=codex", "--yes"])).code).toBe(0);
    const globalConfig = readFileSync(join(home, ".codex", "config.toml"), "utf8");
    const local = await cli(["install", "--target=codex", "--local", "--yes"]);
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(/trusted/);
    expect(readFileSync(join(project, "AGENTS.md"), "utf8")).toMatch(block);
    const skill = readFileSync(join(project, ".agents", "skills", "codegraph", "SKILL.md"), "utf8");
    expect(skill).toMatch(/^---\nname: codegraph\ndescription: .+\n---\n/);
    expect(
      at(parseToml(readFileSync(join(project, ".codex", "config.toml"), "utf8")), ["mcp_servers", "codegraph"]),
    ).toBeTruthy();

    expect((await cli(["uninstall", "--target=codex", "--local", "--yes"])).code).toBe(0);
    expect(existsSync(join(project, "AGENTS.md"))).toBe(false);
    expect(existsSync(join(project, ".agents", "skills", "codegraph"))).toBe(false);
    expect(existsSync(join(project, ".codex", "config.toml"))).toBe(false);
    expect(readFileSync(join(home, ".codex", "config.toml"), "utf8")).toBe(globalConfig);
    expect(existsSync(join(home, ".codex", "AGENTS.md"))).toBe(true);
  });

  it("a project's AGENTS.md and skill stay while another agent still uses them", async () => {
    expect((await cli(["install", "--target=codex,zuno", "--local", "--yes"])).code).toBe(0);
    expect((await cli(["uninstall", "--target=codex", "--local", "--yes"])).code).toBe(0);
    expect(readFileSync(join(project, "AGENTS.md"), "utf8")).toMatch(block);
    expect(existsSync(join(project, ".agents", "skills", "codegraph", "SKILL.md"))).toBe(true);
    expect((await cli(["uninstall", "--target=zuno", "--local", "--yes"])).code).toBe(0);
    expect(existsSync(join(project, "AGENTS.md"))).toBe(false);
  });

  it("skill update refreshes blocks and the skill where they are, and creates none", async () => {
    expect((await cli(["install", "--target=gemini", "--yes"])).code).toBe(0);
    expect((await cli(["install", "--target=zuno", "--local", "--yes"])).code).toBe(0);
    const gemini = join(home, ".gemini", "GEMINI.md");
    const skill = join(project, ".agents", "skills", "codegraph", "SKILL.md");
    const fresh = [readFileSync(gemini, "utf8"), readFileSync(skill, "utf8")];
    writeFileSync(gemini, fresh[0]!.replace("codegraph_node", "OLD"));
    writeFileSync(skill, "old skill\n");
    const r = await cli(["skill", "update"]);
    expect(r.code, r.stderr).toBe(0);
    expect([readFileSync(gemini, "utf8"), readFileSync(skill, "utf8")]).toEqual(fresh);
    expect(existsSync(join(home, ".claude", "CLAUDE.md"))).toBe(false);
    expect(existsSync(join(project, "GEMINI.md"))).toBe(false);
  });
});

describe("Claude extras", () => {
  const settings = () => join(home, ".claude", "settings.json");

  it("allows codegraph's tools, adds the prompt hook on request, keeps the user's settings, and uninstall gives them back", async () => {
    const mine = `{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  },\n  "hooks": {\n    "UserPromptSubmit": [\n      { "hooks": [{ "type": "command", "command": "my-hook" }] }\n    ]\n  }\n}\n`;
    write(settings(), mine);
    const r = await cli(["install", "--target=claude", "--prompt-hook", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const doc = parseAs("json", readFileSync(settings(), "utf8")) as {
      permissions: { allow: string[] };
      hooks: { UserPromptSubmit: { hooks: { type: string; command: string }[] }[] };
    };
    expect(doc.permissions.allow).toEqual(["Bash(npm test)", "mcp__codegraph__*"]);
    const commands = doc.hooks.UserPromptSubmit.flatMap((g) => g.hooks.map((h) => h.command));
    expect(commands[0]).toBe("my-hook");
    expect(commands[1]).toMatch(/ prompt-hook$/);
    expect(readFileSync(join(home, ".claude", "CLAUDE.md"), "utf8")).toContain("codegraph_explore");

    const twice = await cli(["install", "--target=claude", "--prompt-hook", "--yes"]);
    expect(twice.stdout).toMatch(/Nothing to change/);

    expect((await cli(["uninstall", "--target=claude", "--yes"])).code).toBe(0);
    expect(readFileSync(settings(), "utf8")).toBe(mine);
    expect(existsSync(join(home, ".claude", "CLAUDE.md"))).toBe(false);
  });

  it("--no-permissions leaves the permissions alone; --local writes the project's .claude/settings.json", async () => {
    expect((await cli(["install", "--target=claude", "--no-permissions", "--yes"])).code).toBe(0);
    expect(existsSync(settings())).toBe(false);
    expect((await cli(["install", "--target=claude", "--local", "--prompt-hook", "--yes"])).code).toBe(0);
    const local = parseAs("json", readFileSync(join(project, ".claude", "settings.json"), "utf8"));
    expect(at(local, ["permissions", "allow"])).toEqual(["mcp__codegraph__*"]);
    expect(JSON.stringify(at(local, ["hooks", "UserPromptSubmit"]))).toContain("prompt-hook");
    expect(readFileSync(join(project, "CLAUDE.md"), "utf8")).toContain("codegraph_explore");
  });
});

describe("Zuno and Zed specifics", () => {
  it("Zuno: a codegraph-mcp-server entry from an older codegraph moves to mcp.codegraph, in the .jsonc the user has", async () => {
    const file = join(xdg, "zuno", "zuno.jsonc");
    write(
      file,
      `{\n  // zuno\n  "mcp": {\n    "codegraph-mcp-server": { "type": "local", "command": ["codegraph-mcp-server"] },\n    "other": { "type": "local", "command": ["x"] },\n  },\n}\n`,
    );
    const r = await cli(["install", "--target=zuno", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(xdg, "zuno", "zuno.json"))).toBe(false);
    const mcp = at(parseAs("jsonc", readFileSync(file, "utf8")), ["mcp"]) as Record<string, unknown>;
    expect(Object.keys(mcp).sort()).toEqual(["codegraph", "other"]);
    expect(readFileSync(file, "utf8")).toContain("// zuno");
    expect(readFileSync(join(xdg, "zuno", "AGENTS.md"), "utf8")).toContain("codegraph_explore");
  });

  it("Zed: the stdio entry is active and the HTTP entry sits beside it, commented, marked RECOMMENDED for remote", async () => {
    expect((await cli(["install", "--target=zed", "--yes"])).code).toBe(0);
    const text = readFileSync(join(xdg, "zed", "settings.json"), "utf8");
    const url = text.split("\n").find((l) => l.includes('"url": "http://localhost:8111/mcp"'));
    expect(url?.trim().startsWith("//")).toBe(true);
    expect(text).toMatch(/\/\/ RECOMMENDED for remote/);
    expect(at(parseAs("jsonc", text), ["context_servers", "codegraph"])).not.toHaveProperty("url");
  });

  it("init --target=zed indexes the project and pins its absolute path in .zed/settings.json; other ids are refused at once", async () => {
    write(join(project, "app.py"), "def main():\n    return 1\n");
    const r = await cli(["init", ".", "--target=zed"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(project, ".codegraph", "graph.db"))).toBe(true);
    const entry = at(parseAs("jsonc", readFileSync(join(project, ".zed", "settings.json"), "utf8")), [
      "context_servers",
      "codegraph",
    ]) as { args: string[] };
    expect(entry.args.slice(-4)).toEqual(["serve", "--mcp", "--path", project]);

    const bad = await cli(["init", ".", "--target=cursor"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/install --target=cursor --local/);
  });
});

describe("choosing targets, printing, and refusing", () => {
  it("detects agents by their folders; without --yes off a terminal it writes nothing and says how to go on", async () => {
    mkdirSync(join(home, ".cursor"));
    mkdirSync(join(xdg, "zed"), { recursive: true });
    const r = await cli(["install"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cursor,zed/);
    expect(r.stderr).toMatch(/--yes/);
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);

    const dry = await cli(["install", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Dry run/);
    expect(dry.stdout).toContain('+       "args"');
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);

    const yes = await cli(["install", "--yes"]);
    expect(yes.code).toBe(0);
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(true);
    expect(existsSync(join(xdg, "zed", "settings.json"))).toBe(true);
    expect(existsSync(join(home, ".claude.json"))).toBe(false);

    // Uninstall without --target finds where we are registered.
    expect((await cli(["uninstall", "--yes"])).code).toBe(0);
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);
    expect(existsSync(join(home, ".cursor"))).toBe(true);
  });

  it("--print-config prints the snippet and writes nothing", async () => {
    const r = await cli(["install", "--print-config=codex", "--local"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[mcp_servers.codegraph]");
    expect(r.stdout).toMatch(/trusted/);
    expect(existsSync(join(project, ".codex"))).toBe(false);
  });

  it("names what was wrong: an unknown target, both scopes, a scope the agent lacks", async () => {
    const unknown = await cli(["install", "--target=emacs", "--yes"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown target "emacs".*claude/);
    const both = await cli(["install", "--target=cursor", "--global", "--local"]);
    expect(both.code).not.toBe(0);
    const hermes = await cli(["install", "--target=hermes", "--local", "--yes"]);
    expect(hermes.code).toBe(1);
    expect(hermes.stdout).toMatch(/Hermes Agent has no project-level MCP config; use --global/);
  });

  it("names a config that is a FIFO and writes nothing, rather than wait for a writer", async () => {
    mkdirSync(join(home, ".cursor"));
    const fifo = join(home, ".cursor", "mcp.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const r = await cli(["install", "--target=cursor", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`cannot read ${fifo}: it is not a readable file; nothing was written.`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("writes through a symlinked config, keeping the link", async () => {
    const real = join(scratch, "dotfiles", "cursor-mcp.json");
    write(real, "{}\n");
    mkdirSync(join(home, ".cursor"));
    symlinkSync(real, join(home, ".cursor", "mcp.json"));
    expect((await cli(["install", "--target=cursor", "--yes"])).code).toBe(0);
    expect(lstatSync(join(home, ".cursor", "mcp.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain('"codegraph"');
  });

  it("writes no project config through a link out of the project, file or folder", async () => {
    const theirs = join(scratch, "theirs");
    write(join(theirs, "victim.json"), '{"mcpServers":{}}\n');
    mkdirSync(join(project, ".cursor"));
    symlinkSync(join(theirs, "victim.json"), join(project, ".cursor", "mcp.json"));
    symlinkSync(theirs, join(project, ".vscode"));
    for (const [target, file] of [
      ["cursor", join(project, ".cursor", "mcp.json")],
      ["vscode", join(project, ".vscode", "mcp.json")],
    ]) {
      const r = await cli(["install", "--local", `--target=${target}`, "--yes"]);
      expect(r.code, target).toBe(1);
      expect(r.stdout + r.stderr).toContain(`${file} leads to `);
      expect(r.stdout + r.stderr).toContain("outside the project: codegraph writes a project's config inside it only.");
    }
    expect(readFileSync(join(theirs, "victim.json"), "utf8")).toBe('{"mcpServers":{}}\n');
    expect(readdirSync(theirs)).toEqual(["victim.json"]);
  });
});

describe("on a terminal", () => {
  /** The CLI on a real pseudo-terminal (util-linux `script`), fed keys once the list is drawn. */
  function onTerminal(args: string, keys: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args}`;
      const child = spawn("script", ["-qfec", command, "/dev/null"], {
        cwd: project,
        env: { HOME: home, XDG_CONFIG_HOME: xdg, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, TERM: "dumb" },
      });
      let out = "";
      let sent = false;
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`no answer on the terminal:\n${out}`));
      }, 20_000);
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (!sent && out.includes("enter confirm")) {
          sent = true;
          // One key per write, as a person types: the list redraws between them.
          keys.forEach((k, i) => setTimeout(() => child.stdin.write(k), 50 * (i + 1)));
        }
      });
      child.on("close", () => {
        clearTimeout(timer);
        resolve(out);
      });
    });
  }

  it("offers every agent with the detected ones ticked; space ticks another, enter installs", async () => {
    mkdirSync(join(home, ".cursor"));
    // The list: detected first (Cursor), then the rest in table order (Claude Code next).
    const out = await onTerminal("install", ["j", " ", "\r"]);
    expect(out).toMatch(/◉ Cursor \(cursor\)/);
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(true);
    expect(existsSync(join(home, ".claude.json"))).toBe(true);
    expect(existsSync(join(home, ".codex"))).toBe(false);
  });

  it("escape cancels and writes nothing", async () => {
    mkdirSync(join(home, ".cursor"));
    const out = await onTerminal("install", ["\x1b"]);
    expect(out).toMatch(/Cancelled/);
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);
  });
});

describe("the entry we write starts a working server", () => {
  it("an agent running .mcp.json's command in the project gets codegraph's tools over MCP", async () => {
    write(join(project, "app.py"), "def greet(name):\n    return helper(name)\n\ndef helper(name):\n    return name\n");
    expect((await cli(["init", "."])).code).toBe(0);
    expect((await cli(["install", "--target=claude", "--local", "--yes"])).code).toBe(0);
    const entry = at(parseAs("json", readFileSync(join(project, ".mcp.json"), "utf8")), [
      "mcpServers",
      "codegraph",
    ]) as {
      command: string;
      args: string[];
    };
    // As Claude Code would: the command and args verbatim, in the project, without a daemon left behind.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: project,
      env: { HOME: home, PATH: dirname(process.execPath), CODEGRAPH_NO_DAEMON: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "install-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("codegraph_explore");
      const callers = await client.callTool({ name: "codegraph_callers", arguments: { symbol: "helper" } });
      expect(textOf(callers)).toContain("greet");
    } finally {
      await client.close();
    }
  });
});

describe("the prompt hook we register runs", () => {
  it("Claude's UserPromptSubmit command, given Claude's payload on stdin, prints the context", async () => {
    write(
      join(project, "billing.py"),
      "def compute_invoice_total(lines):\n    return sum_lines(lines)\n\ndef sum_lines(lines):\n    return sum(lines)\n",
    );
    expect((await cli(["init", "."])).code).toBe(0);
    expect((await cli(["install", "--target=claude", "--prompt-hook", "--yes"])).code).toBe(0);
    const settings = parseAs("json", readFileSync(join(home, ".claude", "settings.json"), "utf8"));
    const [group] = at(settings, ["hooks", "UserPromptSubmit"]) as { hooks: { command: string }[] }[];
    // As Claude Code runs it: through a shell, the JSON payload on stdin, from wherever it was started.
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn("sh", ["-c", group!.hooks[0]!.command], {
        cwd: scratch,
        env: { HOME: home, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` },
      });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))));
      child.stdin.end(JSON.stringify({ prompt: "how does compute_invoice_total add up the lines?", cwd: project }));
    });
    expect(out).toContain("compute_invoice_total");
    expect(out).toContain("billing.py");
  });
});

describe("the command in an entry", () => {
  it("a codegraph that npx or npm put on PATH for the run is not written as `codegraph`: node and this build are", async () => {
    const npx = binWithCodegraph(join(scratch, "npm-cache", "_npx", "0f1e2d3c", "node_modules", ".bin"));
    const local = binWithCodegraph(join(project, "node_modules", ".bin"));
    const transient = await cli(["install", "--print-config=cursor"], withPath(npx, local));
    expect(transient.code, transient.stderr).toBe(0);
    expect(transient.stdout).toContain(`"command": ${JSON.stringify(process.execPath)}`);
    expect(transient.stdout).toContain(join("dist", "cli", "main.js"));

    const lasting = binWithCodegraph(join(scratch, "usr", "local", "bin"));
    const named = await cli(["install", "--print-config=cursor"], withPath(npx, lasting));
    expect(named.stdout).toContain('"command": "codegraph"');
  });

  it("a relative XDG_CONFIG_HOME is ignored: ~/.config is used", async () => {
    const r = await cli(["install", "--print-config=zed"], { XDG_CONFIG_HOME: "rel" });
    expect(r.stdout).toContain(`${join(home, ".config", "zed", "settings.json")}\n`);
  });
});

describe("Claude's prompt hook beside the user's", () => {
  const settings = () => join(home, ".claude", "settings.json");
  type Settings = { hooks?: { UserPromptSubmit?: { hooks: { command: string }[] }[] } };
  const groups = () =>
    ((parseAs("json", readFileSync(settings(), "utf8")) as Settings).hooks?.UserPromptSubmit ?? []).map((g) =>
      g.hooks.map((h) => h.command),
    );

  it("a group shared with the user's hook keeps it: install updates our entry in place, uninstall takes only ours", async () => {
    write(
      settings(),
      '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"~/bin/log-prompt.sh"},{"type":"command","command":"npx codegraph prompt-hook"}]}]}}',
    );
    expect((await cli(["install", "-t", "claude", "--prompt-hook"])).code).toBe(0);
    const installed = groups();
    expect(installed).toHaveLength(1);
    expect(installed[0]![0]).toBe("~/bin/log-prompt.sh");
    expect(installed[0]![1]).toMatch(/dist\/cli\/main\.js prompt-hook$/);
    expect(installed[0]).toHaveLength(2);

    expect((await cli(["uninstall", "-t", "claude"])).code).toBe(0);
    expect(readFileSync(settings(), "utf8")).toBe(
      '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"~/bin/log-prompt.sh"}]}]}}',
    );
  });

  it("the hook an earlier install wrote as node + main.js is found once codegraph is on PATH: one hook, and uninstall takes it", async () => {
    const mine = '{\n  "model": "opus"\n}\n';
    write(settings(), mine);
    const onPath = withPath(binWithCodegraph(join(scratch, "bin")));
    expect((await cli(["install", "-t", "claude", "--prompt-hook", "--no-permissions"])).code).toBe(0);
    expect(groups()).toEqual([[expect.stringMatching(/ prompt-hook$/)]]);
    expect(groups()[0]![0]).not.toBe("codegraph prompt-hook");

    expect((await cli(["install", "-t", "claude", "--prompt-hook", "--no-permissions"], onPath)).code).toBe(0);
    expect(groups()).toEqual([["codegraph prompt-hook"]]);

    // And back: written as `codegraph`, removed by an install that runs as node.
    expect((await cli(["install", "-t", "claude", "--prompt-hook", "--no-permissions"])).code).toBe(0);
    expect(groups()).toHaveLength(1);
    expect((await cli(["uninstall", "-t", "claude"], onPath)).code).toBe(0);
    expect(readFileSync(settings(), "utf8")).toBe(mine);
  });
});

describe("a target that cannot be written", () => {
  it("is reported, and the other targets are still written and reported (exit 1), with --json too", async () => {
    // A regular file where Kiro's settings folder goes: its config cannot be created.
    write(join(home, ".kiro", "settings"), "not a folder\n");
    const json = await cli(["install", "-t", "cursor,kiro,gemini", "--json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { changes: { file: string }[]; errors: string[] };
    expect(report.changes.map((c) => c.file)).toEqual(
      expect.arrayContaining([join(home, ".cursor", "mcp.json"), join(home, ".gemini", "settings.json")]),
    );
    expect(report.changes.some((c) => c.file.includes(".kiro"))).toBe(false);
    expect(report.errors).toEqual([expect.stringMatching(/^Kiro: cannot write .*\.kiro\/settings\/mcp\.json: /)]);
    expect(existsSync(join(home, ".gemini", "settings.json"))).toBe(true);

    const human = await cli(["install", "-t", "kiro,vscode"]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/created +.*Code\/User\/mcp\.json/);
    expect(human.stdout).toMatch(/Error: Kiro: cannot write .*nothing was written to it/);
    expect(existsSync(join(xdg, "Code", "User", "mcp.json"))).toBe(true);
  });

  it("a read-only config is named with the fix and left as it is; a file we rewrite keeps its mode", async () => {
    const cursor = join(home, ".cursor", "mcp.json");
    const gemini = join(home, ".gemini", "settings.json");
    write(cursor, '{"mcpServers": {}}\n');
    chmodSync(cursor, 0o444);
    write(gemini, "{}\n");
    chmodSync(gemini, 0o600);
    const r = await cli(["install", "-t", "cursor,gemini"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Error: Cursor: ${cursor} is read-only (mode 0444)`);
    expect(r.stdout).toContain(`chmod u+w ${cursor}`);
    expect(readFileSync(cursor, "utf8")).toBe('{"mcpServers": {}}\n');
    expect(statSync(cursor).mode & 0o777).toBe(0o444);
    expect(readFileSync(gemini, "utf8")).toContain('"codegraph"');
    expect(statSync(gemini).mode & 0o777).toBe(0o600);
  });
});

describe("configs that are links", () => {
  it("uninstall edits the file the link names, and never deletes the link", async () => {
    const real = join(home, "dot", "m.json");
    write(real, '{"mcpServers":{}}');
    mkdirSync(join(home, ".cursor"));
    const link = join(home, ".cursor", "mcp.json");
    symlinkSync(real, link);
    expect((await cli(["install", "-t", "cursor"])).code).toBe(0);
    expect(readFileSync(real, "utf8")).toContain('"codegraph"');
    const r = await cli(["uninstall", "-t", "cursor"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    // What uninstall leaves of a file it emptied: `{}`, written through the link rather than deleted.
    expect(readFileSync(real, "utf8")).toBe("{}");
  });

  it("a dangling link is named and its target skipped (exit 1); the others are written", async () => {
    mkdirSync(join(home, ".cursor"));
    const link = join(home, ".cursor", "mcp.json");
    const missing = join(home, "dot", "missing.json");
    symlinkSync(missing, link);
    const r = await cli(["install", "-t", "cursor,gemini"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Error: Cursor: ${link} is a symbolic link to ${missing}, which does not exist`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(missing)).toBe(false);
    expect(readFileSync(join(home, ".gemini", "settings.json"), "utf8")).toContain('"codegraph"');
  });
});

describe("byte for byte", () => {
  it("a CRLF config: a second install changes nothing, and uninstall gives the bytes back", async () => {
    const file = join(home, ".kiro", "settings", "mcp.json");
    const original = '{\r\n  "mcpServers": {\r\n    "other": {"command": "x"}\r\n  }\r\n}\r\n';
    write(file, original);
    expect((await cli(["install", "-t", "kiro"])).code).toBe(0);
    const once = readFileSync(file, "utf8");
    expect(once.replace(/\r\n/g, "")).not.toContain("\n");
    const twice = await cli(["install", "-t", "kiro"]);
    expect(twice.stdout).toMatch(/Nothing to change/);
    expect(readFileSync(file, "utf8")).toBe(once);
    expect((await cli(["uninstall", "-t", "kiro"])).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("Codex: a TOML file without a final line break comes back without one", async () => {
    const file = join(home, ".codex", "config.toml");
    write(file, 'model = "o3"');
    expect((await cli(["install", "-t", "codex"])).code).toBe(0);
    expect((await cli(["uninstall", "-t", "codex"])).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe('model = "o3"');
  });

  it("Codex: a header-like line inside a multi-line string is left alone", async () => {
    const file = join(home, ".codex", "config.toml");
    const original = 'notes = """\n[mcp_servers.codegraph]\n"""\n';
    write(file, original);
    const r = await cli(["uninstall", "-t", "codex"]);
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("Codex: our table with a nested array over several lines goes whole, and the file stays valid", async () => {
    const file = join(home, ".codex", "config.toml");
    write(file, 'model = "o3"\n\n[mcp_servers.codegraph]\ncommand = "x"\nargs = [\n "a",\n ["x"]\n]\n');
    const r = await cli(["uninstall", "-t", "codex"]);
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(file, "utf8")).toBe('model = "o3"\n');
  });
});

describe("agents with two possible files", () => {
  it("Antigravity: uninstall finds our entry in the earlier location once Antigravity 2's folder appears", async () => {
    const earlier = join(home, ".gemini", "antigravity", "mcp_config.json");
    expect((await cli(["install", "-t", "antigravity"])).code).toBe(0);
    expect(existsSync(earlier)).toBe(true);
    mkdirSync(join(home, ".gemini", "config"));
    // Without --target: the entry in the other file still counts as registered.
    const r = await cli(["uninstall", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("Antigravity");
    expect(existsSync(earlier)).toBe(false);
  });

  it("opencode: uninstall takes our entry out of opencode.json when an opencode.jsonc has appeared beside it", async () => {
    const json = join(xdg, "opencode", "opencode.json");
    const jsonc = join(xdg, "opencode", "opencode.jsonc");
    expect((await cli(["install", "-t", "opencode"])).code).toBe(0);
    expect(existsSync(json)).toBe(true);
    write(jsonc, '{\n  // mine\n  "theme": "dark"\n}\n');
    const r = await cli(["uninstall", "-t", "opencode"]);
    expect(r.code).toBe(0);
    expect(existsSync(json)).toBe(false);
    expect(readFileSync(jsonc, "utf8")).toBe('{\n  // mine\n  "theme": "dark"\n}\n');
  });
});
