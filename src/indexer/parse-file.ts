import { join } from "node:path";
import { realPathOrGiven } from "../core/paths.js";
import { extractSource } from "../extract/parser.js";
import type { LanguageId } from "../extract/language.js";
import type { ParseJob, ParseOutcome } from "./messages.js";
import { readSource } from "./read-source.js";

/** Each project's real path, worked out once per thread: every file read is checked against it. */
const realRoots = new Map<string, string>();
const realRootOf = (root: string) => {
  let real = realRoots.get(root);
  if (real === undefined) realRoots.set(root, (real = realPathOrGiven(root)));
  return real;
};

/** Read, hash and extract one file. Never throws: a bad file becomes a skip with its reason. */
export async function parseFile(root: string, job: ParseJob, maxSize: number): Promise<ParseOutcome> {
  const read = readSource(join(root, job.path), maxSize, realRootOf(root));
  if (!read.ok) return { ...job, ok: false, size: read.size, mtimeMs: read.mtimeMs, reason: read.reason };
  try {
    const result = await extractSource(job.language, read.text, job.path);
    // A `.h` whose text is C++ is stored as C++.
    const language = (result.language as LanguageId | undefined) ?? job.language;
    return { ...job, language, ok: true, size: read.size, mtimeMs: read.mtimeMs, sha256: read.sha256, result };
  } catch (e) {
    return {
      ...job,
      ok: false,
      size: read.size,
      mtimeMs: read.mtimeMs,
      reason: `parse failed: ${(e as Error).message}`,
    };
  }
}
