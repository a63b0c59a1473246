import { describe, expect, it } from "vitest";
import { installEnv } from "../../src/install/locations.js";
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
