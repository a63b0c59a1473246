import { ANYWHERE, NOWHERE, unionFiles, type NameReach, type NameRole } from "../core/changed-names.js";
import type { Db } from "../store/database.js";
import { filesOfIds, goDotImporters, goFilesByFolder } from "../store/reader.js";
import { isExported } from "../core/go-method-sets.js";
import { getOr } from "../core/group-by.js";
import { dirOf } from "../core/paths.js";

/** A file of the index, as the reach of its names needs it. */
export interface ReachFile {
  id: number;
  path: string;
  language: string;
}

/**
 * Where other files may write a name a file declares or binds, by the part it plays there (see
 * core/changed-names.ts). Asked once the sync's files are written, so that a Go package holds the
 * files it has now.
 *
 * Go only so far: its members are written after a dot alone (`s.buf`, `r.Read()`: Go reaches no
 * field or method bare), a package-level name bare only in its own package (and, exported, in files
 * that import a package with a dot) and after a dot elsewhere if it is exported (`bufio.Scanner`),
 * an import's binding in its own file alone. Every other language: anywhere. A Java or Kotlin field
 * is written bare in a subclass's methods, a Python class attribute in the class body, a Rust enum's
 * variant after `use Enum::*`; those languages would need rules of their own.
 */
export class NameReaches {
  private byFolder: Map<string, ReadonlySet<number>> | null = null;
  private allGo: ReadonlySet<number> | null = null;
  private dotImporters: ReadonlySet<number> | null = null;
  private readonly files = new Map<number, ReachFile | null>();

  constructor(private readonly db: Db) {}

  of(file: ReachFile, role: NameRole, name: string): NameReach {
    if (file.language !== "go") return ANYWHERE;
    // Go files alone resolve Go's names: a method `Buffer` is not what JavaScript's `x.Buffer` reads.
    const goFiles = this.goFiles();
    if (role === "member") return { bare: NOWHERE, dotted: goFiles };
    if (role === "binding") {
      const own = new Set([file.id]);
      return { bare: own, dotted: own };
    }
    const own = this.packages().get(dirOf(file.path)) ?? NOWHERE;
    return isExported(name)
      ? { bare: unionFiles(own, (this.dotImporters ??= new Set(goDotImporters(this.db)))), dotted: goFiles }
      : { bare: own, dotted: NOWHERE };
  }

  private goFiles(): ReadonlySet<number> {
    return (this.allGo ??= new Set([...this.packages()].flatMap(([, ids]) => [...ids])));
  }

  private packages(): Map<string, ReadonlySet<number>> {
    return (this.byFolder ??= goFilesByFolder(this.db));
  }

  /** `of` for a file of the index by its id; anywhere for one it no longer holds. */
  ofFileId(fileId: number, role: NameRole, name: string): NameReach {
    const file = getOr(this.files, fileId, () => filesOfIds(this.db, [fileId])[0] ?? null);
    return file ? this.of(file, role, name) : ANYWHERE;
  }
}
