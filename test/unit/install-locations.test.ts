import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installEnv } from "../../src/install/locations.js";
import { isRunScopedBin, serverCommand } from "../../src/install/server-command.js";
import { targetById, type TargetContext } from "../../src/install/targets.js";

/** Where the user-level configs land on each platform (paths joined with this machine's separator). */
function globalFile(id: string, platform: NodeJS.Platform, home: string, env: Record<string, string> = {}) {
  const ctx: TargetContext = {
    env: installEnv({ PATH: "", ...env }, platform, home),
    projectRoot: "/p",
    server: { command: "codegraph", prefix: [] },
  };
  return targetById(id)!.config("global", ctx)!.file;
}

describe("install locations", () => {
  it("Linux: XDG_CONFIG_HOME when set, else ~/.config", () => {
    expect(globalFile("vscode", "linux", "/home/u")).toBe("/home/u/.config/Code/User/mcp.json");
    expect(globalFile("vscode", "linux", "/home/u", { XDG_CONFIG_HOME: "/x" })).toBe("/x/Code/User/mcp.json");
    expect(globalFile("zed", "linux", "/home/u", { XDG_CONFIG_HOME: "/x" })).toBe("/x/zed/settings.json");
  });

  it("a relative XDG_CONFIG_HOME is ignored, as the XDG spec says", () => {
    expect(globalFile("zed", "linux", "/home/u", { XDG_CONFIG_HOME: "rel" })).toBe("/home/u/.config/zed/settings.json");
    expect(globalFile("opencode", "darwin", "/Users/u", { XDG_CONFIG_HOME: "./x" })).toBe(
      "/Users/u/.config/opencode/opencode.json",
    );
  });

  it("macOS: desktop apps under Application Support; XDG-style tools under ~/.config", () => {
    expect(globalFile("vscode", "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/Code/User/mcp.json");
    expect(globalFile("trae", "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/Trae/User/mcp.json");
    expect(globalFile("zed", "darwin", "/Users/u")).toBe("/Users/u/.config/zed/settings.json");
    expect(globalFile("opencode", "darwin", "/Users/u")).toBe("/Users/u/.config/opencode/opencode.json");
  });

  it("Windows: %APPDATA% and %LOCALAPPDATA%", () => {
    const env = { APPDATA: "/w/Roaming", LOCALAPPDATA: "/w/Local" };
    expect(globalFile("vscode", "win32", "/w", env)).toBe("/w/Roaming/Code/User/mcp.json");
    expect(globalFile("zed", "win32", "/w", env)).toBe("/w/Roaming/Zed/settings.json");
    expect(globalFile("jetbrains", "win32", "/w", env)).toBe("/w/Local/github-copilot/intellij/mcp.json");
  });

  it("the agents' own homes: CODEX_HOME, HERMES_HOME, COPILOT_HOME", () => {
    expect(globalFile("codex", "linux", "/h", { CODEX_HOME: "/c" })).toBe("/c/config.toml");
    expect(globalFile("hermes", "linux", "/h", { HERMES_HOME: "/hh" })).toBe("/hh/config.yaml");
    expect(globalFile("copilot-cli", "linux", "/h", { COPILOT_HOME: "/cp" })).toBe("/cp/mcp-config.json");
  });
});

describe("the command an entry runs", () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "codegraph-server-command-"));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** A folder holding an executable `codegraph`. */
  function binWithCodegraph(...parts: string[]): string {
    const dir = join(scratch, ...parts);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "codegraph"), "#!/bin/sh\n");
    chmodSync(join(dir, "codegraph"), 0o755);
    return dir;
  }
  const command = (...dirs: string[]) =>
    serverCommand(
      installEnv({ PATH: dirs.join(delimiter) }, "linux", scratch),
      "/usr/bin/node",
      "/cg/dist/cli/main.js",
    );

  it("a codegraph that npx, npm exec or npm run put on PATH for the run does not count", () => {
    const npx = binWithCodegraph(".npm", "_npx", "0123abcd", "node_modules", ".bin");
    const project = binWithCodegraph("project", "node_modules", ".bin");
    const fallback = { command: "/usr/bin/node", prefix: ["/cg/dist/cli/main.js"] };
    expect(command(npx, project, join(scratch, "empty"))).toEqual(fallback);
    expect(command(`${npx}/`)).toEqual(fallback);
  });

  it("a codegraph in a lasting folder is used by name", () => {
    const npx = binWithCodegraph(".npm", "_npx", "0123abcd", "node_modules", ".bin");
    const global = binWithCodegraph("usr", "local", "bin");
    expect(command(npx, global)).toEqual({ command: "codegraph", prefix: [] });
  });

  it("knows run-scoped folders by their last two parts, on either separator", () => {
    expect(isRunScopedBin("C:\\Users\\u\\AppData\\Local\\npm-cache\\_npx\\ab\\node_modules\\.bin")).toBe(true);
    expect(isRunScopedBin("/usr/lib/node_modules/codegraph/bin")).toBe(false);
    expect(isRunScopedBin("/home/u/.local/bin")).toBe(false);
  });
});
