import { dirOf, joinRel } from "../../core/paths.js";
import type { FileInfo, Lookup } from "../../core/lookup.js";
import { collectionMethods, type LanguageRules, type ProjectContext } from "../rules.js";

const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
/**
 * JavaScript runs the JavaScript beside a declaration file: react-native's `processColor.js` with its
 * `processColor.d.ts`. The declarations describe its types; the calls reach the code.
 */
const JS_EXTENSIONS = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".d.ts", ".mts", ".cts"];
const INDEXES = EXTENSIONS.map((e) => `/index${e}`);
const JS_INDEXES = JS_EXTENSIONS.map((e) => `/index${e}`);

/** A path written in an import, with the extension rules of TypeScript and Node. */
function probe(base: string, lookup: Lookup, from: FileInfo): FileInfo | undefined {
  const exact = lookup.fileByPath(base);
  if (exact) return exact;
  const js = from.language === "javascript";
  // ESM TypeScript imports `./x.js` while the file on disk is `./x.ts`.
  const stripped = base.replace(/\.(m|c)?jsx?$/, "");
  for (const ext of js ? JS_EXTENSIONS : EXTENSIONS) {
    const f = lookup.fileByPath(stripped + ext);
    if (f) return f;
  }
  for (const idx of js ? JS_INDEXES : INDEXES) {
    const f = lookup.fileByPath(base + idx);
    if (f) return f;
  }
  return undefined;
}

function viaTsconfig(spec: string, from: FileInfo, lookup: Lookup, ctx: ProjectContext): FileInfo | undefined {
  // The nearest config above the importing file wins, as in the compiler.
  const configs = ctx.tsconfigs
    .filter((c) => c.dir === "" || from.path.startsWith(`${c.dir}/`))
    .sort((a, b) => b.dir.length - a.dir.length);
  for (const c of configs) {
    const base = joinRel(c.dir, c.baseUrl ?? ".") ?? c.dir;
    for (const [pattern, targets] of Object.entries(c.paths)) {
      const star = pattern.indexOf("*");
      let rest: string | null = null;
      if (star < 0) rest = pattern === spec ? "" : null;
      else if (spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1)))
        rest = spec.slice(star, spec.length - (pattern.length - star - 1));
      if (rest === null) continue;
      for (const t of targets) {
        const rel = joinRel(base, t.replace("*", rest));
        const f = rel !== null ? probe(rel, lookup, from) : undefined;
        if (f) return f;
      }
    }
    if (c.baseUrl !== null) {
      const rel = joinRel(base, spec);
      const f = rel !== null ? probe(rel, lookup, from) : undefined;
      if (f) return f;
    }
  }
  return undefined;
}

export const typescriptRules: LanguageRules = {
  arrayMethods: collectionMethods(
    ["find", "findLast", "at", "pop", "shift"],
    ["slice", "filter", "concat", "reverse", "sort", "toSorted", "toReversed"],
  ),
  resolveModule(spec, from, lookup, ctx) {
    if (spec === "") return [from];
    if (spec.startsWith(".")) {
      const rel = joinRel(dirOf(from.path), spec);
      const f = rel !== null ? probe(rel, lookup, from) : undefined;
      return f ? [f] : [];
    }
    const f = viaTsconfig(spec, from, lookup, ctx);
    return f ? [f] : [];
  },
  selfNames: new Set(["this"]),
  typesApart: true,
  moduleThis: true,
  implicitThis: false,
  sharedFields: true,
  packageOf: () => null,
  exportsOnly: true,
  importsReexport: false,
  reexports: true,
  membersAcrossPackage: false,
};
