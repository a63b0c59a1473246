import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CodegraphError } from "../core/errors.js";
import { isWorkspace, scanIndexedChildren } from "./child-scan.js";
import { findIndexedRoot, isUnsafeRoot } from "./root.js";

/** Where the default project came from, for diagnostics. */
export type ProjectSource = "path" | "find-up" | "child-scan" | "client" | "roots";

export interface DefaultProject {
  /** The project tools use when a call names none, or null. */
  root: string | null;
  source: ProjectSource | null;
  /** Indexed projects found below the launch folder when there were several (never guessed between). */
  candidates: string[];
}

/** The downward scan is a directory walk: at most once per this many ms while no project is known. */
const RESCAN_INTERVAL_MS = 5000;

/**
 * A server's default project, resolved from (in order) `--path`, find-up from the working directory,
 * a bounded scan below a workspace folder, and what the client says about its workspace. While none
 * is known, each request probes upward again (cheap) and downward at most every five seconds, so a
 * project indexed after start-up is adopted without a restart.
 */
export class ProjectResolver {
  private root: string | null = null;
  private source: ProjectSource | null = null;
  private candidates: string[] = [];
  private lastScan = -Infinity;

  constructor(
    private readonly cwd: string,
    pinned?: string,
    private readonly now: () => number = () => performance.now(),
    /** False: never look for a default (no find-up, no child scan); only `--path` or explicit paths. */
    readonly discover = true,
  ) {
    if (pinned !== undefined) {
      const abs = resolve(cwd, pinned);
      this.root = findIndexedRoot(abs) ?? abs;
      this.source = "path";
    } else if (discover) this.probe();
  }

  /** The default project as of now, probing again if none is known yet. */
  current(): DefaultProject {
    if (!this.root && this.discover) this.probe();
    return { root: this.root, source: this.source, candidates: this.candidates };
  }

  /** True when `--path` pinned the project: the client's workspace then never overrides it. */
  get pinned(): boolean {
    return this.source === "path";
  }

  /**
   * Adopt the first of the client's workspace folders (URIs or paths) that is indexed, if no default
   * is known yet. Returns the adopted root, or null.
   */
  adoptClientWorkspace(locations: readonly string[], source: "client" | "roots"): string | null {
    if (this.root) return null;
    for (const loc of locations) {
      const dir = toPath(loc);
      const found = dir && isAbsolute(dir) ? findIndexedRoot(dir) : null;
      if (found) {
        this.root = found;
        this.source = source;
        return found;
      }
    }
    return null;
  }

  /**
   * The project an explicit `projectPath` names. It is authoritative: it need not be the default,
   * but it must exist and be indexed (at or above the path).
   */
  explicit(projectPath: string): string {
    const dir = toPath(projectPath);
    const abs = dir ? resolve(this.cwd, dir) : null;
    const stat = abs ? statSync(abs, { throwIfNoEntry: false }) : undefined;
    if (!abs || !stat) {
      throw new CodegraphError(
        "BAD_INPUT",
        `The projectPath ${abs ?? projectPath} does not exist on this machine: pass the folder of an indexed project (an absolute path, or a file:// URI).`,
      );
    }
    if (!stat.isDirectory()) {
      throw new CodegraphError(
        "BAD_INPUT",
        `The projectPath ${abs} is a file, not a folder: pass the project's folder (the one holding .codegraph), and name the file in the tool's own arguments.`,
      );
    }
    const found = findIndexedRoot(abs);
    if (!found) throw new CodegraphError("NOT_INDEXED", notIndexedAdvice(abs));
    return found;
  }

  private probe() {
    const up = findIndexedRoot(this.cwd);
    if (up) {
      this.root = up;
      this.source = "find-up";
      this.candidates = [];
      return;
    }
    const t = this.now();
    if (t - this.lastScan < RESCAN_INTERVAL_MS) return;
    this.lastScan = t;
    if (isUnsafeRoot(this.cwd) || !isWorkspace(this.cwd)) return;
    const found = scanIndexedChildren(this.cwd);
    if (found.length === 1) {
      this.root = found[0]!;
      this.source = "child-scan";
      this.candidates = [];
    } else this.candidates = found;
  }
}

/**
 * What to do about a `projectPath` with no index: index it, unless it is too broad to be a project
 * (`init` refuses the home folder and the filesystem root), or a workspace whose indexed projects
 * lie below it: then name those.
 */
function notIndexedAdvice(abs: string): string {
  if (isUnsafeRoot(abs)) {
    return `${abs} is the filesystem root or your home folder, which codegraph does not index. Pass the project's own folder as projectPath.`;
  }
  // A folder the user named (`~/projects`), repository or not: the projects below it are the advice.
  const below = scanIndexedChildren(abs, { anyFolder: true });
  if (below.length) {
    return `${abs} has no codegraph index of its own; the indexed projects below it are ${below.join(", ")}. Pass one of them as projectPath.`;
  }
  return `${abs} has no codegraph index. Run \`codegraph init ${abs}\` first, then call again.`;
}

/** A `file://` URI as a path, a path as itself; null for other URI schemes. */
function toPath(location: string): string | null {
  if (location.startsWith("file:")) {
    try {
      return fileURLToPath(location);
    } catch {
      return null;
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return null;
  return location;
}
