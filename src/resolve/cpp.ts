import { isHeaderPath } from "../core/c-family-paths.js";
import { ALIAS_OF, USING_NAME, USING_NAMESPACE } from "../core/extraction.js";
import { CALLABLE_KINDS, TYPE_KINDS, type NodeKind } from "../core/kinds.js";
import type { FileInfo, LocalTypeInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import { C_FAMILY } from "./languages/c.js";
import type { Linkage } from "./linkage.js";
import type { Resolution, ResolvedEdge } from "./resolver.js";
import type { LanguageRules } from "./rules.js";
import { CALL_TARGETS, MAX_DEPTH } from "./reach.js";

/** Where a reference is written: its function, the class it belongs to, and the names in scope. */
interface Scope {
  cls: SymbolInfo | null;
  /** Qualified-name prefixes to try, innermost first: `geo.Shape`, `geo`, `` (the global namespace). */
  prefixes: string[];
  /** Namespaces brought in by `using namespace`, as qualified-name prefixes. */
  usings: string[];
  /** `using a::f;`: f's qualified name. */
  usingNames: Map<string, string>;
  /** The function or method around the reference, for its parameters and locals. */
  callable: SymbolInfo | null;
  /** The enclosing class has a base we cannot find (a library's): an unknown member may be its. */
  openBases: boolean;
}

interface Found {
  symbols: SymbolInfo[];
  how: Resolution;
  /** Found project-wide, not through the file's includes. */
  global?: boolean;
}

/**
 * C++ names, resolved by qualified name. Every C++ declaration's qualified name is complete (the
 * extractor writes out-of-line members and namespaces into it), so a name written in code is looked
 * up as the qualified names it may stand for, innermost scope first: members of the enclosing class
 * and its bases, then each enclosing namespace, then namespaces brought in by `using`. Declarations
 * in the file and in the headers it includes come first; a function no include declares is reached
 * project-wide only when exactly one definition has that qualified name. Linkage (`linkage.ts`) then
 * ties a member's declaration in its class to its out-of-line definition.
 */
export class CppScopes {
  private readonly byName = new Map<string, SymbolInfo[]>();
  private readonly typeCache = new Map<string, SymbolInfo | null>();
  private readonly basesCache = new Map<number, { bases: SymbolInfo[]; open: boolean }>();
  private readonly typeIndex = new Map<number, Map<string, string>>();
  private readonly usings = new Map<number, readonly LocalTypeInfo[]>();

  constructor(
    private readonly lookup: Lookup,
    private readonly linkage: Linkage,
  ) {}

  /** Edges for a C++ reference (`_rules` are C++'s: includes and linkage come from them elsewhere). */
  resolve(ref: RefInfo, file: FileInfo, _rules: LanguageRules): ResolvedEdge[] {
    const scope = this.scope(ref.fromId, file);
    switch (ref.kind) {
      case "extends":
      case "implements":
      case "instantiates":
      case "references": {
        const written = ref.receiver ? `${ref.receiver}.${ref.name}` : ref.name;
        const from = this.lookup.symbol(ref.fromId);
        // A class's base is looked up from the scope around the class, not inside it.
        const prefixes = from && TYPE_KINDS.has(from.kind) ? chain(parentOf(from.qualifiedName)) : scope.prefixes;
        const t = this.typeNamed(written, file, [...prefixes, ...scope.usings]);
        if (!t || t.id === ref.fromId) return [];
        return [{ targetId: t.id, kind: ref.kind, resolution: ref.kind === "extends" ? "inherited" : "lexical" }];
      }
      case "overrides": {
        if (!scope.cls) return [];
        const self = this.lookup.symbol(ref.fromId);
        for (const base of this.bases(scope.cls, 0).bases) {
          let hits = this.members(base, ref.name, 0).symbols.filter((s) => CALLABLE_KINDS.has(s.kind));
          // Of overloads, the one taking as many parameters; several such in the class are told
          // apart by types (jsi's four `strictEquals(a, b)`): no edge.
          const count = self?.paramCount ?? null;
          if (count !== null && hits.length > 1) {
            const same = hits.filter((s) => s.paramCount === null || s.paramCount === count);
            if (same.length) hits = same;
          }
          const own = hits.filter((s) => s.fileId === base.fileId);
          if (own.length > 1) return [];
          const first = own[0] ?? hits[0];
          if (first) return [{ targetId: first.id, kind: "overrides", resolution: "inherited" }];
        }
        return [];
      }
      case "calls":
        return this.call(ref, file, scope);
      default:
        return [];
    }
  }

  /**
   * The one constant, enumerator or field of `kinds` a name read reaches, bare or through a scope
   * (`Color::Red`), as a call of it would be looked up; null when the scopes find none of them.
   */
  read(ref: RefInfo, file: FileInfo, kinds: ReadonlySet<NodeKind>): SymbolInfo | null {
    const found = this.callTarget(ref, file, this.scope(ref.fromId, file));
    const hits = found?.symbols.filter((s) => kinds.has(s.kind)) ?? [];
    return hits.length && hits.every((s) => s.id === hits[0]!.id) ? hits[0]! : null;
  }

  private call(ref: RefInfo, file: FileInfo, scope: Scope): ResolvedEdge[] {
    const found = this.callTarget(ref, file, scope);
    if (!found) return [];
    let candidates = found.symbols.filter((s) => CALL_TARGETS.has(s.kind));
    if (candidates.length > 1 && ref.argCount !== null) {
      const byArity = candidates.filter((s) => s.paramCount === null || s.paramCount === ref.argCount);
      if (byArity.length > 0) candidates = byArity;
    }
    return this.linkage.link(ref, file, candidates).map((t) => ({
      targetId: t.targetId,
      kind: t.kind,
      resolution: found.global ? "package" : found.how,
    }));
  }

  private callTarget(ref: RefInfo, file: FileInfo, scope: Scope): Found | null {
    const { receiver, name } = ref;
    if (receiver === "?") return null;
    if (receiver === null) {
      // Inside a class: its members and its bases' come first.
      if (scope.cls) {
        const m = this.members(scope.cls, name, 0);
        if (m.symbols.length) return { symbols: m.symbols, how: m.inherited ? "inherited" : "member" };
      }
      const alias = scope.usingNames.get(name);
      if (alias) {
        const hit = this.qualified(name, [alias], file);
        if (hit) return hit;
      }
      const names = [...scope.prefixes, ...scope.usings].map((p) => (p ? `${p}.${name}` : name));
      const hit = this.qualified(name, names, file);
      if (hit) return hit;
      // Nothing visible declares it: the project's one function of that qualified name, unless a base
      // we cannot see (a library class) may declare it.
      if (scope.openBases) return null;
      return this.global(name, names, ref.argCount);
    }
    if (receiver === "this") {
      if (!scope.cls) return null;
      const m = this.members(scope.cls, name, 0);
      return m.symbols.length ? { symbols: m.symbols, how: m.inherited ? "inherited" : "member" } : null;
    }
    if (receiver === "::") return this.qualified(name, [name], file) ?? this.global(name, [name], ref.argCount);
    // A variable, parameter or field of known type: `shape.area()`, `p->area()`, `this->items.size()`.
    const parts = receiverParts(receiver);
    const typed = this.exprType(parts, file, scope);
    if (typed !== undefined) {
      if (!typed) return null;
      const m = this.members(typed, name, 0);
      return m.symbols.length ? { symbols: m.symbols, how: "typed" } : null;
    }
    // A qualified name: `Shape::count()`, `geo::detail::clamp()`, `Base::area()` from a derived class.
    for (const p of [...scope.prefixes, ...scope.usings]) {
      const q = p ? `${p}.${receiver}` : receiver;
      const t = this.aliased(this.typeByQName(q, file), 0);
      if (t) {
        const m = this.members(t, name, 0);
        return m.symbols.length ? { symbols: m.symbols, how: "static" } : null;
      }
      const hit = this.qualified(name, [`${q}.${name}`], file);
      if (hit) return { ...hit, how: "static" };
    }
    const names = [...scope.prefixes, ...scope.usings].map((p) =>
      p ? `${p}.${receiver}.${name}` : `${receiver}.${name}`,
    );
    return this.global(name, names, ref.argCount);
  }

  /**
   * The type of a receiver, when it is a local, a parameter or a field: undefined when the head is
   * none of these (it may be a namespace or class), null when it is one but its type is unknown.
   */
  private exprType(parts: string[], file: FileInfo, scope: Scope, depth = 0): SymbolInfo | null | undefined {
    if (depth > MAX_DEPTH) return null;
    const head = parts[0]!;
    let current: SymbolInfo | null;
    if (head === "this") current = scope.cls;
    // `static_cast<Shape*>(p)->area()`: a value of the type cast to (see the extractor's `castTo`).
    else if (head.startsWith("new ") && head.endsWith("()"))
      current = this.valueType(head.slice(4, -2), file, [...scope.prefixes, ...scope.usings]);
    else if (head.endsWith("()")) {
      // `current()->Ref()` inside a class, `make()->run()`: what the call returns.
      const found = this.callTarget({ name: head.slice(0, -2), receiver: null } as RefInfo, file, scope);
      current = found ? this.returnType(found.symbols) : null;
    } else {
      const local = scope.callable ? this.localType(file, scope.callable.id, head) : undefined;
      if (local !== undefined)
        // `auto c = make();`: the local is what the call returns; `auto& r = this->repo`, what the
        // member is (a written type first: `ns::Shape` is written `ns.Shape` too).
        current = local.endsWith(")")
          ? (this.exprType(receiverParts(local), file, scope, depth + 1) ?? null)
          : (this.valueType(local, file, [...scope.prefixes, ...scope.usings]) ??
            (local !== head ? (this.exprType(local.split("."), file, scope, depth + 1) ?? null) : null));
      else {
        const field = scope.cls ? this.fieldType(scope.cls, head, 0) : undefined;
        if (field === undefined) return undefined;
        current = field;
      }
    }
    for (const segment of parts.slice(1)) {
      if (!current) return null;
      if (segment.endsWith("()")) current = this.returnType(this.members(current, segment.slice(0, -2), 0).symbols);
      else current = this.fieldType(current, segment, 0) ?? null;
    }
    return current;
  }

  /** The type a function returns, from the first declaration of it that says (a class type). */
  private returnType(list: SymbolInfo[]): SymbolInfo | null {
    for (const s of list) {
      if (!CALLABLE_KINDS.has(s.kind)) continue;
      const f = this.lookup.file(s.fileId);
      const written = f ? this.localType(f, s.id, "()") : undefined;
      if (!f || written === undefined) continue;
      const prefixes = chain(parentOf(s.qualifiedName));
      return this.valueType(written, f, [...prefixes, ...this.fileUsings(f, prefixes)]);
    }
    return null;
  }

  /** A field's type, on the class or its bases: undefined when no such field is declared with a type. */
  private fieldType(cls: SymbolInfo, name: string, depth: number): SymbolInfo | null | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const clsFile = this.lookup.file(cls.fileId);
    if (!clsFile) return undefined;
    const written = this.localType(clsFile, cls.id, `this.${name}`);
    if (written !== undefined) return this.valueType(written, clsFile, chain(cls.qualifiedName));
    for (const base of this.bases(cls, depth).bases) {
      const hit = this.fieldType(base, name, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  private localType(file: FileInfo, scopeId: number, name: string): string | undefined {
    let index = this.typeIndex.get(file.id);
    if (!index) {
      index = new Map();
      for (const t of this.lookup.localTypes(file.id)) {
        const key = `${t.scopeId}\0${t.name}`;
        if (!index.has(key)) index.set(key, t.typeName);
      }
      this.typeIndex.set(file.id, index);
    }
    return index.get(`${scopeId}\0${name}`);
  }

  /** Members of a class by name: its own (in the class or defined out of line), else its bases', nearest first. */
  private members(cls: SymbolInfo, name: string, depth: number): { symbols: SymbolInfo[]; inherited: boolean } {
    if (depth > MAX_DEPTH) return { symbols: [], inherited: false };
    const qname = `${cls.qualifiedName}.${name}`;
    // A class with internal linkage (in an anonymous namespace) has its members in its own file.
    const own = this.named(name).filter((s) => s.qualifiedName === qname && (cls.exported || s.fileId === cls.fileId));
    if (own.length) return { symbols: own, inherited: depth > 0 };
    for (const base of this.bases(cls, depth).bases) {
      const hit = this.members(base, name, depth + 1);
      if (hit.symbols.length) return { symbols: hit.symbols, inherited: true };
    }
    return { symbols: [], inherited: false };
  }

  /** A class's bases we can find, and whether any we cannot (a library's, a template parameter). */
  private bases(cls: SymbolInfo, depth: number): { bases: SymbolInfo[]; open: boolean } {
    const cached = this.basesCache.get(cls.id);
    if (cached) return cached;
    const out = { bases: [] as SymbolInfo[], open: false };
    this.basesCache.set(cls.id, out); // cycles in broken code end here
    const file = this.lookup.file(cls.fileId);
    if (!file || depth > MAX_DEPTH) return out;
    const prefixes = [
      ...chain(parentOf(cls.qualifiedName)),
      ...this.fileUsings(file, chain(parentOf(cls.qualifiedName))),
    ];
    for (const ref of this.lookup.heritage(cls.id)) {
      const written = ref.receiver ? `${ref.receiver}.${ref.name}` : ref.name;
      const t = this.typeNamed(written, file, prefixes);
      if (t && t.id !== cls.id && !out.bases.some((b) => b.id === t.id)) out.bases.push(t);
      else if (!t) out.open = true;
    }
    for (const b of out.bases) if (this.bases(b, depth + 1).open) out.open = true;
    return out;
  }

  /**
   * The class an alias names (`using Super = Base;`, followed through aliases of aliases), looked up
   * from where the alias is declared; any other type is itself.
   */
  private aliased(t: SymbolInfo | null, depth: number): SymbolInfo | null {
    if (!t || t.kind !== "type_alias" || depth > MAX_DEPTH) return t;
    const file = this.lookup.file(t.fileId);
    const written = file ? this.localType(file, t.id, ALIAS_OF) : undefined;
    if (!file || written === undefined) return t;
    const prefixes = chain(parentOf(t.qualifiedName));
    const target = this.typeNamed(written, file, [...prefixes, ...this.fileUsings(file, prefixes)]);
    return target && target.id !== t.id ? this.aliased(target, depth + 1) : t;
  }

  /**
   * The class whose members a value of a written type has: the type named, followed through aliases
   * (`using ViewPanel = winrt::..::ViewPanel; ViewPanel p; p.SetLeft(x)`, `typedef Foo Bar;`). A
   * reference keeps the alias (`typeNamed`), which is the name written.
   */
  private valueType(written: string, file: FileInfo, prefixes: string[]): SymbolInfo | null {
    return this.aliased(this.typeNamed(written, file, prefixes), 0);
  }

  /** A type named as written (`Shape`, `geo.Shape`), tried under each prefix in turn. */
  private typeNamed(written: string, file: FileInfo, prefixes: string[]): SymbolInfo | null {
    for (const p of prefixes) {
      const t = this.typeByQName(p ? `${p}.${written}` : written, file);
      if (t) return t;
    }
    return null;
  }

  /** The class, struct, enum or alias of a qualified name: the file's own, else one its includes reach, else the project's one. */
  private typeByQName(qname: string, file: FileInfo): SymbolInfo | null {
    const key = `${file.id}\0${qname}`;
    const cached = this.typeCache.get(key);
    if (cached !== undefined) return cached;
    const name = qname.slice(qname.lastIndexOf(".") + 1);
    const all = this.named(name).filter((s) => TYPE_KINDS.has(s.kind) && s.qualifiedName === qname);
    let hit: SymbolInfo | null = null;
    if (all.length) {
      const own = all.filter((s) => s.fileId === file.id);
      if (own.length) hit = own[0]!;
      else {
        const closure = this.linkage.includeClosure(file);
        const seen = all.filter((s) => closure.has(s.fileId));
        if (seen.length) hit = seen[0]!;
        else if (all.length === 1) hit = all[0]!;
      }
    }
    this.typeCache.set(key, hit);
    return hit;
  }

  /** Declarations of `name` with one of these qualified names, the first that has any, seen from the file. */
  private qualified(name: string, qnames: string[], file: FileInfo): Found | null {
    const all = this.named(name);
    if (!all.length) return null;
    const closure = this.linkage.includeClosure(file);
    for (const q of qnames) {
      const hits = all.filter((s) => s.qualifiedName === q);
      if (!hits.length) continue;
      // What other files declare with internal linkage (`static`, an anonymous namespace) is theirs.
      const linked = hits.filter((s) => s.exported || s.fileId === file.id);
      if (hits.some((s) => s.fileId === file.id)) return { symbols: linked, how: "lexical" };
      // A declaration the includes reach stands for every declaration of it (linkage joins them).
      if (hits.some((s) => closure.has(s.fileId) && s.exported)) return { symbols: linked, how: "import" };
    }
    return null;
  }

  /** The project's one function with external linkage of one of these qualified names, found without an include. */
  private global(name: string, qnames: string[], argCount: number | null): Found | null {
    const all = this.named(name).filter((s) => CALLABLE_KINDS.has(s.kind) && s.exported);
    for (const q of qnames) {
      let hits = all.filter((s) => s.qualifiedName === q);
      if (!hits.length) continue;
      const files = new Set(hits.map((s) => s.fileId));
      // Found without an include, a function that cannot take these arguments is some other one of
      // that name (`std::to_string(n)` against the project's own `std::to_string(n, base)`).
      hits = hits.filter((s) => s.paramCount === null || argCount === null || s.paramCount === argCount);
      if (!hits.length) return null;
      // A "variable" of that name beside them is an overload the grammar misread (a parameter that
      // points to a member, `R (C::*)(A...)`): C++ has no variable and function of one name in one scope.
      if (this.named(name).some((v) => v.kind === "variable" && v.qualifiedName === q && files.has(v.fileId)))
        return null;
      const defs = hits.filter((s) => {
        const f = this.lookup.file(s.fileId);
        return f !== undefined && !isHeaderPath(f.path);
      });
      // One function: one definition (declarations of it may be several), or declarations in one file.
      if (defs.length === 1 || (defs.length === 0 && files.size === 1))
        return { symbols: defs.length ? defs : hits, how: "package", global: true };
      return null;
    }
    return null;
  }

  /** Declarations named `name` in C and C++ files. */
  private named(name: string): SymbolInfo[] {
    let hit = this.byName.get(name);
    if (!hit) {
      hit = this.lookup.named(name).filter((s) => {
        if (s.kind === "import" || s.kind === "file") return false;
        const f = this.lookup.file(s.fileId);
        return f !== undefined && C_FAMILY.has(f.language);
      });
      this.byName.set(name, hit);
    }
    return hit;
  }

  private scope(fromId: number, file: FileInfo): Scope {
    let from = this.lookup.symbol(fromId);
    let cls: SymbolInfo | null = null;
    let callable: SymbolInfo | null = null;
    const ancestors = new Set<number>([file.nodeId]);
    for (let s = from; s; s = s.parentId === null ? undefined : this.lookup.symbol(s.parentId)) {
      ancestors.add(s.id);
      if (!callable && CALLABLE_KINDS.has(s.kind)) callable = s;
      if (!cls && TYPE_KINDS.has(s.kind)) cls = s;
    }
    let base = "";
    if (cls) base = cls.qualifiedName;
    else if (callable) {
      // An out-of-line member (`void Shape::area()`): its class is the one its name is qualified with.
      base = parentOf(callable.qualifiedName);
      if (base) cls = this.typeByQName(base, file);
    } else if (from && from.kind === "namespace") base = from.qualifiedName;
    if (from?.kind === "file") from = undefined;
    const prefixes = chain(base);
    const usings: string[] = [];
    const usingNames = new Map<string, string>();
    for (const t of this.usingsOf(file)) {
      if (!ancestors.has(t.scopeId)) continue;
      if (t.name === USING_NAMESPACE) {
        for (const p of prefixes) {
          const q = p ? `${p}.${t.typeName}` : t.typeName;
          if (!usings.includes(q)) usings.push(q);
        }
      } else if (t.name === USING_NAME) {
        usingNames.set(t.typeName.slice(t.typeName.lastIndexOf(".") + 1), t.typeName);
      }
    }
    const openBases = cls ? this.bases(cls, 0).open : false;
    return { cls, prefixes, usings, usingNames, callable, openBases };
  }

  /** A file's `using` directives, looked up once per file. */
  private usingsOf(file: FileInfo): readonly LocalTypeInfo[] {
    let list = this.usings.get(file.id);
    if (!list) {
      list = this.lookup.localTypes(file.id).filter((t) => t.name === USING_NAMESPACE || t.name === USING_NAME);
      this.usings.set(file.id, list);
    }
    return list;
  }

  /** `using namespace` directives at a file's top level, as prefixes relative to each of `prefixes`. */
  private fileUsings(file: FileInfo, prefixes: string[]): string[] {
    const out: string[] = [];
    for (const t of this.usingsOf(file)) {
      if (t.name !== USING_NAMESPACE || t.scopeId !== file.nodeId) continue;
      for (const p of prefixes) out.push(p ? `${p}.${t.typeName}` : t.typeName);
    }
    return out;
  }
}

/** `a.b.c` → `a.b`; `a` → ``. */
function parentOf(qname: string): string {
  const dot = qname.lastIndexOf(".");
  return dot < 0 ? "" : qname.slice(0, dot);
}

/** `a.b` → [`a.b`, `a`, ``]: the scopes a name written inside `a.b` may be declared in. */
function chain(qname: string): string[] {
  const out: string[] = [];
  for (let q = qname; q; q = parentOf(q)) out.push(q);
  out.push("");
  return out;
}

/**
 * A receiver's segments, split at dots, but for a made value's head, kept whole: a cast's
 * `new geo.Shape()` (see the extractor's `castTo`) names its type by its qualified name.
 */
function receiverParts(receiver: string): string[] {
  const made = receiver.startsWith("new ") ? receiver.indexOf("()") : -1;
  if (made < 0) return receiver.split(".");
  const rest = receiver.slice(made + 2);
  return [receiver.slice(0, made + 2), ...(rest.startsWith(".") ? rest.slice(1).split(".") : [])];
}
