import { readFileSync, type Stats } from "node:fs";
import { DEFAULT_MAX_FILE_SIZE, loadConfig } from "../config/config.js";
import { isCodegraphError } from "../core/errors.js";
import { sha256 } from "../core/hash.js";
import { readRegularInside } from "../core/regular-file.js";
import type { Db } from "../store/database.js";
import { fileRecord } from "../store/file-lookup.js";
import { realPathOrGiven } from "../core/paths.js";
import { readInsideProject, resolveProjectPath } from "./read-project-file.js";

/**
 * What the probe found for one file. Only "fresh" is proven; every other state is possibly drifted
 * (spec, "What counts as drift": freshness is fail-closed).
 * - fresh: size + ms mtime match the index, or the sha256 does.
 * - drifted: the bytes differ from the indexed ones.
 * - too-large: a stat mismatch on a file over max_file_size; never read nor hashed.
 * - missing / unreadable / unindexed: no bytes to compare with, or no record to compare against.
 * - outside: the path (or a symlink on it) leaves the project; never read.
 */
export type FileState = "fresh" | "drifted" | "too-large" | "missing" | "unreadable" | "unindexed" | "outside";

export interface FileCheck {
  path: string;
  state: FileState;
  fresh: boolean;
  /** The file's current text (BOM stripped, as the indexer reads it), or null when it was not read. */
  text: string | null;
}

const decoder = new TextDecoder("utf-8");

function decode(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Checks files a response is about to quote against their index records, once per file: create one
 * per tool call. Size + millisecond mtime equal to the record proves freshness without hashing (the
 * same fast path as sync); on a mismatch the sha256 decides. The probe also collects which possibly
 * drifted files the response actually served bytes from, for the stale-index banner.
 */
export class FreshnessProbe {
  private readonly checks = new Map<string, FileCheck>();
  private readonly servedDrifted: string[] = [];
  private maxFileSize: number | undefined;
  /** The root's real path, worked out for the first file: a call quotes several. */
  private realRoot: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly root: string,
    options: { maxFileSize?: number } = {},
  ) {
    this.maxFileSize = options.maxFileSize;
  }

  /** The file's state and current text; memoised, so one call never stats or hashes a file twice. */
  check(path: string): FileCheck {
    let result = this.checks.get(path);
    if (!result) {
      result = this.probe(path);
      this.checks.set(path, result);
    }
    return result;
  }

  /** Record that the response quotes current bytes of `path`; a file not proven fresh joins {@link drifted}. */
  served(path: string): void {
    if (!this.check(path).fresh && !this.servedDrifted.includes(path)) this.servedDrifted.push(path);
  }

  /** Files whose bytes the response served without proof that they match the index: the banner's list. */
  drifted(): string[] {
    return [...this.servedDrifted];
  }

  private limit(): number {
    if (this.maxFileSize === undefined) {
      try {
        this.maxFileSize = loadConfig(this.root).indexing.maxFileSize;
      } catch {
        this.maxFileSize = DEFAULT_MAX_FILE_SIZE; // a broken config is reported by sync, not by a read
      }
    }
    return this.maxFileSize;
  }

  private probe(path: string): FileCheck {
    const out = (state: FileState, text: string | null = null): FileCheck => ({
      path,
      state,
      fresh: state === "fresh",
      text,
    });
    const realRoot = (this.realRoot ??= realPathOrGiven(this.root));
    const record = fileRecord(this.db, path);
    // Opened once, without waiting, and stat'ed through the same descriptor: a FIFO swapped in after
    // the path was resolved is not waited on, what is read is what was compared, and a link out of the
    // project swapped in meanwhile is found on the open file and not read.
    const compare = (fd: number, st: Stats): FileCheck => {
      const statMatches = record !== undefined && record.size === st.size && record.mtimeMs === Math.floor(st.mtimeMs);
      if (!statMatches && st.size > this.limit()) return out("too-large");
      const bytes = readFileSync(fd);
      if (!record) return out("unindexed", decode(bytes));
      if (statMatches) return out("fresh", decode(bytes));
      return out(sha256(bytes) === record.sha256 ? "fresh" : "drifted", decode(bytes));
    };
    // The open file is checked against the project's real path, which a realpath of each quoted file
    // would only repeat (a tenth of an explore on Django went to these probes). Only a file that cannot
    // be read so is resolved, to tell a link out of the project from a missing or unreadable file.
    const read = readInsideProject(this.root, path, realRoot, compare);
    if (read) return read;
    let real: string | null;
    try {
      real = resolveProjectPath(this.root, path, realRoot);
    } catch (e) {
      if (isCodegraphError(e) && e.code === "OUTSIDE_PROJECT") return out("outside");
      throw e;
    }
    if (real === null) return out("missing");
    return readRegularInside(realRoot, real, compare) ?? out("unreadable");
  }
}
