import { existsSync, statSync } from "node:fs";
import { delimiter, join, posix, win32 } from "node:path";

/**
 * Where agents keep their settings on this machine. Built from the environment once, so tests can
 * point every path at a scratch home.
 */
export interface InstallEnv {
  platform: NodeJS.Platform;
  home: string;
  /**
   * `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config` (also used on macOS by the agents
   * that follow XDG there). The XDG spec says a relative value is invalid and to be ignored.
   */
  xdgConfig: string;
  /** Where desktop apps keep user settings: XDG on Linux, Application Support on macOS, %APPDATA% on Windows. */
  appConfig: string;
  /** %LOCALAPPDATA% on Windows. */
  localAppData: string;
  env: Record<string, string | undefined>;
}

export function installEnv(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  home: string,
): InstallEnv {
  const isAbsolute = platform === "win32" ? win32.isAbsolute : posix.isAbsolute;
  const xdgConfig =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, ".config");
  const appData = env.APPDATA || join(home, "AppData", "Roaming");
  const appConfig =
    platform === "win32" ? appData : platform === "darwin" ? join(home, "Library", "Application Support") : xdgConfig;
  return {
    platform,
    home,
    xdgConfig,
    appConfig,
    localAppData: env.LOCALAPPDATA || join(home, "AppData", "Local"),
    env,
  };
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A program of this name on PATH; folders that `skip` accepts are passed over. */
export function onPath(env: InstallEnv, name: string, skip?: (dir: string) => boolean): string | undefined {
  const exts = env.platform === "win32" ? (env.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (env.env.PATH ?? "").split(delimiter)) {
    if (!dir || skip?.(dir)) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (existsSync(candidate) && !isDir(candidate)) return candidate;
    }
  }
  return undefined;
}

/** `name.jsonc` when the user has one, else `name.json`: agents that accept both read either. */
export function jsoncOrJson(dir: string, name: string): string {
  const jsonc = join(dir, `${name}.jsonc`);
  return existsSync(jsonc) ? jsonc : join(dir, `${name}.json`);
}
