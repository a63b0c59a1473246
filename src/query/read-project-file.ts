import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { CodegraphError } from "../core/errors.js";

/**
 * Read a project file's text, refusing any path that leaves the project (`..`, absolute paths
 * elsewhere, symlinks pointing out). Returns null when the file cannot be read.
 */
export function readProjectFile(root: string, relPath: string): string | null {
  const abs = resolve(root, relPath);
  const inside = (p: string, base: string) => {
    const rel = relative(base, p);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  };
  if (!inside(abs, root)) {
    throw new CodegraphError(
      "OUTSIDE_PROJECT",
      `${relPath} is outside the project ${root}; only project files can be read.`,
    );
  }
  try {
    const real = realpathSync(abs);
    if (!inside(real, realpathSync(root))) {
      throw new CodegraphError("OUTSIDE_PROJECT", `${relPath} links outside the project ${root}; it is not read.`);
    }
    return readFileSync(join(real), "utf8");
  } catch (e) {
    if (e instanceof CodegraphError) throw e;
    return null;
  }
}
