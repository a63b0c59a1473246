import type { ExtractResult } from "../core/extraction.js";
import type { LanguageId } from "../extract/language.js";

/** A file for a parse worker to read and extract. */
export interface ParseJob {
  path: string;
  language: LanguageId;
  /** Size on disk when scanned, to plan the work. */
  size: number;
}

export type ParseOutcome =
  | {
      path: string;
      language: LanguageId;
      ok: true;
      size: number;
      mtimeMs: number;
      sha256: string;
      result: ExtractResult;
    }
  | { path: string; language: LanguageId; ok: false; size: number; mtimeMs: number; reason: string };
