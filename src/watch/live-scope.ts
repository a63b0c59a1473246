import { loadConfig, type Config } from "../config/config.js";
import { readProjectScope, type ProjectScope } from "../indexer/scope.js";

/**
 * The scope the watcher runs with: the last configuration that loaded, and the indexer's view of the
 * tree under it. A config.toml or codegraph.json that does not load leaves the last valid scope in
 * force and is reported once per distinct error; with none valid yet, `config` is null and syncs wait.
 */
export class LiveScope {
  config: Config | null = null;
  scope: ProjectScope | null = null;
  /** Why the config on disk does not load, or null when it does. */
  error: Error | null = null;
  /**
   * Folders the index enters, as last seen: a folder removed or renamed away sends one event, for itself,
   * and this is how that event is known to matter.
   */
  readonly folders = new Set<string>();
  private key = "";

  constructor(
    private readonly root: string,
    private readonly report: (e: Error) => void,
  ) {}

  /**
   * Load the config again and, when it differs from the running one or `force` is set (a .gitignore
   * changed), re-read the scope. Returns whether the scope was re-read.
   */
  refresh(force: boolean): boolean {
    let config: Config;
    try {
      config = loadConfig(this.root);
      this.error = null;
    } catch (e) {
      const err = e as Error;
      if (this.error?.message !== err.message) {
        const kept = this.config ? " Until then the last valid scope stays in force." : " Nothing syncs until then.";
        this.report(new Error(`${err.message}${kept}`, { cause: e }));
      }
      this.error = err;
      if (!this.config || !force) return false;
      config = this.config; // a .gitignore changed meanwhile: re-read the tree under the last valid config
    }
    const key = JSON.stringify(config.indexing);
    if (!force && this.scope && key === this.key) {
      this.config = config;
      return false;
    }
    this.config = config;
    this.key = key;
    this.scope = readProjectScope(this.root, config.indexing);
    this.folders.clear();
    for (const f of this.scope.folders) this.folders.add(f);
    return true;
  }
}
