import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { CodegraphError } from "../core/errors.js";
import { isLink } from "../core/own-file.js";
import { liesInside, realPathOf, realPathOrGiven } from "../core/paths.js";
import { readRegularFile } from "../core/regular-file.js";

/** What is indexed. */
export interface IndexingConfig {
  /** Globs (project-relative); when non-empty, only matching files are indexed. */
  include: string[];
  /** Globs (project-relative) never indexed, on top of .gitignore and the built-in ignores. */
  exclude: string[];
  /** Files larger than this many bytes are skipped. */
  maxFileSize: number;
  /** Honour .gitignore files (nested ones too). */
  gitignore: boolean;
}

/** How search ranks what it finds. */
export interface RankingConfig {
  /** Globs (project-relative) whose symbols rank below others of equal relevance (still found). */
  deprioritize: string[];
}

export interface Config {
  indexing: IndexingConfig;
  ranking: RankingConfig;
}

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

export function defaultConfig(): Config {
  return {
    indexing: { include: [], exclude: [], maxFileSize: DEFAULT_MAX_FILE_SIZE, gitignore: true },
    ranking: { deprioritize: [] },
  };
}

/** The commented `config.toml` that `init` writes: every default, explained, nothing active. */
export const CONFIG_TEMPLATE = `# codegraph configuration for this project (local; codegraph.json at the root is for the team).
# Every setting below is the default. Uncomment a line to change it; run \`codegraph sync\` after.

[indexing]
# Only index files matching these globs (project-relative). Empty means every supported file.
# include = ["src/**", "lib/**"]

# Never index files matching these globs, in addition to .gitignore and the built-in ignores
# (.git, node_modules, dist, build, target, vendor, .venv, __pycache__, ...).
# exclude = ["**/*.generated.ts", "fixtures/**"]

# Skip files larger than this many bytes (1 MiB).
# max_file_size = 1048576

# Honour .gitignore files, nested ones included.
# gitignore = true

[ranking]
# Search ranks symbols in files matching these globs below others (they are still found). Tests and
# generated files (*.pb.go, *_pb2.py, *.min.js, ...) are always ranked lower. Read on every search.
# deprioritize = ["legacy/**", "examples/**"]
`;

type Raw = Record<string, unknown>;

/**
 * Wildcards (`*`) one path segment of a glob may hold. The matcher backtracks through every way of
 * splitting a name among a segment's wildcards: on a 240-character file name, 3 take 15 ms, 4 take
 * a second and 5 take 37 s, per name. A committed config could otherwise stall every index and
 * search of whoever clones the project.
 */
const MAX_WILDCARDS_PER_SEGMENT = 3;

function strings(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new CodegraphError("BAD_CONFIG", `${where} must be a list of glob strings, like ["src/**"].`);
  }
  for (const glob of value as string[]) {
    const most = Math.max(...glob.split("/").map((segment) => segment.match(/\*+/g)?.length ?? 0));
    if (most > MAX_WILDCARDS_PER_SEGMENT) {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${where}: "${glob.slice(0, 80)}" has ${most} wildcards (*) in one path segment; at most ` +
          `${MAX_WILDCARDS_PER_SEGMENT} are allowed, as matching more can take minutes a file. Split it into simpler patterns.`,
      );
    }
  }
  return value as string[];
}

function applyIndexing(target: IndexingConfig, raw: unknown, where: string): void {
  if (raw === undefined) return;
  if (typeof raw !== "object" || raw === null) throw new CodegraphError("BAD_CONFIG", `${where} must be a table.`);
  const r = raw as Raw;
  const include = strings(r.include, `${where}.include`);
  const exclude = strings(r.exclude, `${where}.exclude`);
  if (include) target.include = include;
  if (exclude) target.exclude = [...target.exclude, ...exclude];
  const size = r.max_file_size ?? r.maxFileSize;
  if (size !== undefined) {
    if (typeof size !== "number" || !Number.isFinite(size) || size < 1) {
      throw new CodegraphError("BAD_CONFIG", `${where}.max_file_size must be a number of bytes, 1 or more.`);
    }
    target.maxFileSize = Math.floor(size);
  }
  if (r.gitignore !== undefined) {
    if (typeof r.gitignore !== "boolean")
      throw new CodegraphError("BAD_CONFIG", `${where}.gitignore must be true or false.`);
    target.gitignore = r.gitignore;
  }
}

function applyRanking(target: RankingConfig, raw: unknown, where: string): void {
  if (raw === undefined) return;
  if (typeof raw !== "object" || raw === null) throw new CodegraphError("BAD_CONFIG", `${where} must be a table.`);
  const deprioritize = strings((raw as Raw).deprioritize, `${where}.deprioritize`);
  if (deprioritize) target.deprioritize = [...target.deprioritize, ...deprioritize];
}

/**
 * A config file's text; one that is not a readable regular file (a FIFO, a folder) is an error naming
 * it. So is a link out of the project (`root`): a parse error quotes the start of what it read.
 */
function configText(path: string, root: string, options: { followLink?: boolean } = {}): string {
  if (options.followLink !== false && isLink(path)) {
    const real = realPathOf(path);
    if (real && !liesInside(real, realPathOrGiven(root))) {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${path} is a link out of the project, and codegraph reads no config from outside it. Replace it with the file, or remove it.`,
      );
    }
  }
  const text = readRegularFile(path, options);
  if (text !== null) return text;
  if (options.followLink === false && isLink(path)) {
    throw new CodegraphError(
      "BAD_CONFIG",
      `${path} is a symbolic link, and codegraph follows no link in .codegraph. Replace it with the file, or remove it.`,
    );
  }
  throw new CodegraphError("BAD_CONFIG", `${path} is not a readable file. Fix or remove it.`);
}

/**
 * The project's configuration: defaults, then the team's `codegraph.json`, then the local
 * `.codegraph/config.toml`. A file that does not parse is an error naming the file and the fix.
 */
export function loadConfig(root: string): Config {
  const config = defaultConfig();
  const jsonPath = join(root, "codegraph.json");
  if (existsSync(jsonPath)) {
    let raw: Raw;
    const text = configText(jsonPath, root);
    try {
      raw = JSON.parse(text) as Raw;
    } catch (e) {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${jsonPath} is not valid JSON: ${(e as Error).message}. Fix or remove it.`,
      );
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new CodegraphError(
        "BAD_CONFIG",
        `${jsonPath} must hold an object, like {"indexing": {"exclude": ["generated/**"]}}. Fix or remove it.`,
      );
    }
    applyIndexing(
      config.indexing,
      raw.indexing ?? pick(raw, ["include", "exclude", "max_file_size", "maxFileSize"]),
      "codegraph.json indexing",
    );
    applyRanking(config.ranking, raw.ranking, "codegraph.json ranking");
  }
  const tomlPath = join(root, ".codegraph", "config.toml");
  if (existsSync(tomlPath)) {
    let raw: Raw;
    const text = configText(tomlPath, root, { followLink: false });
    try {
      raw = parseToml(text) as Raw;
    } catch (e) {
      throw new CodegraphError("BAD_CONFIG", `${tomlPath} is not valid TOML: ${tomlProblem(e)}. Fix or delete it.`);
    }
    applyIndexing(config.indexing, raw.indexing, "config.toml [indexing]");
    applyRanking(config.ranking, raw.ranking, "config.toml [ranking]");
  }
  return config;
}

/**
 * A TOML parse error in one line, with where: the parser's message draws the offending lines under
 * it, which would break every line of a banner or a status that quotes it.
 */
function tomlProblem(e: unknown): string {
  const { message, line, column } = e as Error & { line?: number; column?: number };
  const first = message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
  return line ? `${first} (line ${line}, column ${column})` : first;
}

/** A config for a read that must not fail: the one that loaded, and why the files on disk do not, if they do not. */
export interface LenientConfig {
  config: Config;
  error: string | null;
}

const cached = new Map<string, { stamp: string } & LenientConfig>();

/** Size and mtime of each config file, or "-" when absent: a cheap test of whether either changed. */
function configStamp(root: string): string {
  return [join(root, "codegraph.json"), join(root, ".codegraph", "config.toml")]
    .map((p) => {
      try {
        // No exception for a missing file: most projects have no codegraph.json, and this runs per request.
        const s = statSync(p, { throwIfNoEntry: false });
        return s ? `${s.mtimeMs}:${s.size}` : "-";
      } catch {
        return "-";
      }
    })
    .join("|");
}

/**
 * loadConfig for a read path that runs on every request of a long-lived server (search's ranking
 * rules): the parsed config is reused until either file's mtime or size changes, so an edit is seen
 * on the next request for the price of two stats. A file that does not load leaves the last config
 * that did in force, or the defaults when none has yet, as the watcher keeps its last valid scope: a
 * typo in config.toml must not take search away. The error comes with it, for the answer to name.
 */
export function loadConfigCached(root: string): LenientConfig {
  const stamp = configStamp(root);
  const hit = cached.get(root);
  if (hit && hit.stamp === stamp) return hit;
  let loaded: LenientConfig;
  try {
    loaded = { config: loadConfig(root), error: null };
  } catch (e) {
    if (!(e instanceof CodegraphError) || e.code !== "BAD_CONFIG") throw e;
    loaded = { config: hit?.config ?? defaultConfig(), error: e.message };
  }
  const entry = { stamp, ...loaded };
  cached.set(root, entry);
  return entry;
}

function pick(raw: Raw, keys: string[]): Raw | undefined {
  const out: Raw = {};
  for (const k of keys) if (raw[k] !== undefined) out[k] = raw[k];
  return Object.keys(out).length ? out : undefined;
}
