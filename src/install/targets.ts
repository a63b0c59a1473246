import { existsSync } from "node:fs";
import { join } from "node:path";
import { COMMENT_LINES, type JsonObject, type JsonValue } from "./json-render.js";
import { isDir, jsoncOrJson, onPath, type InstallEnv } from "./locations.js";

export type Scope = "global" | "local";

/** How an agent should start our server: `codegraph serve --mcp`, or node and our script when `codegraph` is not on PATH. */
export interface ServerCommand {
  command: string;
  /** Arguments before `serve --mcp` (our script's path when `command` is node). */
  prefix: readonly string[];
}

export interface TargetContext {
  env: InstallEnv;
  /** The project a local install writes into. */
  projectRoot: string;
  server: ServerCommand;
}

/** Our entry in one agent's MCP config file. */
export interface ConfigEntry {
  file: string;
  format: "json" | "toml" | "yaml";
  /** Key path to our entry, e.g. `["mcpServers", "codegraph"]`. */
  key: readonly string[];
  value: JsonValue;
  /** Keys an older codegraph wrote; an install moves them to `key`. */
  legacyKeys?: readonly (readonly string[])[];
  /**
   * The agent's other possible files for this entry (opencode's `.json` beside its `.jsonc`, the two
   * Antigravity locations): `file` is the one preferred now, and an earlier install may have written
   * another one, so uninstall looks in each.
   */
  alsoAt?: readonly string[];
}

export interface Target {
  id: string;
  name: string;
  /** A trace of the agent on this machine: its settings folder, or its program on PATH. */
  detect(env: InstallEnv): boolean;
  /** Undefined where the agent has no config at that scope. */
  config(scope: Scope, ctx: TargetContext): ConfigEntry | undefined;
  /** Markdown files that hold our fenced instruction block. */
  instructionFiles?(scope: Scope, ctx: TargetContext): string[];
  /** A local install also writes the shared `.agents/skills/codegraph/SKILL.md`. */
  localSkill?: boolean;
  /** What the user must still do by hand after an install at this scope. */
  notes?(scope: Scope): string[];
}

export const SERVER_NAME = "codegraph";
const SERVE = ["serve", "--mcp"];

const argv = (s: ServerCommand, extra: readonly string[] = []) => [...s.prefix, ...SERVE, ...extra];
/** `{command, args}`, the shape most agents share. */
const commandAndArgs = (s: ServerCommand, extra: JsonObject = {}): JsonObject => ({
  ...extra,
  command: s.command,
  args: argv(s),
});
/** opencode and Zuno take one string array, program first. */
const localCommandArray = (s: ServerCommand): JsonObject => ({
  type: "local",
  command: [s.command, ...argv(s)],
  enabled: true,
});

const anyOf = (...checks: boolean[]) => checks.some(Boolean);
const mcpServers = (file: string, value: JsonObject): ConfigEntry => ({
  file,
  format: "json",
  key: ["mcpServers", SERVER_NAME],
  value,
});
const codexHome = (env: InstallEnv) => env.env.CODEX_HOME || join(env.home, ".codex");
const hermesHome = (env: InstallEnv) => env.env.HERMES_HOME || join(env.home, ".hermes");
const copilotHome = (env: InstallEnv) => env.env.COPILOT_HOME || join(env.home, ".copilot");
const zedConfigDir = (env: InstallEnv) =>
  env.platform === "win32" ? join(env.env.APPDATA || env.appConfig, "Zed") : join(env.xdgConfig, "zed");
/**
 * Antigravity 2 moved its MCP config to `~/.gemini/config/`; earlier versions read
 * `~/.gemini/antigravity/`. The first is preferred when that folder exists.
 */
const antigravityFiles = (env: InstallEnv) => {
  const files = [
    join(env.home, ".gemini", "config", "mcp_config.json"),
    join(env.home, ".gemini", "antigravity", "mcp_config.json"),
  ];
  return isDir(join(env.home, ".gemini", "config")) ? files : files.reverse();
};
/** `name.jsonc` when the user has one, else `name.json`, and the other for uninstall. */
const jsoncOrJsonEntry = (dir: string, name: string) => {
  const file = jsoncOrJson(dir, name);
  return { file, alsoAt: [join(dir, file.endsWith(".jsonc") ? `${name}.json` : `${name}.jsonc`)] };
};
const jetbrainsCopilotDir = (env: InstallEnv) =>
  env.platform === "win32"
    ? join(env.localAppData, "github-copilot", "intellij")
    : join(env.xdgConfig, "github-copilot", "intellij");

/**
 * The agents we register with. Paths and shapes follow each agent's documentation; where the
 * documentation names no file, the comment says where the path comes from.
 */
export const TARGETS: readonly Target[] = [
  {
    // Claude Code: user scope in ~/.claude.json, project scope in .mcp.json (docs: code.claude.com/docs/en/mcp).
    id: "claude",
    name: "Claude Code",
    detect: (env) =>
      anyOf(!!onPath(env, "claude"), isDir(join(env.home, ".claude")), existsSync(join(env.home, ".claude.json"))),
    config: (scope, { env, projectRoot, server }) =>
      mcpServers(
        scope === "global" ? join(env.home, ".claude.json") : join(projectRoot, ".mcp.json"),
        commandAndArgs(server, { type: "stdio" }),
      ),
    instructionFiles: (scope, { env, projectRoot }) => [
      scope === "global" ? join(env.home, ".claude", "CLAUDE.md") : join(projectRoot, "CLAUDE.md"),
    ],
  },
  {
    // Cursor (docs: cursor.com/docs/context/mcp).
    id: "cursor",
    name: "Cursor",
    detect: (env) => anyOf(isDir(join(env.home, ".cursor")), !!onPath(env, "cursor")),
    config: (scope, { env, projectRoot, server }) =>
      mcpServers(join(scope === "global" ? env.home : projectRoot, ".cursor", "mcp.json"), commandAndArgs(server)),
  },
  {
    // Codex CLI: [mcp_servers.<name>] in config.toml under $CODEX_HOME (docs: developers.openai.com/codex/mcp).
    id: "codex",
    name: "Codex CLI",
    detect: (env) => anyOf(!!onPath(env, "codex"), isDir(codexHome(env))),
    config: (scope, { env, projectRoot, server }) => ({
      file: join(scope === "global" ? codexHome(env) : join(projectRoot, ".codex"), "config.toml"),
      format: "toml",
      key: ["mcp_servers", SERVER_NAME],
      value: commandAndArgs(server),
    }),
    instructionFiles: (scope, { env, projectRoot }) => [
      scope === "global" ? join(codexHome(env), "AGENTS.md") : join(projectRoot, "AGENTS.md"),
    ],
    localSkill: true,
    notes: (scope) =>
      scope === "local"
        ? ["Codex reads a project's .codex/config.toml only in trusted projects: mark this project trusted in Codex."]
        : [],
  },
  {
    // opencode: mcp.<name> = {type: "local", command: [...]} (docs: opencode.ai/docs/mcp-servers; v2 still reads this shape).
    id: "opencode",
    name: "opencode",
    detect: (env) => anyOf(!!onPath(env, "opencode"), isDir(join(env.xdgConfig, "opencode"))),
    config: (scope, { env, projectRoot, server }) => ({
      ...jsoncOrJsonEntry(scope === "global" ? join(env.xdgConfig, "opencode") : projectRoot, "opencode"),
      format: "json",
      key: ["mcp", SERVER_NAME],
      value: localCommandArray(server),
    }),
  },
  {
    // Hermes Agent: mcp_servers in $HERMES_HOME/config.yaml (docs: hermes-agent.nousresearch.com/docs/user-guide/features/mcp).
    id: "hermes",
    name: "Hermes Agent",
    detect: (env) => anyOf(!!onPath(env, "hermes"), isDir(hermesHome(env))),
    config: (scope, { env, server }) =>
      scope === "global"
        ? {
            file: join(hermesHome(env), "config.yaml"),
            format: "yaml",
            key: ["mcp_servers", SERVER_NAME],
            value: commandAndArgs(server),
          }
        : undefined,
  },
  {
    // Gemini CLI (docs: geminicli.com/docs/tools/mcp-server). Not detected by ~/.gemini alone: Antigravity creates it too.
    id: "gemini",
    name: "Gemini CLI",
    detect: (env) => anyOf(!!onPath(env, "gemini"), existsSync(join(env.home, ".gemini", "settings.json"))),
    config: (scope, { env, projectRoot, server }) =>
      mcpServers(join(scope === "global" ? env.home : projectRoot, ".gemini", "settings.json"), commandAndArgs(server)),
    instructionFiles: (scope, { env, projectRoot }) => [
      scope === "global" ? join(env.home, ".gemini", "GEMINI.md") : join(projectRoot, "GEMINI.md"),
    ],
  },
  {
    // Antigravity: mcp_config.json with mcpServers (docs: antigravity.google/docs/mcp). Version 2 reads
    // ~/.gemini/config/ (its migration leaves that folder); earlier versions ~/.gemini/antigravity/.
    id: "antigravity",
    name: "Antigravity IDE",
    detect: (env) =>
      anyOf(
        isDir(join(env.home, ".gemini", "antigravity")),
        isDir(join(env.home, ".gemini", "config")),
        !!onPath(env, "antigravity"),
        !!onPath(env, "agy"),
      ),
    config: (scope, { env, server }) => {
      if (scope !== "global") return undefined;
      const [file, ...alsoAt] = antigravityFiles(env);
      return { ...mcpServers(file!, commandAndArgs(server)), alsoAt };
    },
  },
  {
    // Kiro (docs: kiro.dev/docs/mcp/configuration). A workspace entry pins --path, as the reference
    // advises: Kiro starts servers in the home folder, where there is no project to find.
    id: "kiro",
    name: "Kiro",
    detect: (env) => anyOf(isDir(join(env.home, ".kiro")), !!onPath(env, "kiro"), !!onPath(env, "kiro-cli")),
    config: (scope, { env, projectRoot, server }) =>
      scope === "global"
        ? mcpServers(join(env.home, ".kiro", "settings", "mcp.json"), commandAndArgs(server))
        : mcpServers(join(projectRoot, ".kiro", "settings", "mcp.json"), {
            command: server.command,
            args: argv(server, ["--path", projectRoot]),
          }),
  },
  {
    // Trae: the project file .trae/mcp.json and the mcpServers shape are documented (docs.trae.cn, "MCP"
    // in the Trae docs); the docs name no user-level file, so the global path is the one Trae's own
    // settings UI opens (<app config>/Trae/User/mcp.json), as community installers write it.
    id: "trae",
    name: "Trae",
    detect: (env) => anyOf(isDir(join(env.appConfig, "Trae")), !!onPath(env, "trae")),
    config: (scope, { env, projectRoot, server }) =>
      mcpServers(
        scope === "global" ? join(env.appConfig, "Trae", "User", "mcp.json") : join(projectRoot, ".trae", "mcp.json"),
        commandAndArgs(server),
      ),
    notes: (scope) =>
      scope === "local" ? ['Turn on "Enable Project MCP" in Trae\'s settings to load .trae/mcp.json.'] : [],
  },
  {
    // Qoder: the mcpServers shape is documented (docs.qoder.com/user-guide/chat/model-context-protocol),
    // its file's path is not; <app config>/Qoder/SharedClientCache/mcp.json is where the IDE keeps it.
    id: "qoder",
    name: "Qoder",
    detect: (env) => anyOf(isDir(join(env.appConfig, "Qoder")), !!onPath(env, "qoder")),
    config: (scope, { env, server }) =>
      scope === "global"
        ? mcpServers(join(env.appConfig, "Qoder", "SharedClientCache", "mcp.json"), commandAndArgs(server))
        : undefined,
  },
  {
    // Zed: context_servers, no type field (docs: zed.dev/docs/ai/mcp). A project entry pins --path,
    // because Zed cannot pass the workspace folder to a server.
    id: "zed",
    name: "Zed",
    detect: (env) => anyOf(isDir(zedConfigDir(env)), !!onPath(env, "zed"), !!onPath(env, "zeditor")),
    config: (scope, { env, projectRoot, server }) => ({
      file: scope === "global" ? join(zedConfigDir(env), "settings.json") : join(projectRoot, ".zed", "settings.json"),
      format: "json",
      key: ["context_servers", SERVER_NAME],
      value: {
        command: server.command,
        args: argv(server, scope === "local" ? ["--path", projectRoot] : []),
        env: {},
        [COMMENT_LINES]: [
          "RECOMMENDED for remote development (Zed over SSH): run `codegraph serve --http --detach` on the",
          "remote host, forward its port (ssh -L 8111:localhost:8111 host), and replace the three lines above with:",
          '"url": "http://localhost:8111/mcp"',
        ],
      },
    }),
  },
  {
    // Zuno: mcp.<name> with a string-array command, in zuno.json[c] (the reference's Zuno section).
    id: "zuno",
    name: "Zuno",
    detect: (env) => anyOf(isDir(join(env.xdgConfig, "zuno")), !!onPath(env, "zuno")),
    config: (scope, { env, projectRoot, server }) => ({
      ...jsoncOrJsonEntry(scope === "global" ? join(env.xdgConfig, "zuno") : join(projectRoot, ".zuno"), "zuno"),
      format: "json",
      key: ["mcp", SERVER_NAME],
      value: localCommandArray(server),
      legacyKeys: [["mcp", "codegraph-mcp-server"]],
    }),
    instructionFiles: (scope, { env, projectRoot }) => [
      scope === "global" ? join(env.xdgConfig, "zuno", "AGENTS.md") : join(projectRoot, "AGENTS.md"),
    ],
    localSkill: true,
  },
  {
    // VS Code (GitHub Copilot): `servers`, type required (docs: code.visualstudio.com/docs/copilot/reference/mcp-configuration).
    id: "vscode",
    name: "VS Code (GitHub Copilot)",
    detect: (env) => anyOf(isDir(join(env.appConfig, "Code", "User")), !!onPath(env, "code")),
    config: (scope, { env, projectRoot, server }) => ({
      file:
        scope === "global" ? join(env.appConfig, "Code", "User", "mcp.json") : join(projectRoot, ".vscode", "mcp.json"),
      format: "json",
      key: ["servers", SERVER_NAME],
      value: commandAndArgs(server, { type: "stdio" }),
    }),
  },
  {
    // GitHub Copilot CLI: $COPILOT_HOME/mcp-config.json (docs: docs.github.com, "Adding MCP servers for
    // GitHub Copilot CLI"); it no longer reads XDG_CONFIG_HOME.
    id: "copilot-cli",
    name: "GitHub Copilot CLI",
    detect: (env) => anyOf(!!onPath(env, "copilot"), isDir(copilotHome(env))),
    config: (scope, { env, server }) =>
      scope === "global"
        ? mcpServers(join(copilotHome(env), "mcp-config.json"), {
            type: "local",
            command: server.command,
            args: argv(server),
            tools: ["*"],
          })
        : undefined,
  },
  {
    // JetBrains IDEs (GitHub Copilot plugin): its mcp.json uses VS Code's `servers` shape (docs:
    // docs.github.com, "Extending Copilot Chat with MCP", JetBrains tab). The docs open the file from the
    // IDE without naming it; the plugin keeps it in github-copilot/intellij/ under the user config folder.
    id: "jetbrains",
    name: "JetBrains IDEs (GitHub Copilot)",
    detect: (env) => isDir(jetbrainsCopilotDir(env)),
    config: (scope, { env, server }) =>
      scope === "global"
        ? {
            file: join(jetbrainsCopilotDir(env), "mcp.json"),
            format: "json",
            key: ["servers", SERVER_NAME],
            value: commandAndArgs(server, { type: "stdio" }),
          }
        : undefined,
  },
];

export function targetById(id: string): Target | undefined {
  return TARGETS.find((t) => t.id === id);
}
