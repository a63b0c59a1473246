// Corpus helpers: listing a repo's files, the floor's language mapping, and the edit target.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync, existsSync, realpathSync } from "node:fs";
import { join, extname } from "node:path";

export const MAX_FILE_BYTES = 1024 * 1024;

/** The floor's language-by-extension mapping (grammar file base names in tree-sitter-wasms/out). */
export const FLOOR_LANGUAGES = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".java": "java",
  ".rs": "rust",
  ".cs": "c_sharp",
  ".kt": "kotlin",
  ".kts": "kotlin",
  ".swift": "swift",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
  ".rb": "ruby",
  ".php": "php",
};

/** Comment syntax used for the one-line edit, by floor language. */
const COMMENT = {
  typescript: "//",
  tsx: "//",
  javascript: "//",
  python: "#",
  go: "//",
  java: "//",
  rust: "//",
  c_sharp: "//",
  kotlin: "//",
  swift: "//",
  c: "//",
  cpp: "//",
  ruby: "#",
  php: "//",
};

export function languageOf(path) {
  return FLOOR_LANGUAGES[extname(path).toLowerCase()] ?? null;
}

/** Repo folders of a tier (each one a git repository of its own). */
export function listRepos(tierDir) {
  if (!existsSync(tierDir)) return [];
  return readdirSync(tierDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("."))
    .map((d) => d.name)
    .filter((name) => isOwnGitRepo(join(tierDir, name)))
    .sort();
}

/** True when dir is itself the top of a git work tree (not a folder inside an enclosing repo). */
export function isOwnGitRepo(dir) {
  try {
    const top = execFileSync("git", ["-C", dir, "rev-parse", "--show-toplevel"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return realpathSync(top) === realpathSync(dir);
  } catch {
    return false;
  }
}

/**
 * Files of a repo from `git ls-files`, with sizes; files over 1 MiB are skipped (counted).
 * Returns { all: [{path, bytes, lang}], tooBig, byLang: {lang: {files, bytes}} }.
 */
export function listFiles(repoDir) {
  const out = execFileSync("git", ["-C", repoDir, "ls-files", "-z"], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const all = [];
  let tooBig = 0;
  for (const rel of out.split("\0")) {
    if (!rel) continue;
    let st;
    try {
      st = statSync(join(repoDir, rel));
    } catch {
      continue;
    }
    if (!st.isFile()) continue;
    if (st.size > MAX_FILE_BYTES) {
      tooBig++;
      continue;
    }
    all.push({ path: rel, bytes: st.size, lang: languageOf(rel) });
  }
  const byLang = {};
  for (const f of all) {
    const key = f.lang ?? "other:" + (extname(f.path).toLowerCase() || "(none)");
    byLang[key] ??= { files: 0, bytes: 0 };
    byLang[key].files++;
    byLang[key].bytes += f.bytes;
  }
  return { all, tooBig, byLang };
}

/** Summary numbers of a listing: all files, and the floor-parseable subset. */
export function summarize(listing) {
  const parse = listing.all.filter((f) => f.lang);
  const sum = (xs) => xs.reduce((a, f) => a + f.bytes, 0);
  const otherExts = {};
  for (const f of listing.all) {
    if (f.lang) continue;
    const e = extname(f.path).toLowerCase() || "(none)";
    otherExts[e] = (otherExts[e] ?? 0) + 1;
  }
  return {
    files: listing.all.length,
    bytes: sum(listing.all),
    tooBig: listing.tooBig,
    parseFiles: parse.length,
    parseBytes: sum(parse),
    byLang: listing.byLang,
    otherExts,
  };
}

/** Comment syntax of other source files, for repos with no file in the floor's languages. */
const OTHER_COMMENT = {
  ".rs": "//",
  ".php": "//",
  ".c": "//",
  ".h": "//",
  ".cc": "//",
  ".cpp": "//",
  ".rb": "#",
  ".kt": "//",
  ".cs": "//",
  ".swift": "//",
  ".scala": "//",
};

/**
 * The file the edit benchmark appends a comment to: a file near the median size of the most
 * common floor language in the repo (not a test file when possible); when the repo has none,
 * the same among other source files with a known comment syntax. Null if none.
 */
export function pickEditTarget(listing) {
  const langOf = (f) => f.lang ?? (OTHER_COMMENT[extname(f.path).toLowerCase()] ? extname(f.path).toLowerCase() : null);
  let pool = listing.all.filter((f) => f.lang);
  if (pool.length === 0) pool = listing.all.filter((f) => langOf(f));
  if (pool.length === 0) return null;
  const counts = {};
  for (const f of pool) counts[langOf(f)] = (counts[langOf(f)] ?? 0) + 1;
  const lang = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
  const isTest = (p) => /(^|\/)(tests?|__tests__|testing)\/|[._-](test|spec)\.|(^|\/)test_/.test(p);
  let cands = pool.filter((f) => langOf(f) === lang && !isTest(f.path));
  if (cands.length === 0) cands = pool.filter((f) => langOf(f) === lang);
  cands.sort((a, b) => a.bytes - b.bytes || a.path.localeCompare(b.path));
  const f = cands[Math.floor(cands.length / 2)];
  return { path: f.path, lang, bytes: f.bytes, comment: COMMENT[lang] ?? OTHER_COMMENT[lang] };
}
