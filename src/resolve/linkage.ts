import { CALLABLE_KINDS, TYPE_KINDS, type EdgeKind, type NodeKind } from "../core/kinds.js";
import type { FileInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import { C_FAMILY, cRules, isHeader } from "./languages/c.js";
import type { Resolution } from "./resolver.js";
import type { LanguageRules, ProjectContext } from "./rules.js";

/** The fields of an edge the linker decides; the resolver adds how the name was found. */
export interface LinkedTarget {
  targetId: number;
  kind: EdgeKind;
  /** True when the name was not visible in the file and was found project-wide instead. */
  global: boolean;
}

/**
 * C and C++ linkage: names with external linkage are one per program, however many files declare
 * them. A function declared in a header and defined in a source file is one function, so a call that
 * reaches either reaches both: the definition and every prototype of it (the query tools show one
 * definition's callers whichever is asked for). Overloads (C++) differ by parameter count.
 *
 * A repository may hold several programs, each with its own definition of a name (`main`, `usage`):
 * then a call reaches the definition in its own file, else the one in the source file named after
 * the header that declares it (`util.h` → `util.c`), else only the prototype it saw.
 */
export class Linkage {
  private readonly families = new Map<string, SymbolInfo[]>();
  private readonly closures = new Map<number, Set<number>>();
  private readonly includes = new Map<string, FileInfo[]>();

  constructor(
    private readonly lookup: Lookup,
    private readonly ctx: ProjectContext,
  ) {}

  /**
   * What a bare name means in a file: its own top-level declaration, else the declarations of that
   * name in the headers its includes reach (however deep). Looked up through the project-wide index
   * of names and filtered by the file's include closure, which is computed once per file.
   */
  visible(ref: RefInfo, file: FileInfo, rules: LanguageRules): { symbols: SymbolInfo[]; how: Resolution } | null {
    const own = this.lookup.topLevel(file.id, ref.name).filter((s) => s.kind !== "import");
    if (own.length) return { symbols: own, how: "lexical" };
    const hits = this.included(ref.name, file, rules);
    return hits.length ? { symbols: hits, how: "import" } : null;
  }

  /**
   * The macro, enumerator or global a bare name read in a file is: of the file's own, else of the
   * headers its includes reach; else the project's one global of the name with external linkage
   * (where no header declares it, or one the grammar misread does: xorg-server's
   * `extern _X_EXPORT RESTYPE RT_X;`). A macro or an enumerator is the file's from where it is
   * written, whatever encloses it (a function, a struct); a variable only at the top level. Several
   * in one file are one macro defined under `#if` branches (the first stands for them); in several
   * files, none is chosen. A header's `extern` of a global is one variable with its definition, as a
   * prototype is one function with its: a read reaches both.
   */
  readable(name: string, file: FileInfo, rules: LanguageRules, kinds: ReadonlySet<NodeKind>): SymbolInfo[] {
    const closure = this.closure(file, rules);
    const named = this.lookup.named(name).filter((s) => kinds.has(s.kind));
    let found = named.filter(
      (s) =>
        (s.fileId === file.id || closure.has(s.fileId)) &&
        (s.kind !== "variable" || s.parentId === this.lookup.file(s.fileId)?.nodeId),
    );
    if (found.some((s) => s.fileId === file.id)) found = found.filter((s) => s.fileId === file.id);
    const definitions = () => named.filter((s) => s.kind === "variable" && s.exported && !this.inHeader(s));
    if (!found.length && file.language === "c") {
      found = definitions();
      if (found.length > 1) return [];
    }
    const first = found[0];
    if (!first || found.some((s) => s.fileId !== first.fileId)) return [];
    const hit = found.reduce((a, b) => (b.id < a.id ? b : a));
    if (hit.kind !== "variable" || !hit.exported || !this.inHeader(hit)) return [hit];
    const defined = definitions();
    return defined.length === 1 ? [hit, defined[0]!] : [hit];
  }

  /** The top-level declarations named `name` in the headers a file's includes reach (however deep). */
  included(name: string, file: FileInfo, rules: LanguageRules): SymbolInfo[] {
    const closure = this.closure(file, rules);
    return this.lookup.named(name).filter((s) => {
      if (s.kind === "import" || !closure.has(s.fileId)) return false;
      return s.parentId === this.lookup.file(s.fileId)?.nodeId;
    });
  }

  /** Files a C or C++ file includes, directly or through other headers (itself excluded). */
  includeClosure(file: FileInfo): Set<number> {
    return this.closure(file, cRules);
  }

  /** Files a file includes, directly or through other headers (itself excluded). */
  private closure(file: FileInfo, rules: LanguageRules): Set<number> {
    let out = this.closures.get(file.id);
    if (out) return out;
    out = new Set();
    const queue: FileInfo[] = [file];
    const seen = new Set<number>([file.id]);
    while (queue.length) {
      const f = queue.pop()!;
      for (const b of this.lookup.imports(f.id)) {
        if (b.reexport || b.local !== "*") continue;
        for (const g of this.include(b.specifier, f, rules)) {
          if (seen.has(g.id)) continue;
          seen.add(g.id);
          out.add(g.id);
          queue.push(g);
        }
      }
    }
    this.closures.set(file.id, out);
    return out;
  }

  /** An include's file, cached per folder: quoted includes are looked up beside the includer first. */
  private include(spec: string, from: FileInfo, rules: LanguageRules): FileInfo[] {
    const key = `${from.path.slice(0, from.path.lastIndexOf("/") + 1)}\0${spec}`;
    let hit = this.includes.get(key);
    if (!hit) {
      hit = rules.resolveModule(spec, from, this.lookup, this.ctx);
      this.includes.set(key, hit);
    }
    return hit;
  }

  /**
   * Edges for a reference, from the candidates resolution found in scope. With none, a C call of a
   * bare name reaches the one project definition of that name with external linkage, if there is one,
   * and a C written type the project's one type of that name.
   */
  link(ref: RefInfo, file: FileInfo, candidates: SymbolInfo[]): LinkedTarget[] {
    let list = dedupe(candidates);
    // `#define XkbFreeKeyboard SrvXkbFreeKeyboard` renames the function beside it: a call still
    // reaches the function (the definition is renamed alike).
    if (ref.kind === "calls" && list.length > 1 && list.some((s) => CALLABLE_KINDS.has(s.kind))) {
      // C++ has no variable and function of one name in one scope: such a "variable" is an overload
      // the grammar misread (`R (C::*)(A...)` as a parameter), and the call may be of either.
      if (
        file.language === "cpp" &&
        list.some((v) => v.kind === "variable" && list.some((s) => sameFunctionName(s, v)))
      )
        return [];
      list = list.filter((s) => CALLABLE_KINDS.has(s.kind) || (s.kind !== "constant" && s.kind !== "variable"));
    }
    if (!list.length) {
      if (ref.receiver !== null || file.language !== "c") return [];
      if (ref.kind === "references") return this.globalType(ref);
      return ref.kind === "calls" ? this.global(ref) : [];
    }
    const one = this.oneFunction(list, file.language);
    if (!one) return list.length === 1 ? [this.edge(ref, list[0]!, false)] : [];
    if (!CALLABLE_KINDS.has(one.kind) || !one.exported) return [this.edge(ref, one, false)];
    return this.linked(one, file, ref.argCount).map((s) => this.edge(ref, s, false));
  }

  private global(ref: RefInfo): LinkedTarget[] {
    const defs = this.family(ref.name, ref.name).filter(
      (s) => (s.paramCount === null || ref.argCount === null || s.paramCount === ref.argCount) && !this.inHeader(s),
    );
    if (defs.length !== 1) return [];
    return this.linked(defs[0]!, undefined).map((s) => this.edge(ref, s, true));
  }

  /**
   * The project's one type of a name no include reaches: headers use the types their includers
   * included first (xorg-server's `Xext/panoramiXh.h` writes `ClientPtr` and includes nothing), and
   * a header's `typedef struct store Store` names the struct its source file defines.
   */
  private globalType(ref: RefInfo): LinkedTarget[] {
    const types = this.lookup.named(ref.name).filter((s) => {
      if (!TYPE_KINDS.has(s.kind)) return false;
      const f = this.lookup.file(s.fileId);
      return f !== undefined && C_FAMILY.has(f.language) && s.parentId === f.nodeId;
    });
    return types.length === 1 ? [this.edge(ref, types[0]!, true)] : [];
  }

  /**
   * One function several candidates stand for: the same qualified name, declared again and again; or,
   * in C, `static` definitions of one file (`#ifdef`/`#else` alternatives, a prototype then its
   * definition), the last of them.
   */
  private oneFunction(list: SymbolInfo[], language: string): SymbolInfo | null {
    if (list.length === 1) return list[0]!;
    const first = list[0]!;
    if (
      language === "c" &&
      list.every((s) => CALLABLE_KINDS.has(s.kind) && !s.exported && s.fileId === first.fileId && s.name === first.name)
    )
      return list.reduce((a, b) => (b.id > a.id ? b : a));
    if (!list.every((s) => CALLABLE_KINDS.has(s.kind) && s.qualifiedName === first.qualifiedName && s.exported))
      return null;
    if (language === "cpp" && overloaded(list)) return null;
    const defs = list.filter((s) => !this.inHeader(s));
    return defs.length === 1 ? defs[0]! : defs.length === 0 ? first : null;
  }

  /** The definition and the prototypes a call of `target` reaches. */
  private linked(target: SymbolInfo, from: FileInfo | undefined, argCount: number | null = null): SymbolInfo[] {
    const family = this.family(target.name, target.qualifiedName).filter(
      (s) => s.paramCount === null || target.paramCount === null || s.paramCount === target.paramCount,
    );
    // C++ overloads that can take the call's arguments (or specialisations of one template) are told
    // apart by types: no edge. `names(rt, a, b)` still reaches the variadic `names` beside `names(list)`.
    if (
      from?.language === "cpp" &&
      overloaded(family.filter((s) => s.paramCount === null || argCount === null || s.paramCount === argCount))
    )
      return [];
    const defs = family.filter((s) => !this.inHeader(s));
    const decls = family.filter((s) => this.inHeader(s));
    // One file defining it under several `#if` branches still defines one function.
    if (defs.length >= 1 && defs.every((d) => d.fileId === defs[0]!.fileId)) return dedupe([...defs, ...decls]);
    if (defs.length === 0 || defs.some((d) => d.id === target.id)) return [target];
    // Several programs define it: the caller's own file, else the one named after the header.
    const own = from ? defs.filter((d) => d.fileId === from.id) : [];
    if (own.length === 1) return [own[0]!];
    const header = this.lookup.file(target.fileId);
    const stem = header ? stemOf(header.path) : null;
    const named = defs.filter((d) => {
      const f = this.lookup.file(d.fileId);
      return f !== undefined && stemOf(f.path) === stem;
    });
    return named.length === 1 ? [named[0]!, target] : [target];
  }

  /** Callables with external linkage in C and C++ files, by name and qualified name. */
  private family(name: string, qualifiedName: string): SymbolInfo[] {
    const key = `${name}\0${qualifiedName}`;
    let hit = this.families.get(key);
    if (!hit) {
      hit = this.lookup.named(name).filter((s) => {
        if (!CALLABLE_KINDS.has(s.kind) || !s.exported || s.qualifiedName !== qualifiedName) return false;
        const f = this.lookup.file(s.fileId);
        return f !== undefined && C_FAMILY.has(f.language);
      });
      this.families.set(key, hit);
    }
    return hit;
  }

  private inHeader(s: SymbolInfo): boolean {
    const f = this.lookup.file(s.fileId);
    return f !== undefined && isHeader(f);
  }

  private edge(ref: RefInfo, target: SymbolInfo, global: boolean): LinkedTarget {
    const kind: EdgeKind = ref.kind === "calls" && TYPE_KINDS.has(target.kind) ? "instantiates" : ref.kind;
    return { targetId: target.id, kind, global };
  }
}

/** `src/util.h` → `util`: a header and the source file that implements it share it. */
function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Two declarations of one qualified name and arity in one C++ file are two functions: a file that
 * defines a function keeps no other declaration of it (neither a prototype nor the one in its class),
 * so what is left is overloads told apart by parameter types, specialisations of a class template
 * (`Promise<T>::Swap`, `Promise<void>::Swap`), or rarely `#if` alternatives.
 */
function overloaded(list: SymbolInfo[]): boolean {
  const seen = new Map<number, number>();
  for (const s of list) {
    const other = seen.get(s.fileId);
    if (other !== undefined && other !== s.id) return true;
    seen.set(s.fileId, s.id);
  }
  return false;
}

function sameFunctionName(s: SymbolInfo, v: SymbolInfo): boolean {
  return CALLABLE_KINDS.has(s.kind) && s.fileId === v.fileId && s.qualifiedName === v.qualifiedName;
}

function dedupe(list: SymbolInfo[]): SymbolInfo[] {
  const seen = new Set<number>();
  return list.filter((s) => !seen.has(s.id) && seen.add(s.id));
}
