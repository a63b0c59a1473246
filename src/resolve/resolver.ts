import {
  ANONYMOUS_BODY,
  ELEMENT,
  NAMED_VALUE,
  READ_VALUE,
  TUPLE,
  TYPE_BOUND,
  DOC_TYPE,
  IMPLICIT_RECEIVER,
  EXTENSION_RECEIVER,
  GENERIC_RECEIVER,
  MIXIN,
  MODULE_EXPORTS,
  OBJECT_TYPE,
  TRAIT_METHOD,
  WRITTEN_IN,
  WRITTEN_IN_CLASS,
  isUseBinding,
  type ImportBinding,
  readAnonymousBody,
} from "../core/extraction.js";
import { CALLABLE_KINDS, TYPE_KINDS, type EdgeKind, type NodeKind, type Resolution } from "../core/kinds.js";
import { RULES } from "./languages/index.js";
import { Linkage } from "./linkage.js";
import { RubyResolution } from "./ruby.js";
import { CppScopes } from "./cpp.js";
import { isDeclaration, PackageNames } from "./package-names.js";
import { groupBy } from "../core/group-by.js";
import type { FileInfo, LocalTypeInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import type { FileGroup, LanguageRules, ProjectContext } from "./rules.js";
import { CALL_TARGETS, MAX_DEPTH } from "./reach.js";

export type { Resolution };

export interface ResolvedEdge {
  targetId: number;
  kind: EdgeKind;
  resolution: Resolution;
}

/**
 * An anonymous class body a scope is in (see ANONYMOUS_BODY): the method of the body that the scope
 * is or is nested in, the body's key and its supertypes as written.
 */
interface AnonymousScope {
  method: SymbolInfo;
  key: string;
  supertypes: string[];
  locals: string[];
}

/** What a receiver expression stands for: a module (one or more files), or declarations. */
type Value = { files: FileInfo[] } | { symbols: SymbolInfo[] };

/** Members of an object or class: reached through a receiver, never as bare names. */
const MEMBER_KINDS: ReadonlySet<NodeKind> = new Set(["method", "property", "constructor"]);
const LEXICAL_SCOPES: ReadonlySet<NodeKind> = new Set([...CALLABLE_KINDS, "namespace", "module"]);
const PROPERTY_KINDS: ReadonlySet<NodeKind> = new Set(["property"]);
/** Symbols a call reaches only through the value they hold. */
const HELD_VALUE_KINDS: ReadonlySet<NodeKind> = new Set(["property", "variable", "constant"]);
/** What `new X()` can name: a class, or a value holding one (`const X = createErrorClass(...)`). */
const INSTANTIABLE: ReadonlySet<NodeKind> = new Set([
  "class",
  "struct",
  "enum",
  "constructor",
  "function",
  "variable",
  "constant",
]);
const VALUE_KINDS: ReadonlySet<NodeKind> = new Set([...CALL_TARGETS, "enum_member", "namespace", "module"]);

/** No bindings: shared, never written. */
const NONE: readonly ImportBinding[] = [];
const NO_TYPES: readonly LocalTypeInfo[] = [];

/**
 * Files whose local types are kept indexed by scope at once. Resolution reads a file's types for
 * each of its variables and calls, and a file may hold thousands (rustc: scanning them all each time
 * was the largest cost of resolving); the bound keeps a large project's memory flat.
 */
const INDEXED_TYPE_FILES = 256;

/**
 * Turns raw references into edges. Pure: everything comes through `Lookup`, so a full index (memory)
 * and an incremental sync (SQLite) resolve identically. Ambiguity yields no edge rather than a wrong one.
 */
export class Resolver {
  private readonly basesCache = new Map<number, SymbolInfo[]>();
  /**
   * Types with a base that is not the project's, by id: the names their outside bases are known to
   * declare (`outerMembers.external`), or null when a base is unknown (`extends Thread`).
   */
  private readonly outsideBases = new Map<number, Set<string> | null>();
  /**
   * Module lookups by where the specifier is read from (a file id for relative specifiers, else a
   * language) and then the specifier: the hottest cache, so no key is built per call.
   */
  private readonly moduleCache = new Map<number | string, Map<string, FileInfo[]>>();
  private readonly packageNames: PackageNames;
  /** Each file's package, by file id (see `packageOf`). */
  private readonly packages = new Map<number, FileGroup | null>();
  /**
   * The memo caches below are keyed by objects, ids and the names references carry, never by a key
   * string built per lookup: building and hashing such strings was a quarter of resolving the JDK.
   * `exported` is kept per file list, then per `exportsOnly` (0 or 1), then per name.
   */
  private readonly exportedCache = new WeakMap<FileInfo[], [Map<string, SymbolInfo[]>, Map<string, SymbolInfo[]>]>();
  /** Members by type id, then name. */
  private readonly memberCache = new Map<number, Map<string, SymbolInfo[]>>();
  /** What each import binding brings in (bindings are the lookup's own objects, one per import). */
  private readonly bindingCache = new Map<ImportBinding, Value | null>();
  /** `use path::*` owners (enums, inline modules) by file and path; null when there is none. */
  private readonly globOwners = new Map<string, SymbolInfo | null>();
  private inGlobOwner = false;
  private readonly partsCache = new Map<number, SymbolInfo[]>();
  /** Per file, the extension traits it imports (see `importedTraitMethod`). */
  private readonly extensionTraits = new Map<number, SymbolInfo[]>();
  private readonly importsByLocal = new Map<number, Map<string, ImportBinding[]>>();
  /**
   * Per file and name, where its import bindings were made (see `importScopes`); null for a file that
   * imports at its top only.
   */
  private readonly importScopeCache = new Map<number, Map<string, ImportScopes | null> | null>();
  /** Per file, its local types by scope and name (see `typesAt`). */
  private readonly typesByScope = new Map<number, Map<number, Map<string, LocalTypeInfo[]>>>();
  /**
   * What an assignment gives its variable, read where it was assigned (`flowTypes`), by depth: each
   * use of a variable reads its assignment's value again, and one `qs = self._chain()` in a Django
   * method is read by every `qs.` after it (11k reads of 2k assignments in a full index).
   */
  private readonly assignedTypes = new WeakMap<LocalTypeInfo, Map<number, SymbolInfo | null>>();
  /**
   * The line being resolved, in its file: with `flowTypes`, a local variable has the type of its last
   * assignment before that line. While an assignment's own value is read, that assignment's line.
   */
  private at: { fileId: number; line: number } | null = null;
  /** Each file's compilation unit (`crateOf`): finding one lists the project's files. */
  private readonly crates = new Map<number, FileGroup | null>();
  private readonly extensionCache = new Map<number, Map<string, Extension[]>>();
  private readonly fileExtensions = new Map<number, Extension[]>();
  private readonly topLevelNames = new Map<string, boolean>();
  /** Per file, the locals whose value may be a method read off a receiver (see `methodValue`). */
  private readonly boundLocals = new Map<number, Set<string>>();
  /** Whole receivers' types and what they name, by scope and expression (see `perReceiver`). */
  private readonly receiverTypes = new Map<number, Map<string, SymbolInfo | null>>();
  private readonly receiverValues = new Map<number, Map<string, Value | null>>();
  /** Set when a lookup stopped at MAX_DEPTH; see `memo`. */
  private truncated = false;

  private readonly linkage: Linkage;
  private readonly ruby: RubyResolution;
  private readonly cpp: CppScopes;

  constructor(
    private readonly lookup: Lookup,
    private readonly ctx: ProjectContext,
  ) {
    this.linkage = new Linkage(lookup, ctx);
    this.ruby = new RubyResolution(lookup);
    this.cpp = new CppScopes(lookup, this.linkage);
    this.packageNames = new PackageNames(lookup);
  }

  resolve(ref: RefInfo): ResolvedEdge[] {
    if (ref.receiver?.startsWith(NAMED_VALUE)) return this.namedValue(ref);
    if (ref.receiver?.startsWith(READ_VALUE)) return this.read(ref);
    const file = this.lookup.file(ref.fileId);
    if (!file) return [];
    this.at = { fileId: ref.fileId, line: ref.line };
    const rules = RULES[file.language];
    if (!rules) return [];
    // Ruby's constants, open classes and mixins (see ruby.ts); its requires resolve as modules below.
    if (rules.rubyConstants && ref.kind !== "imports") return this.ruby.resolve(ref, file);
    // C++ names by qualified name (see cpp.ts); its includes resolve as modules below.
    if (rules.cppScopes && ref.kind !== "imports" && ref.kind !== "exports") return this.cpp.resolve(ref, file, rules);
    switch (ref.kind) {
      case "imports": {
        let files = this.modules(ref.name, file, rules);
        if (files.length) files = this.importedFiles(files, ref.name, file, rules);
        else {
          // `import static a.b.C.m`: the module is a type's file.
          const type = this.typeFromPackage(ref.name, file, rules, 0);
          const typeFile = type ? this.lookup.file(type.fileId) : undefined;
          if (typeFile) files = [typeFile];
        }
        return files.map((f) => ({ targetId: f.nodeId, kind: "imports", resolution: "import" }));
      }
      case "exports": {
        const binding = this.importsNamed(file.id, ref.name).find((b) => b.reexport);
        const found = binding ? this.binding(binding, file, rules, 0) : null;
        const sym = found && "symbols" in found ? unique(found.symbols) : null;
        return sym ? [{ targetId: sym.id, kind: "exports", resolution: "import" }] : [];
      }
      case "overrides": {
        const method = this.lookup.symbol(ref.fromId);
        // A member of an anonymous class or object expression names the supertype as the receiver.
        const owner = ref.receiver === null ? this.enclosingType(ref.fromId) : undefined;
        const bases = owner ? this.bases(owner, 0) : method ? this.writtenBase(ref.receiver, file, method, rules) : [];
        // Where methods are overloaded, only a method of as many parameters is overridden
        // (`remove(int)` does not override `remove(Object)`, nor `remove()`), and of the same shape.
        const arity = rules.overloads ? (method?.paramCount ?? null) : null;
        // A property overrides a property (Kotlin's `override val`, Swift's `override var` or a
        // protocol's property requirement), a method a callable.
        const kinds = method?.kind === "property" ? PROPERTY_KINDS : CALLABLE_KINDS;
        for (const base of bases) {
          let found = this.overridden(base, ref.name, arity, 0, kinds);
          if (rules.overloads && method) found = found.filter((s) => this.sameShape(method, s, rules));
          // A conformer's method implements the requirement, not the protocol extension's default.
          if (rules.ownerScopes && found.length > 1) found = this.requirementFirst(found);
          const hit = unique(found);
          if (hit) return [{ targetId: hit.id, kind: "overrides", resolution: "inherited" }];
        }
        return [];
      }
      default:
        // A name nothing in the project bears (`unwrap`, `append`, `len`), about a fifth of the
        // references, is let go before its receiver's type is worked out: that was a third of
        // resolution's time on tokio. `constructor` is the name of calls to one, by any name.
        if (ref.name !== "constructor" && this.lookup.bearsName?.(ref.name) === false) return [];
        return this.use(ref, file, rules);
    }
  }

  /**
   * A function or class named as a value: what a call of it would reach (of the bare name, or of the
   * name on the object written), if that is a function, method or type, or where the language's
   * values may be reads (`valuesReadConstants`), a constant or variable (a use, not a call: a
   * `references` edge).
   */
  private namedValue(ref: RefInfo): ResolvedEdge[] {
    const receiver = ref.receiver!.slice(NAMED_VALUE.length) || null;
    const file = this.lookup.file(ref.fileId);
    const reads = file !== undefined && RULES[file.language]?.valuesReadConstants === true;
    // Through an object, a field the extractor saw holding a function (`this.handleClick`) too.
    const fits = (s: SymbolInfo | undefined) =>
      s !== undefined &&
      (CALLABLE_KINDS.has(s.kind) ||
        TYPE_KINDS.has(s.kind) ||
        (receiver !== null && s.kind === "property") ||
        (reads && BARE_READ_KINDS.has(s.kind)));
    // Most such names are variables and fields, which no function or type of the project bears.
    if (!this.lookup.named(ref.name).some(fits)) return [];
    const edges: ResolvedEdge[] = [];
    for (const e of this.resolve({ ...ref, kind: "calls", receiver })) {
      if ((e.kind === "calls" || e.kind === "instantiates") && fits(this.lookup.symbol(e.targetId)))
        edges.push({ ...e, kind: "references" });
    }
    return edges;
  }

  /**
   * A constant, enum member or field read (`MAX_ROWS`, `Color.RED`, `settings.DEBUG`): what the name
   * reaches, bare or on the object written, if it is one (a `references` edge).
   */
  private read(ref: RefInfo): ResolvedEdge[] {
    if (!this.lookup.named(ref.name).some((s) => READ_KINDS.has(s.kind))) return [];
    const file = this.lookup.file(ref.fileId);
    const rules = file && RULES[file.language];
    if (!rules) return [];
    this.at = { fileId: ref.fileId, line: ref.line };
    const receiver = ref.receiver!.slice(READ_VALUE.length) || null;
    if (rules.linkage) {
      // C++: through the scopes around the read (a class's members, namespaces, usings) first.
      const scoped = rules.cppScopes ? this.cpp.read({ ...ref, receiver }, file, READ_KINDS) : null;
      if (scoped)
        return scoped.id !== ref.fromId ? [{ targetId: scoped.id, kind: "references", resolution: "lexical" }] : [];
      const hits = receiver === null ? this.linkage.readable(ref.name, file, rules, BARE_READ_KINDS) : [];
      return hits
        .filter((s) => s.id !== ref.fromId)
        .map((s) => ({ targetId: s.id, kind: "references", resolution: "import" }));
    }
    // A bare name as a call of it would be looked up, which also finds the fields of the type around
    // it and of outer types (Java's `MAX_SIZE` in its class); a member as a written reference.
    const kind = receiver === null ? "calls" : "references";
    const found = this.target({ ...ref, kind, receiver }, file, rules);
    const hit = found && unique(found.symbols.filter((s) => READ_KINDS.has(s.kind)));
    // `WIDTH, HEIGHT = 640, 480` names WIDTH where it declares it: no use of it.
    return hit && hit.id !== ref.fromId ? [{ targetId: hit.id, kind: "references", resolution: found.how }] : [];
  }

  /**
   * The files of a module the file's imports of it reach: all of them, unless the language's imports
   * name declarations (see `LanguageRules.importsDeclarations`) and none of these is a wildcard. The
   * JDK's `import java.util.Arrays` made an edge to each of java.util's 121 files: two thirds of its
   * edges, and a dependency cycle wherever any of them imported the file back. Where the names are
   * those the file uses through the import (`importsByUse`, Go), the import of the package's name
   * brings none itself, and one none of whose names the package declares still reaches every file
   * (go-stdlib's imports made an edge to each file of the package, 629k of its 1.16 M edges).
   */
  private importedFiles(files: FileInfo[], spec: string, file: FileInfo, rules: LanguageRules): FileInfo[] {
    if (!rules.importsDeclarations) return files;
    const declaring = new Set<number>();
    for (const b of this.lookup.imports(file.id)) {
      if (b.specifier !== spec || b.reexport) continue;
      if (rules.importsByUse && b.imported === "*" && b.local !== "*") continue;
      if (b.imported === null || b.imported === "*") return files;
      for (const s of this.exported(files, b.imported, rules, 1)) declaring.add(s.fileId);
    }
    return rules.importsByUse && !declaring.size ? files : files.filter((f) => declaring.has(f.id));
  }

  /** calls, instantiates, extends, implements, references. */
  private use(ref: RefInfo, file: FileInfo, rules: LanguageRules): ResolvedEdge[] {
    // C and C++: a bare name is looked up among the declarations the file's includes reach.
    const found =
      rules.linkage && ref.receiver === null ? this.linkage.visible(ref, file, rules) : this.target(ref, file, rules);
    if (!found && !rules.linkage) return [];
    let candidates = (found?.symbols ?? []).filter((s) => acceptable(ref.kind, s.kind));
    // Go: `T{}` where one file declares `type T struct` and another `type T = ast.T` (build variants,
    // test programs sharing a folder) is either; the kind a literal may make chooses neither.
    if (rules.literalOfAnyType && ref.kind === "instantiates" && found && candidates.length === 1) {
      if (dedupe(found.symbols.filter((s) => TYPE_KINDS.has(s.kind))).length > 1) candidates = [];
    }
    // C# and Java make objects with `new` only: a call by bare name never reaches a type.
    if (rules.newOnly && ref.kind === "calls" && ref.receiver === null)
      candidates = candidates.filter((s) => !TYPE_KINDS.has(s.kind));
    if (rules.typesApart && (ref.kind === "calls" || ref.kind === "instantiates"))
      candidates = candidates.filter((s) => s.kind !== "interface" && s.kind !== "type_alias");
    if (rules.partialTypes) candidates = this.oneTypePerName(candidates);
    if (
      ref.kind === "references" &&
      (rules.referencesReachTypes || (rules.bareReferencesReachTypes && ref.receiver === null))
    )
      candidates = candidates.filter((s) => TYPE_KINDS.has(s.kind));
    if (rules.outerNestedTypes && ref.kind === "references" && ref.receiver === null && found?.how !== "member")
      candidates = candidates.filter((s) => !this.declaredInExtension(s));
    if (rules.callsReachCallables && ref.kind === "calls")
      candidates = candidates.filter(
        (s) => CALLABLE_KINDS.has(s.kind) || TYPE_KINDS.has(s.kind) || s.kind === "enum_member",
      );
    if (rules.callablesBeforeValues && ref.kind === "calls" && candidates.some((s) => CALLABLE_KINDS.has(s.kind)))
      candidates = candidates.filter((s) => !HELD_VALUE_KINDS.has(s.kind));
    // No candidate takes the call's argument count: none of them is picked as an overload below.
    let arityMiss = false;
    if (candidates.length > 1 && ref.argCount !== null) {
      const byArity = candidates.filter((s) => s.paramCount === null || s.paramCount === ref.argCount);
      if (byArity.length > 0) candidates = byArity;
      else arityMiss = true;
    }
    if (rules.inheritedOverloads && ref.kind === "calls" && found && MEMBER_WAYS.has(found.how)) {
      const inherited = this.inheritedOverloads(ref, candidates);
      // A base's methods of the call's count are overloads to pick from again.
      if (inherited !== candidates) arityMiss = false;
      candidates = inherited;
    }
    if (candidates.length > 1 && found) candidates = this.staticOrNot(ref, found.how, candidates, rules);
    if (candidates.length > 1 && found?.how === "module") candidates = withoutOwnedMethods(candidates);
    if (rules.argumentLabels && candidates.length > 1) candidates = this.byLabels(ref, file, candidates);
    else if (rules.argumentLabels && candidates.length === 1 && ref.kind === "calls")
      candidates = this.byLabels(ref, file, candidates, true);
    // After the labels: of two requirements `cast(_:)` and `cast(jsValue:)` beside a default
    // `cast(_:)`, the labels leave one requirement and its default, and the requirement stands.
    if (rules.ownerScopes && candidates.length > 1) candidates = this.requirementFirst(candidates);
    if (rules.linkage) {
      // C and C++: a prototype and its definition are one function (see linkage.ts).
      return this.linkage.link(ref, file, candidates).map((t) => ({
        targetId: t.targetId,
        kind: t.kind,
        resolution: t.global || !found ? "package" : found.how,
      }));
    }
    if (!found) return [];
    if (
      rules.noFewerArguments &&
      ref.kind === "calls" &&
      found.how !== "extension" &&
      ref.argCount !== null &&
      candidates.length === 1 &&
      candidates[0]!.paramCount !== null &&
      candidates[0]!.paramCount > ref.argCount
    )
      return [];
    let target = unique(candidates);
    let how = found.how;
    if (!target && rules.alternatives) target = lastAlternative(candidates, rules.alternatives);
    if (!target && rules.overloads && ref.kind === "calls" && !arityMiss) {
      target = firstOverload(candidates);
      how = "overload";
    }
    if (!target) return [];
    let kind: EdgeKind = ref.kind;
    if (kind === "calls" && TYPE_KINDS.has(target.kind)) kind = "instantiates";
    // C# writes base classes and interfaces in one list: a class or struct "extending" an interface implements it.
    if (kind === "extends" && target.kind === "interface" && this.lookup.symbol(ref.fromId)?.kind !== "interface")
      kind = "implements";
    const edges: ResolvedEdge[] = [{ targetId: target.id, kind, resolution: how }];
    // `self.paginator_class(..)`: the attribute is called, and the class it holds is made.
    const made = kind === "calls" && !CALLABLE_KINDS.has(target.kind) ? this.classHeldBy(target) : null;
    if (made) edges.push({ targetId: made.id, kind: "instantiates", resolution: how });
    return edges;
  }

  /**
   * A static member and an instance member of one name (three.js's `static createMaterialFromType`
   * beside the method that calls it): the one the call reaches. `Type.m()` reaches the static one,
   * `x.m()` on an instance the other, and `this.m()` the one of its own kind, as the member it is
   * called from (in a static method, `this` is the class). A bare call is left as it was: Java's
   * overloads of one name may be either, chosen by their parameters.
   */
  private staticOrNot(ref: RefInfo, how: Resolution, candidates: SymbolInfo[], rules: LanguageRules): SymbolInfo[] {
    let statics = 0;
    for (const s of candidates) if (s.isStatic) statics++;
    if (statics === 0 || statics === candidates.length) return candidates;
    let wantStatic: boolean;
    if (how === "static") wantStatic = true;
    else if (how === "typed") wantStatic = false;
    else if (how === "member" && ref.receiver !== null && rules.selfNames.has(ref.receiver))
      wantStatic = this.enclosingMember(ref.fromId)?.isStatic ?? false;
    else return candidates;
    return candidates.filter((s) => s.isStatic === wantStatic);
  }

  /** The member of a type that a scope is, or is nested in (a callback in a method: that method). */
  private enclosingMember(scopeId: number): SymbolInfo | undefined {
    for (let s = this.lookup.symbol(scopeId); s && s.parentId !== null; s = this.lookup.symbol(s.parentId)) {
      const parent = this.lookup.symbol(s.parentId);
      if (parent && TYPE_KINDS.has(parent.kind)) return s;
    }
    return undefined;
  }

  /**
   * The class a class attribute holds (Python's `paginator_class = Paginator`, recorded as what a call
   * of `this.paginator_class` makes), which a call of the attribute instantiates; else null.
   */
  private classHeldBy(attribute: SymbolInfo): SymbolInfo | null {
    const owner = attribute.parentId;
    const file = owner === null ? undefined : this.lookup.file(attribute.fileId);
    if (owner === null || !file) return null;
    const entry = this.typesAt(file.id, owner, `this.${attribute.name}()`)[0];
    if (!entry) return null;
    const rules = RULES[file.language] ?? RULES.typescript!;
    const made = this.typeNamed(entry.typeName, file, owner, rules, 0);
    return made && TYPE_KINDS.has(made.kind) ? made : null;
  }

  private target(
    ref: RefInfo,
    file: FileInfo,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    const { receiver, name } = ref;
    const scopeId = ref.fromId;
    if (receiver === "?") return null;
    if (receiver?.startsWith(IMPLICIT_RECEIVER)) {
      // A bare call inside a lambda that may have a receiver: the receiver's members (and extensions)
      // first, then whatever the bare name is.
      const typed = this.exprType(receiver.slice(IMPLICIT_RECEIVER.length), file, scopeId, rules);
      const hits = typed ? this.member(typed, name, 0).filter((s) => CALLABLE_KINDS.has(s.kind)) : [];
      if (hits.length) return { symbols: hits, how: "typed" };
      const extended =
        typed && rules.extensionCalls ? this.extension(name, file, rules, ref.argCount, { type: typed }) : null;
      if (extended?.symbols.length) return extended;
      return this.target({ ...ref, receiver: null }, file, rules);
    }
    if (rules.crateOf && name.endsWith("!")) return this.macro(name, receiver, file, scopeId, rules);
    if (rules.partialTypes && receiver === null && (ref.kind === "extends" || ref.kind === "implements")) {
      // `class P : P<string>`: another type of its name, not the class itself (see `baseOfItsName`).
      const owner = this.lookup.symbol(scopeId);
      if (owner?.name === name) return { symbols: this.baseOfItsName(owner, file, rules), how: "package" };
    }
    if (receiver === null) {
      // A local bound to a method calls it, whatever else the name could mean: the local hides it.
      const bound = ref.kind === "calls" ? this.methodValue(name, file, scopeId, rules) : null;
      if (bound) return { symbols: [bound], how: "typed" };
      if (rules.boundLocalsHide && ref.kind === "calls") {
        // Unless it is the file's own variable, which is the name's symbol.
        const local = this.boundLocal(name, file, scopeId, rules);
        if (local && METHOD_VALUE.test(local.typeName) && this.lookup.symbol(local.scopeId)?.kind !== "file")
          return null;
      }
      if (rules.outerNestedTypes && ref.kind === "references") {
        const hits = this.enclosingNestedTypes(scopeId, name);
        if (hits.length) return { symbols: hits, how: "member" };
      }
      if (rules.membersFirst && ref.kind === "calls") {
        // A method of the enclosing type (or its bases) hides names of the package and imports.
        const hits = this.enclosingMembers(scopeId, name, rules, (s) => s.kind !== "constructor");
        if (hits.length) return { symbols: hits, how: "member" };
      }
      const named = this.name(name, file, scopeId, rules, 0);
      if (named) return named;
      if (rules.implicitThis) {
        const hits =
          (rules.referencesReachTypes || rules.bareReferencesReachTypes) && ref.kind === "references"
            ? this.enclosingNestedTypes(scopeId, name)
            : this.enclosingMembers(scopeId, name, rules);
        if (hits.length) return { symbols: hits, how: "member" };
      }
      return null;
    }
    if (rules.selfNames.has(receiver)) {
      // In an anonymous class's method, `this` is the anonymous object, never the type around it.
      const body = rules.anonymousBodies && name !== "constructor" ? this.anonymousBodyAround(scopeId) : null;
      if (body) return { symbols: this.anonymousMembers(body, name, file, rules), how: "member" };
      const owner = this.enclosingType(scopeId);
      if (!owner) return rules.moduleThis ? this.moduleMember(scopeId, name, file, rules) : null;
      if (name === "constructor") return { symbols: this.constructors(owner), how: "member" };
      const hits = this.member(owner, name, 0);
      if (hits.length || !rules.extensionCalls) return { symbols: hits, how: "member" };
      return this.extension(name, file, rules, ref.argCount, { type: owner });
    }
    if (receiver === MODULE_EXPORTS && rules.moduleThis) {
      // `this.lazyrouter()` where `this` is the module's object (see CommonJsExports.thisIsModule).
      return this.ownExport(name, file, rules);
    }
    if (receiver === "super") {
      const body = rules.anonymousBodies && name !== "constructor" ? this.anonymousBodyAround(scopeId) : null;
      const owner = body ? undefined : this.enclosingType(scopeId);
      if (!owner && !body) return null;
      for (const base of body ? this.anonymousSupertypes(body, file, rules) : this.bases(owner!, 0)) {
        const hits = name === "constructor" ? this.constructors(base) : this.member(base, name, 0);
        if (hits.length) return { symbols: hits, how: "inherited" };
      }
      return null;
    }
    // A receiver whose type we know: `x.m()` with `x = new X()` or `x: X`, fields, call results.
    const typed = this.exprType(receiver, file, scopeId, rules);
    if (typed) {
      const hits = this.member(typed, name, 0);
      if (!hits.length && rules.importedTraitMethods) {
        const method = this.importedTraitMethod(name, file, scopeId, rules);
        if (method) return { symbols: [method], how: "typed" };
      }
      if (hits.length || !rules.extensionCalls) return { symbols: hits, how: "typed" };
      return this.extension(name, file, rules, ref.argCount, { type: typed });
    }
    if (rules.moduleThis && BARE_NAME.test(receiver)) {
      // A variable given a module's members (`mixin(app, proto)`) or holding a field of the module's
      // object (`var router = this._router`). `var self = this` is typed above, as the module's object.
      const alias = this.variableTypeName(receiver, file, scopeId, rules);
      const mixed = alias?.typeName.startsWith(MIXIN)
        ? this.mixedIn(alias.typeName.slice(MIXIN.length), alias.scopeId, name, file, rules)
        : alias && MODULE_FIELD.test(alias.typeName)
          ? this.moduleField(alias.typeName, alias.scopeId, name, file, rules)
          : null;
      if (mixed) return mixed;
    }
    if (rules.moduleThis && MODULE_FIELD.test(receiver)) {
      const held = this.moduleField(receiver, scopeId, name, file, rules);
      if (held) return held;
    }
    const value = this.value(receiver, file, scopeId, rules, 0);
    if (!value) {
      if (!rules.extensionCalls) return null;
      const written = this.writtenType(receiver, file, scopeId, rules);
      // `Expression.Call(...)`: a capitalised name we know nothing of is a type from outside the project;
      // `a.b().c()`: the result of a call we could not type may be of any type, with a method of its own.
      if (!written && (/^[A-Z]\w*$/.test(receiver) || receiver.endsWith(")"))) {
        // Kotlin: unless the file imports an extension of that name (see `importedExtensions`).
        if (!rules.importedExtensions || !receiver.endsWith(")")) return null;
        return this.extension(name, file, rules, ref.argCount, { imported: true });
      }
      return this.extension(name, file, rules, ref.argCount, { written });
    }
    if ("files" in value) return { symbols: this.exported(value.files, name, rules, 0), how: "module" };
    const owner = unique(value.symbols);
    if (owner && TYPE_KINDS.has(owner.kind)) return { symbols: this.member(owner, name, 0), how: "static" };
    if (owner?.kind === "file") return { symbols: this.exported(this.filesOf([owner]), name, rules, 0), how: "module" };
    const valueType = owner ? this.declaredType(owner, 0) : null;
    if (valueType) {
      const hits = this.member(valueType, name, 0);
      if (hits.length || !rules.extensionCalls) return { symbols: hits, how: "typed" };
      return this.extension(name, file, rules, ref.argCount, { type: valueType });
    }
    if (owner && (owner.kind === "namespace" || owner.kind === "module"))
      return { symbols: this.lookup.children(owner.id, name), how: "static" };
    if (owner && rules.extensionCalls && !CALLABLE_KINDS.has(owner.kind))
      return this.extension(name, file, rules, ref.argCount, { written: this.declaredTypeName(owner) });
    return null;
  }

  /**
   * The one method `name` of the extension traits a file imports (see `importedTraitMethods`), or
   * null. Only traits named as such traits are (`AsyncReadExt`, `CommandExt`): any other imported
   * trait may be one the type does not implement, its method reached through `Deref` or another impl
   * (`values.contains(..)` on a `Vec` is the slice's, not `RangeBounds::contains`).
   */
  private importedTraitMethod(name: string, file: FileInfo, scopeId: number, rules: LanguageRules): SymbolInfo | null {
    let traits = this.extensionTraits.get(file.id);
    if (!traits) {
      traits = [];
      for (const b of this.lookup.imports(file.id)) {
        if (b.reexport || b.local === "*") continue;
        const named = this.name(b.local, file, scopeId, rules, 0);
        for (const t of named && "symbols" in named ? named.symbols : [])
          if (t.kind === "trait" && t.name.endsWith("Ext")) traits.push(t);
      }
      this.extensionTraits.set(file.id, traits);
    }
    return unique(traits.flatMap((t) => this.lookup.children(t.id, name).filter((s) => CALLABLE_KINDS.has(s.kind))));
  }

  /**
   * `x.m()` as a call of an extension `m` visible in the file (C#'s `static m(this T x)`, Kotlin's
   * `fun T.m()`), once `x`'s own members have no `m`. With the receiver's type known (a type of the
   * project, or a type name written on its declaration), the extensions whose extended type fits it;
   * with nothing known, the only one of that name (not one over a type parameter, which any type
   * fits). Either way the count of arguments must fit, and only one extension may be left.
   */
  private extension(
    name: string,
    file: FileInfo,
    rules: LanguageRules,
    argCount: number | null,
    receiver: { type?: SymbolInfo; written?: string | null; imported?: boolean },
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    const all = this.visibleExtensions(file, rules).get(name);
    if (!all) return null;
    let fits: Extension[];
    if (receiver.imported) fits = [];
    else if (receiver.type) {
      const names = this.typeNames(receiver.type, 0, new Set(), new Set());
      fits = all.filter((e) => e.extends === GENERIC_RECEIVER || names.has(lastSegment(e.extends)));
    } else if (receiver.written) {
      // A type from outside the project: an extension of that very type, else of another type from
      // outside (which it may derive from); never one of a project type or a type parameter. A keyword
      // type's value (a `string`) derives from the root type only.
      const written = lastSegment(receiver.written);
      fits = all.filter((e) => lastSegment(e.extends) === written);
      if (!fits.length && rules.keywordTypes?.has(written))
        fits = all.filter((e) => ROOT_TYPES.has(lastSegment(e.extends)));
      else if (!fits.length)
        fits = all.filter((e) => e.extends !== GENERIC_RECEIVER && !this.extendsProjectType(e, rules));
    } else if (rules.importedExtensions) fits = [];
    else fits = all.filter((e) => e.extends !== GENERIC_RECEIVER);
    const receiverParams = rules.extensionReceiverApart ? 0 : 1;
    const arity = (e: Extension) =>
      argCount === null || e.symbol.paramCount === null || e.symbol.paramCount - receiverParams === argCount;
    let hit = unique(fits.filter(arity).map((e) => e.symbol));
    if (!hit && !receiver.type && rules.importedExtensions) {
      // The one extension of that name the file imports by name, generic or not.
      const imported = new Set<number>();
      for (const b of this.lookup.imports(file.id)) {
        if (b.reexport || b.imported !== name || b.local !== name) continue;
        for (const f of this.modules(b.specifier, file, rules)) imported.add(f.id);
      }
      hit = unique(all.filter((e) => imported.has(e.symbol.fileId) && arity(e)).map((e) => e.symbol));
    }
    return hit ? { symbols: [hit], how: "extension" } : null;
  }

  /** Whether an extension's extended type is a type of the project. */
  private extendsProjectType(e: Extension, rules: LanguageRules): boolean {
    if (e.projectType === undefined) {
      const file = this.lookup.file(e.symbol.fileId);
      e.projectType = file ? this.typeNamed(e.extends, file, e.symbol.id, rules, 0) !== null : false;
    }
    return e.projectType;
  }

  /** The names a type answers to: its own, its bases' (resolved or not), transitively, and `object`/`Any`. */
  private typeNames(type: SymbolInfo, depth: number, out: Set<string>, seen: Set<number>): Set<string> {
    if (depth > MAX_DEPTH || seen.has(type.id)) return out;
    seen.add(type.id);
    out.add(type.name);
    if (depth === 0) for (const root of ROOT_TYPES) out.add(root);
    for (const part of this.parts(type)) for (const ref of this.lookup.heritage(part.id)) out.add(ref.name);
    for (const base of this.bases(type, depth)) this.typeNames(base, depth + 1, out, seen);
    return out;
  }

  /** Extensions a file can call, by name: those of its package and of what it imports. */
  private visibleExtensions(file: FileInfo, rules: LanguageRules): Map<string, Extension[]> {
    const cached = this.extensionCache.get(file.id);
    if (cached) return cached;
    const out = new Map<string, Extension[]>();
    const seen = new Set<number>();
    const add = (files: FileInfo[], only: string | null) => {
      for (const f of files) {
        for (const e of this.extensionsOf(f)) {
          if ((only !== null && e.symbol.name !== only) || seen.has(e.symbol.id)) continue;
          seen.add(e.symbol.id);
          const list = out.get(e.symbol.name);
          if (list) list.push(e);
          else out.set(e.symbol.name, [e]);
        }
      }
    };
    add(this.packageOf(file, rules)?.files ?? [file], null);
    for (const b of this.lookup.imports(file.id)) {
      if (b.reexport || b.imported === null) continue;
      const modules = this.modules(b.specifier, file, rules);
      if (b.local === "*") {
        if (modules.length) add(modules, null);
        else if (rules.typeWildcards) {
          const type = this.typeFromPackage(b.specifier, file, rules, 0);
          const typeFile = type ? this.lookup.file(type.fileId) : undefined;
          if (typeFile) add([typeFile], null);
        }
      } else add(modules, b.imported);
    }
    this.extensionCache.set(file.id, out);
    return out;
  }

  /**
   * Where methods are overloaded, whether a method can override (or implement) a base's method of its
   * name and parameter count (`overridden` matches the count): both static or both not
   * (`staticNeverOverrides`), and in Swift the same argument labels where both are recorded.
   * `static copy(of:count:)` is no `copy()`, nor `build(appContext:)` a `build(appContext:in:)`.
   */
  private sameShape(method: SymbolInfo, base: SymbolInfo, rules: LanguageRules): boolean {
    if (rules.staticNeverOverrides && method.isStatic !== base.isStatic) return false;
    if (rules.argumentLabels) {
      const labels = (s: SymbolInfo) =>
        this.typesAt(s.fileId, s.id, "(labels)")[0]
          ?.typeName.split(",")
          .map((p) => labelOf(p).replace(/[?*]$/, ""))
          .join(",");
      const mine = labels(method);
      const theirs = labels(base);
      if (mine !== undefined && theirs !== undefined && mine !== theirs) return false;
    }
    return true;
  }

  /** Whether a symbol is an extension (a callable with an `EXTENSION_RECEIVER` local type). */
  private isExtension(symbol: SymbolInfo): boolean {
    const file = this.lookup.file(symbol.fileId);
    return file !== undefined && this.extensionsOf(file).some((e) => e.symbol.id === symbol.id);
  }

  /** A file's extensions: callables with an `EXTENSION_RECEIVER` local type. */
  private extensionsOf(file: FileInfo): Extension[] {
    let list = this.fileExtensions.get(file.id);
    if (!list) {
      list = [];
      for (const t of this.lookup.localTypes(file.id)) {
        if (t.name !== EXTENSION_RECEIVER) continue;
        const symbol = this.lookup.symbol(t.scopeId);
        if (symbol && CALLABLE_KINDS.has(symbol.kind)) list.push({ symbol, extends: t.typeName });
      }
      this.fileExtensions.set(file.id, list);
    }
    return list;
  }

  /** The type name written on the declaration of a plain variable, parameter or field, resolved or not. */
  private writtenType(receiver: string, file: FileInfo, scopeId: number, rules: LanguageRules): string | null {
    const dot = receiver.lastIndexOf(".");
    if (dot > 0) {
      // `a.b.field` or `a.b.m()` where `a.b` is of a project type: the type written on that member.
      const prefix = receiver.slice(0, dot);
      const last = receiver.slice(dot + 1);
      let owner = this.exprType(prefix, file, scopeId, rules);
      if (!owner) {
        const v = this.value(prefix, file, scopeId, rules, 0);
        const sym = v && "symbols" in v ? unique(v.symbols) : null;
        owner = sym && TYPE_KINDS.has(sym.kind) ? sym : null;
      }
      if (!owner) return null;
      const call = last.endsWith("()");
      const member = call
        ? unique(this.member(owner, last.slice(0, -2), 0).filter((s) => CALLABLE_KINDS.has(s.kind)))
        : null;
      const holder = call ? member : owner;
      const holderFile = holder ? this.lookup.file(holder.fileId) : undefined;
      if (!holder || !holderFile) return null;
      const key = call ? "()" : `this.${last}`;
      const entry = this.typesAt(holderFile.id, holder.id, key)[0];
      return entry ? this.throughAlias(writtenName(entry.typeName, rules), holderFile) : null;
    }
    const made = madeKeywordType(receiver, rules);
    if (made || receiver.includes("(")) return made;
    let scope = this.lookup.symbol(scopeId);
    while (scope) {
      const owner = scope;
      const key = TYPE_KINDS.has(owner.kind) ? `this.${receiver}` : receiver;
      const entry = this.typesAt(file.id, owner.id, key)[0];
      // `val result = provider.createMap()`: the type written on what the chain reaches, when that
      // is a type from outside the project (`WritableMap`, whose extensions the file may call).
      if (entry && entry.typeName.includes(".") && entry.typeName.endsWith(")"))
        return this.writtenType(entry.typeName, file, owner.id, rules);
      if (entry) return this.throughAlias(writtenName(entry.typeName, rules), file);
      scope = owner.parentId === null ? undefined : this.lookup.symbol(owner.parentId);
    }
    return null;
  }

  /**
   * A written type name that is an alias the file imports (C#'s `using SS = Roslyn..StatementSyntax;`,
   * Kotlin's `import a.B as C`), as the name it stands for: a type from outside the project is matched
   * to extensions by its own name (`Emit(this StatementSyntax s)`), which the alias does not spell.
   */
  private throughAlias(written: string | null, file: FileInfo): string | null {
    if (!written || !BARE_NAME.test(written)) return written;
    const aliases = this.importsNamed(file.id, written).filter(
      (b) => !b.reexport && b.imported !== null && b.imported !== written && !isUseBinding(b),
    );
    const only = aliases.length === 1 ? aliases[0]! : null;
    return only?.imported ?? written;
  }

  /** A bare name: lexical scopes, then imports, then the package, then wildcard imports. */
  private name(
    name: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    // Enclosing scopes, innermost first. Members of a class or an object literal are not in scope of
    // its methods (they need `this.`); only functions and namespaces make scopes, and a class that
    // was a function (`function Queue() { this.clear = function () {..} }`) for the methods its body
    // defines.
    let scope = this.lookup.symbol(scopeId);
    let classIsScope = false;
    while (scope) {
      if (LEXICAL_SCOPES.has(scope.kind) || classIsScope) {
        const inner = scope;
        const children = this.lookup.children(scope.id, name);
        const local = children.filter(
          (s) => isDeclaration(s) && !MEMBER_KINDS.has(s.kind) && !implMember(s, inner, rules),
        );
        if (local.length) return { symbols: local, how: "lexical" };
        if (rules.scopedImports && children.some((s) => !isDeclaration(s))) {
          const own = this.importScopes(file, name)?.inFunction.get(scope.id);
          if (own) return this.throughBindings(own, file, rules, depth);
        }
      }
      const written = this.writtenIn(scope);
      classIsScope = written === WRITTEN_IN_CLASS;
      scope = this.outerScope(scope, written);
    }
    // A method declared outside its type (Go's `func (s *S) m()`, Rust's `impl S`) is not a bare name,
    // nor is anything else a Rust `impl` declares (`type Output`, `const ALL`).
    const top = this.lookup
      .topLevel(file.id, name)
      .filter((s) => isDeclaration(s) && !isOwnedMethod(s) && !implMember(s, null, rules));
    if (top.length) return this.required(file, name, top, rules, depth) ?? { symbols: top, how: "lexical" };
    const bindings =
      (rules.scopedImports && this.importScopes(file, name)?.outside) || this.importsNamed(file.id, name);
    const imported = this.throughBindings(bindings, file, rules, depth);
    if (imported) return imported;
    if (rules.importsShadowPackage && bindings.some((b) => !b.reexport)) return null;
    const pkg = this.packageNamed(file, rules, name);
    if (pkg.length) return { symbols: pkg, how: "package" };
    // C and C++ import by `#include` only: a name means what it does as a bare name, the declarations
    // the file's includes reach (its include closure, computed once per file). Walking each include's
    // headers in turn, for every name, was two thirds of xorg-server's resolve time. Most names no
    // file declares at its top level (`size_t`, a library's types) are turned away before either.
    if (rules.linkage) {
      if (!this.declaredAtTopLevel(name)) return null;
      const hits = this.linkage.included(name, file, rules);
      return hits.length ? { symbols: hits, how: "import" } : null;
    }
    for (const b of this.importsNamed(file.id, "*")) {
      if (b.reexport) continue;
      const modules = this.modules(b.specifier, file, rules);
      // Nor through a wildcard: `use super::*` brings the module's `fn drop`s of `impl Drop for X` no
      // more than it brings `X::drop`, and a bare `drop(x)` is the prelude's.
      let hits = this.exported(modules, name, rules, depth + 1).filter(
        (s) => !isOwnedMethod(s) && !implMember(s, null, rules),
      );
      if (!hits.length && !modules.length && rules.modulePaths) {
        // `use Kind::*`, `use self::inline::*`: the names declared inside an enum or inline module.
        const owner = this.globOwner(b.specifier, file, rules, depth);
        if (owner) hits = this.lookup.children(owner.id, name).filter(isDeclaration);
      } else if (!hits.length && !modules.length && rules.typeWildcards) {
        // `using static A.B.C;`: the members of type C.
        // Its extension methods are not among them: C# brings those in for `x.M()` only.
        const type = this.typeFromPackage(b.specifier, file, rules, depth + 1);
        if (type) hits = this.member(type, name, depth + 1).filter((s) => !this.isExtension(s));
      }
      if (hits.length) return { symbols: hits, how: "import" };
    }
    return null;
  }

  /** Whether any file of the project declares `name` at its top level; remembered per name. */
  private declaredAtTopLevel(name: string): boolean {
    let hit = this.topLevelNames.get(name);
    if (hit === undefined) {
      hit = this.lookup.named(name).some((s) => isDeclaration(s) && s.parentId === this.lookup.file(s.fileId)?.nodeId);
      this.topLevelNames.set(name, hit);
    }
    return hit;
  }

  /**
   * What `use path::*` names when the path is no module file: an enum or an inline module. Found once
   * per file and path, and without following the file's other such globs: they name each other, and
   * following them afresh from every lookup is exponential (rustc_middle took minutes). Globs of
   * module files are still followed (through `exported`, which caches).
   */
  private globOwner(spec: string, file: FileInfo, rules: LanguageRules, depth: number): SymbolInfo | null {
    if (this.inGlobOwner || depth >= MAX_DEPTH) return null;
    const key = `${file.id}\0${spec}`;
    const cached = this.globOwners.get(key);
    if (cached !== undefined) return cached;
    const outer = this.truncated;
    this.truncated = false;
    this.inGlobOwner = true;
    let owner: SymbolInfo | null;
    try {
      const v = this.value(spec, file, file.nodeId, rules, depth + 1);
      owner = v && "symbols" in v ? unique(v.symbols) : null;
    } finally {
      this.inGlobOwner = false;
    }
    // As in memo(): an answer cut short by the depth limit depends on the caller, so it is not kept.
    if (!this.truncated) this.globOwners.set(key, owner);
    this.truncated ||= outer;
    return owner;
  }

  /**
   * A macro call (`name!`): declared in scope or imported, else the one macro of that name in the
   * crate (macros defined in one module are used all over a crate with `#[macro_use]`). With a
   * receiver (`other_crate::m!`), the one of that name in that crate.
   */
  private macro(
    name: string,
    receiver: string | null,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    let crateFile: FileInfo = file;
    if (receiver !== null) {
      const target = this.modules(receiver, file, rules);
      if (target.length !== 1) return null;
      crateFile = target[0]!;
    } else {
      const named = this.name(name, file, scopeId, rules, 0);
      if (named?.symbols.length) return named;
    }
    const crate = this.crateOf(crateFile, rules);
    if (!crate) return null;
    const hits = this.crateNamed(crate, name);
    return hits.length ? { symbols: hits, how: "package" } : null;
  }

  /** Top-level declarations named `name` in a crate's files. */
  private crateNamed(crate: FileGroup, name: string): SymbolInfo[] {
    return this.packageNames.named(crate.key, () => crate.files, name);
  }

  /**
   * What a name means through these import bindings. A binding to a module stands for the name only
   * when no other binding of it gives a value (Rust's `mod spawn; pub use spawn::spawn;`).
   */
  private throughBindings(
    bindings: readonly ImportBinding[],
    file: FileInfo,
    rules: LanguageRules,
    depth: number,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    let module = false;
    for (const b of bindings) {
      if (b.reexport) continue;
      const v = this.binding(b, file, rules, depth);
      if (!v) continue;
      if ("files" in v) module = true;
      else return { symbols: v.symbols, how: "import" };
    }
    return module ? { symbols: [], how: "import" } : null;
  }

  /**
   * With `scopedImports`, a file's bindings of one name by where they were made: inside a function (by
   * its id), or elsewhere (the module, a class body). The k-th binding of a name is the k-th import
   * node of it, as the extractor makes one with each; when they do not pair up, null (every binding
   * then counts everywhere, as in other languages).
   */
  private importScopes(file: FileInfo, name: string): ImportScopes | null {
    let byName = this.importScopeCache.get(file.id);
    if (byName === undefined) {
      // Most files import at their top only: then every binding counts everywhere, and none is paired.
      const inner = this.lookup.importNodes(file.id).some((n) => n.parentId !== file.nodeId);
      byName = inner ? new Map() : null;
      this.importScopeCache.set(file.id, byName);
    }
    if (byName === null) return null;
    let scopes = byName.get(name);
    if (scopes === undefined) {
      const bindings = this.importsNamed(file.id, name).filter((b) => !b.reexport);
      const nodes = this.lookup.importNodes(file.id).filter((n) => n.name === name);
      scopes = nodes.length === bindings.length ? scopesOf(nodes, bindings, this.lookup) : null;
      byName.set(name, scopes);
    }
    return scopes;
  }

  /** A file's import bindings of one local name (`*` for globs), in source order. */
  private importsNamed(fileId: number, local: string): readonly ImportBinding[] {
    let byLocal = this.importsByLocal.get(fileId);
    if (!byLocal) this.importsByLocal.set(fileId, (byLocal = groupBy(this.lookup.imports(fileId), (b) => b.local)));
    return byLocal.get(local) ?? NONE;
  }

  private crateOf(file: FileInfo, rules: LanguageRules): FileGroup | null {
    const crateOf = rules.crateOf;
    return crateOf ? groupOf(this.crates, file, () => crateOf(file, this.lookup)) : null;
  }

  /** What a receiver expression denotes, for `receiver.name`. */
  private value(expr: string, file: FileInfo, scopeId: number, rules: LanguageRules, depth: number): Value | null {
    if (depth > 0) return this.valueOf(expr, file, scopeId, rules, depth);
    return this.perReceiver(this.receiverValues, scopeId, expr, rules, () =>
      this.valueOf(expr, file, scopeId, rules, 0),
    );
  }

  private valueOf(expr: string, file: FileInfo, scopeId: number, rules: LanguageRules, depth: number): Value | null {
    if (depth > MAX_DEPTH) {
      this.truncated = true;
      return null;
    }
    // `import a.b.c` binds the whole dotted name.
    for (const b of this.importsNamed(file.id, expr)) {
      if (!b.reexport) {
        const v = this.binding(b, file, rules, depth);
        if (v) return v;
      }
    }
    const dot = expr.lastIndexOf(".");
    if (rules.modulePaths && (expr.startsWith("crate") || expr.startsWith("super"))) {
      // `crate.a.b`, `super.super.m`: module files first, declarations inside them after.
      const files = this.modules(expr, file, rules);
      if (files.length) return { files };
    }
    if (dot < 0) {
      const named = this.name(expr, file, scopeId, rules, depth);
      if (named && named.symbols.length) return { symbols: named.symbols.filter((s) => VALUE_KINDS.has(s.kind)) };
      // A crate of the workspace, used by its name; a package of one segment written in full
      // (Kotlin's and Java's `q.K`, where `q.r.D` was found through `q.r`).
      if ((rules.modulePaths || rules.packagePaths) && !named) {
        const files = this.modules(expr, file, rules);
        if (files.length) return { files };
      }
      if (rules.nestedPackages && !named) return this.nestedPackage(expr, file, rules);
      return null;
    }
    const left = this.value(expr.slice(0, dot), file, scopeId, rules, depth + 1);
    const right = expr.slice(dot + 1);
    if (!left) {
      if (rules.nestedPackages) return this.nestedPackage(expr, file, rules);
      const files = rules.packagePaths ? this.modules(expr, file, rules) : [];
      return files.length ? { files } : null;
    }
    if ("files" in left) {
      const hits = this.exported(left.files, right, rules, depth + 1);
      if (hits.length) return { symbols: hits };
      if (rules.nestedPackages) return this.nestedPackage(expr, file, rules);
      // `a.b.c.Type` where `a.b` is a package too (Kotlin's, Java's): `a.b.c` is a package of its own.
      const files = rules.packagePaths ? this.modules(expr, file, rules) : [];
      return files.length ? { files } : this.submodule(left.files, right, rules);
    }
    const owner = unique(left.symbols);
    if (!owner) return null;
    if (owner.kind === "file") {
      // A module bound to a name (`use crate::a;`, `mod a;` seen through its parent).
      const hits = this.exported(this.filesOf([owner]), right, rules, depth + 1);
      return hits.length ? { symbols: hits } : null;
    }
    if (TYPE_KINDS.has(owner.kind)) {
      const hits = this.member(owner, right, depth + 1);
      return hits.length ? { symbols: hits } : null;
    }
    const hits = this.lookup.children(owner.id, right);
    const declared = hits.filter(isDeclaration);
    if (declared.length || !hits.length || !rules.modulePaths) return hits.length ? { symbols: hits } : null;
    // `mod m { pub use a::X; }`: X is what the use brings in.
    const ownerFile = this.lookup.file(owner.fileId);
    const b = ownerFile ? this.importsNamed(ownerFile.id, right).find((i) => !i.reexport) : undefined;
    return b && ownerFile ? this.binding(b, ownerFile, rules, depth + 1) : null;
  }

  /**
   * A package named by a dotted path (C#'s `A.B` in `A.B.Type`): in full, or relative to the file's
   * package or one enclosing it, innermost first.
   */
  private nestedPackage(path: string, file: FileInfo, rules: LanguageRules): Value | null {
    let ns = file.packageName ?? "";
    for (;;) {
      const files = this.modules(ns ? `${ns}.${path}` : path, file, rules);
      if (files.length) return { files };
      if (!ns) return null;
      const dot = ns.lastIndexOf(".");
      ns = dot < 0 ? "" : ns.slice(0, dot);
    }
  }

  /** `pkg.sub` where `pkg` is a Python package and `sub` one of its modules. */
  private submodule(files: FileInfo[], name: string, rules: LanguageRules): Value | null {
    if (files.length !== 1 || !files[0]!.path.endsWith("__init__.py")) return null;
    const hits = rules.resolveModule(`./${name}`.replace("/", ""), files[0]!, this.lookup, this.ctx);
    return hits.length ? { files: hits } : null;
  }

  /** What an import binding brings in. */
  private binding(b: ImportBinding, file: FileInfo, rules: LanguageRules, depth: number): Value | null {
    if (depth > MAX_DEPTH) this.truncated = true;
    if (depth > MAX_DEPTH || b.imported === null) return null;
    // What a binding brings in depends on the file alone; a path followed through declarations
    // (Rust) is asked for again and again, from every use of the name.
    if (!rules.modulePaths) return this.computeBinding(b, file, rules, depth);
    return this.memo(this.bindingCache, b, () => this.computeBinding(b, file, rules, depth));
  }

  private computeBinding(b: ImportBinding, file: FileInfo, rules: LanguageRules, depth: number): Value | null {
    if (b.imported === null) return null;
    // `export { a as b }` and `module.exports = { b: a }` name a declaration of this very file,
    // exported or not.
    if (b.specifier === "" && b.imported !== "*") {
      const own = this.lookup.topLevel(file.id, b.imported).filter(isDeclaration);
      if (own.length) return { symbols: own };
      // `import * as Classes from "./classes"; export { Classes };`: what the file imports as the name.
      const imported = this.importsNamed(file.id, b.imported).find((i) => !i.reexport);
      return imported ? this.binding(imported, file, rules, depth + 1) : null;
    }
    if (rules.nestedPackages && b.imported !== "*") {
      // `using Geo = Example.Geometry;`: an alias of a namespace.
      const ns = this.modules(b.specifier ? `${b.specifier}.${b.imported}` : b.imported, file, rules);
      if (ns.length) return { files: ns };
    }
    const modules = this.modules(b.specifier, file, rules);
    if (b.imported === "*") {
      if (modules.length) return this.wholeModule(modules, rules, depth) ?? { files: modules };
      if (rules.modulePaths && depth < MAX_DEPTH) return this.value(b.specifier, file, file.nodeId, rules, depth + 1);
      // `import static a.b.C.*` / `import a.b.C` style: the last segment is a type in a package.
      const type = this.typeFromPackage(b.specifier, file, rules, depth);
      return type ? { symbols: [type] } : null;
    }
    if (!modules.length && rules.modulePaths) {
      // `use crate::inline_mod::f`, `use Kind::Variant`: the path goes through declarations.
      if (depth >= MAX_DEPTH || b.specifier === "") return null;
      return this.value(`${b.specifier}.${b.imported}`, file, file.nodeId, rules, depth + 1);
    }
    if (modules.length) {
      const hits = this.exported(modules, b.imported, rules, depth + 1);
      if (hits.length) return { symbols: hits };
      // `from pkg import module`
      if (rules.importsReexport) {
        const sub = this.modules(`${b.specifier}${b.specifier.endsWith(".") ? "" : "."}${b.imported}`, file, rules);
        if (sub.length) return { files: sub };
      }
      return null;
    }
    const type = this.typeFromPackage(b.specifier, file, rules, depth);
    if (!type) return null;
    const members = this.member(type, b.imported, depth + 1);
    return members.length ? { symbols: members } : null;
  }

  /**
   * `const Shape = require("./shape")`: the variable is what that module assigned to `module.exports`,
   * when it assigned one of its declarations.
   */
  private required(
    file: FileInfo,
    name: string,
    top: SymbolInfo[],
    rules: LanguageRules,
    depth: number,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    if (top.length !== 1 || (top[0]!.kind !== "variable" && top[0]!.kind !== "constant")) return null;
    const b = this.importsNamed(file.id, name).find((i) => !i.reexport && i.imported === "*");
    const v = b ? this.binding(b, file, rules, depth) : null;
    return v && "symbols" in v ? { symbols: v.symbols, how: "import" } : null;
  }

  /**
   * What a module is when it is not a namespace: the declaration a CommonJS module assigns to
   * `module.exports` (`module.exports = Shape`), which `require` returns, and `import * as` with
   * TypeScript's interop too. Null for a module of exports.
   */
  private wholeModule(modules: FileInfo[], rules: LanguageRules, depth: number): Value | null {
    if (modules.length !== 1) return null;
    const whole = this.importsNamed(modules[0]!.id, MODULE_EXPORTS).find((b) => b.reexport);
    return whole ? this.binding(whole, modules[0]!, rules, depth + 1) : null;
  }

  private typeFromPackage(spec: string, file: FileInfo, rules: LanguageRules, depth: number): SymbolInfo | null {
    const dot = spec.lastIndexOf(".");
    if (dot <= 0) return null;
    const files = this.modules(spec.slice(0, dot), file, rules);
    return unique(this.exported(files, spec.slice(dot + 1), rules, depth + 1).filter((s) => TYPE_KINDS.has(s.kind)));
  }

  /**
   * Memoise `compute` under `key` unless it hit the depth limit: a truncated answer depends on how
   * deep the first caller was, and caching it would make results depend on resolution order.
   */
  private memo<K, T>(cache: Map<K, T>, key: K, compute: () => T): T {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const outer = this.truncated;
    this.truncated = false;
    const value = compute();
    if (!this.truncated) cache.set(key, value);
    this.truncated ||= outer;
    return value;
  }

  /**
   * As `memo`, for a whole receiver's reading (`exprType`, `value` at depth 0), by scope, then
   * expression: the calls of a function share receivers (`s.Lock()`, `s.buf.Write()`, `s.Unlock()`;
   * x-tools reads 39k receivers, 17.5k of them again). Not where a variable's type depends on the line
   * being resolved (`flowTypes`).
   */
  private perReceiver<T>(
    caches: Map<number, Map<string, T>>,
    scopeId: number,
    expr: string,
    rules: LanguageRules,
    compute: () => T,
  ): T {
    if (rules.flowTypes) return compute();
    let byExpr = caches.get(scopeId);
    if (!byExpr) caches.set(scopeId, (byExpr = new Map()));
    return this.memo(byExpr, expr, compute);
  }

  /** Names a module offers to importers, following re-exports. Module file lists come from `modules()`. */
  private exported(files: FileInfo[], name: string, rules: LanguageRules, depth: number): SymbolInfo[] {
    if (depth > MAX_DEPTH) {
      this.truncated = true;
      return [];
    }
    if (files.length === 0) return [];
    // Keyed by the file list itself: `modules()` hands out one array per module, so repeats hit.
    let caches = this.exportedCache.get(files);
    if (!caches) {
      caches = [new Map(), new Map()];
      this.exportedCache.set(files, caches);
    }
    const cache = caches[rules.exportsOnly ? 1 : 0];
    return this.memo(cache, name, () => this.computeExported(files, name, rules, depth));
  }

  private computeExported(files: FileInfo[], name: string, rules: LanguageRules, depth: number): SymbolInfo[] {
    const out: SymbolInfo[] = [];
    // A many-file module (a Java package, a Go folder) is looked up through one index of its names.
    const byFile = files.length > 4 ? groupByFile(this.packageNames.namedIn(files, name)) : undefined;
    for (const f of files) {
      const own = (byFile ? (byFile.get(f.id) ?? []) : this.lookup.topLevel(f.id, name).filter(isDeclaration)).filter(
        (s) => !rules.exportsOnly || s.exported,
      );
      // Rust keeps modules apart from values: `mod spawn; pub use spawn::spawn;` has both.
      const modulesOnly = own.length > 0 && own.every((s) => s.kind === "module");
      out.push(...own);
      if (own.length && !modulesOnly) continue;
      const fileRules = RULES[f.language] ?? rules;
      if (!fileRules.reexports) continue;
      // `export * as ns from "./m"`: the name stands for module m, as its file node, unless another
      // binding of the name gives a value (Rust's `mod spawn; pub use spawn::spawn;`).
      let module: SymbolInfo[] = [];
      let value = false;
      let atTop: boolean | undefined;
      for (const b of this.importsNamed(f.id, name)) {
        if (!b.reexport && !fileRules.importsReexport) continue;
        // Python: a name imported inside a function (`from django.db import models` in one of
        // django/forms/models.py's) is that function's, not an attribute of the module.
        if (!b.reexport && !(atTop ??= this.lookup.topLevel(f.id, name).some((s) => s.kind === "import"))) continue;
        const v = this.binding(b, f, fileRules, depth + 1);
        if (v && "symbols" in v && v.symbols.length) {
          out.push(...v.symbols);
          value = true;
          break;
        }
        if (v && "files" in v && !module.length) module = this.fileNodes(v.files);
      }
      if (!value) out.push(...module);
      if (out.length) continue;
      for (const b of this.importsNamed(f.id, "*")) {
        // Rust: only `pub use m::*` passes a module's names on; following every glob import of every
        // module (`use super::*` in each) is exponential and finds nothing more in code that compiles.
        const passes = b.reexport || (fileRules.importsReexport && !fileRules.modulePaths);
        if (passes) out.push(...this.exported(this.modules(b.specifier, f, fileRules), name, fileRules, depth + 1));
      }
    }
    return rules.partialTypes ? this.oneTypePerName(dedupe(out)) : dedupe(out);
  }

  /** Top-level declarations named `name` anywhere in the file's package. */
  /** A file's package (see `LanguageRules.packageOf`), asked once per file: most name lookups ask it. */
  private packageOf(file: FileInfo, rules: LanguageRules): FileGroup | null {
    return groupOf(this.packages, file, () => rules.packageOf(file, this.lookup));
  }

  private packageNamed(file: FileInfo, rules: LanguageRules, name: string): SymbolInfo[] {
    const pkg = this.packageOf(file, rules);
    if (!pkg) return [];
    // A method declared outside its type (Go's `func (s *S) m()` in any file of the package) is not a
    // bare name, as in the file itself (see `name`); nor, in Swift, is any member an extension declares.
    const hits = this.packageNames
      .named(pkg.key, () => pkg.files, name)
      .filter((s) => (rules.ownerScopes ? s.qualifiedName === s.name : !isOwnedMethod(s)));
    return rules.partialTypes ? this.oneTypePerName(hits) : hits;
  }

  private fileNodes(files: FileInfo[]): SymbolInfo[] {
    return files.map((f) => this.lookup.symbol(f.nodeId)).filter((s): s is SymbolInfo => s !== undefined);
  }

  /** `this.name` in a function its module exports at the top level: the module's export `name` (see `moduleThis`). */
  private moduleMember(
    scopeId: number,
    name: string,
    file: FileInfo,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    return this.thisIsModule(scopeId, file) ? this.ownExport(name, file, rules) : null;
  }

  /**
   * `this` where it is the module's object (a function the module exports, see `thisIsModule`), as a
   * type: its file's node, whose members are the module's exports and whose fields are the `this.x`
   * its functions assign (recorded at the file's scope, as no type encloses them). Null elsewhere.
   */
  private moduleObject(scopeId: number, file: FileInfo, rules: LanguageRules): SymbolInfo | null {
    return rules.moduleThis && this.thisIsModule(scopeId, file) ? (this.lookup.symbol(file.nodeId) ?? null) : null;
  }

  /** Whether `this` in a scope is the module's object: the scope is a function the module exports at its top level. */
  private thisIsModule(scopeId: number, file: FileInfo): boolean {
    const scope = this.lookup.symbol(scopeId);
    return scope?.kind === "function" && scope.exported && scope.parentId === file.nodeId;
  }

  /**
   * `this._router.use()`, or `router.handle()` after `var router = this._router`, where `this` is the
   * module's object (see `moduleMember`): a member of what another of the module's functions put in
   * that field (Express's `this._router = new Router()`), a module or an instance of a class.
   */
  private moduleField(
    field: string,
    scopeId: number,
    name: string,
    file: FileInfo,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    if (!this.thisIsModule(scopeId, file)) return null;
    const entry = this.typesAt(file.id, file.nodeId, field)[0];
    if (!entry) return null;
    const held = this.mixedIn(entry.typeName, file.nodeId, name, file, rules);
    if (held) return held;
    const type = this.typeNamed(entry.typeName, file, file.nodeId, rules, 0);
    return type ? { symbols: this.member(type, name, 0), how: "typed" } : null;
  }

  /** The file's own module's export `name` (`this.g()` where `this` is the module), as a resolution. */
  private ownExport(
    name: string,
    file: FileInfo,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    return this.moduleExport(this.modules("", file, rules), name, rules);
  }

  /** A module's export `name`, as a resolution (null: none). */
  private moduleExport(
    files: FileInfo[],
    name: string,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    const hits = this.exported(files, name, rules, 0);
    return hits.length ? { symbols: hits, how: "module" } : null;
  }

  /**
   * `app.init()` where `mixin(app, proto)` gave app the members of proto, a module (required, or the
   * file's own module object): that module's export `init`.
   */
  private mixedIn(
    source: string,
    scopeId: number,
    name: string,
    file: FileInfo,
    rules: LanguageRules,
  ): { symbols: SymbolInfo[]; how: Resolution } | null {
    if (source === MODULE_EXPORTS) return this.ownExport(name, file, rules);
    const value = this.value(source, file, scopeId, rules, 0);
    if (!value) return null;
    if ("files" in value) return this.moduleExport(value.files, name, rules);
    const only = unique(value.symbols);
    return only?.kind === "file" ? this.moduleExport(this.filesOf([only]), name, rules) : null;
  }

  private filesOf(fileNodes: SymbolInfo[]): FileInfo[] {
    return fileNodes.map((n) => this.lookup.file(n.fileId)).filter((f): f is FileInfo => f !== undefined);
  }

  private modules(spec: string, file: FileInfo, rules: LanguageRules): FileInfo[] {
    // C's `#include "x.h"` is looked up beside the including file first.
    const relative = spec.startsWith(".") || spec === "" || rules.modulePaths === true || rules.linkage === true;
    const from = relative ? file.id : file.language;
    let bySpec = this.moduleCache.get(from);
    if (!bySpec) this.moduleCache.set(from, (bySpec = new Map()));
    let hit = bySpec.get(spec);
    if (!hit) {
      hit = rules.resolveModule(spec, file, this.lookup, this.ctx);
      bySpec.set(spec, hit);
    }
    return hit;
  }

  /**
   * The type an expression evaluates to, when the code says so: a variable or parameter with a declared
   * or inferred type, `this.f` / `self.f` (a field of the enclosing type or its bases), a call (the
   * callee's declared return type), and chains of these: `this.#client.getCache().find`.
   */
  private exprType(expr: string, file: FileInfo, scopeId: number, rules: LanguageRules, depth = 0): SymbolInfo | null {
    if (depth > 0) return this.typeOfExpr(expr, file, scopeId, rules, depth);
    return this.perReceiver(this.receiverTypes, scopeId, expr, rules, () =>
      this.typeOfExpr(expr, file, scopeId, rules, 0),
    );
  }

  private typeOfExpr(
    expr: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    if (depth > MAX_DEPTH) return null;
    const typed = this.chainType(expr, file, scopeId, rules, depth);
    const methods = rules.arrayMethods;
    if (typed || !methods) return typed;
    // An array's own methods, when no project type answered: `items.find(f)` and `items.at(-1)` are
    // elements of items, `items.slice()` and `items.filter(f)` arrays of the same elements, as are
    // a map's `values` where that is a property.
    const calls = expr.includes("()");
    const element = calls ? methods.element.exec(expr) : null;
    const copy = element ? null : ((calls ? methods.copy.exec(expr) : null) ?? methods.views?.exec(expr) ?? null);
    const call = element ?? copy;
    if (!call) return null;
    // Read again, as another collection method may lead up to it (`byId.Values.First()`).
    return this.exprType(`${call[1]}${element ? ELEMENT : ""}${call[2]}`, file, scopeId, rules, depth + 1);
  }

  /**
   * What a bare call (`newConn()`) calls: a function by name, or a method of the enclosing type, as it
   * does as a call (see `target`); and what the name found, when it found something else.
   */
  private bareCallee(
    bare: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): { callee: SymbolInfo | null; named: { symbols: SymbolInfo[] } | null } {
    const ownMethod = () =>
      unique(this.enclosingMembers(scopeId, bare, rules, (s) => CALLABLE_KINDS.has(s.kind), depth + 1));
    let callee = rules.membersFirst ? ownMethod() : null;
    const named = callee ? null : this.name(bare, file, scopeId, rules, depth + 1);
    callee ??= named ? unique(named.symbols.filter((s) => CALLABLE_KINDS.has(s.kind))) : null;
    if (!callee && !named && rules.implicitThis) callee = ownMethod();
    return { callee, named };
  }

  /**
   * The method a local is bound to, for a bare call of it: Go's method values (`incr := s.incr`),
   * Python's `push = acc.push`, JavaScript's `const p = acc.push` or `acc.push.bind(acc)`. Only a
   * method of a value whose type is known: a package's function, or a member of a value of unknown
   * type, is left to the other rules.
   */
  private methodValue(name: string, file: FileInfo, scopeId: number, rules: LanguageRules): SymbolInfo | null {
    const local = this.boundLocal(name, file, scopeId, rules);
    const read = local ? METHOD_VALUE.exec(local.typeName) : null;
    if (!local || !read) return null;
    const [, receiver, method] = read;
    const owner = rules.selfNames.has(receiver!)
      ? this.enclosingType(local.scopeId)
      : this.exprType(receiver!, file, local.scopeId, rules);
    if (!owner || !TYPE_KINDS.has(owner.kind)) return null;
    return unique(this.member(owner, method!, 0).filter((s) => s.kind === "method"));
  }

  /** The local named `name` in scope at `scopeId`, when some local of the file has a member as value. */
  private boundLocal(
    name: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
  ): { typeName: string; scopeId: number } | null {
    let bound = this.boundLocals.get(file.id);
    if (!bound) {
      bound = new Set(this.lookup.localTypes(file.id).flatMap((t) => (METHOD_VALUE.test(t.typeName) ? [t.name] : [])));
      this.boundLocals.set(file.id, bound);
    }
    return bound.has(name) ? this.variableTypeName(name, file, scopeId, rules) : null;
  }

  /** The type a receiver chain stands for, segment by segment. */
  private chainType(
    expr: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    // `new ssa.Call()` (a Go type switch's case): a value of a type named by a path heads the chain whole.
    const made = expr.startsWith("new ") ? MADE_OF_PATH.exec(expr) : null;
    const parts = made ? [made[0], ...expr.slice(made[0].length + 1).split(".")].filter(Boolean) : expr.split(".");
    const head = parts[0]!;
    let current: SymbolInfo | null;
    /** Where the chain's member segments start. */
    let rest = 1;
    const position = TUPLE_POSITION.exec(head);
    if (head.startsWith("new ") && head.endsWith("()")) {
      // `new Foo().m()`: a Foo; Java's `((TreeNode) p).m()` too, a type nested in the enclosing one.
      const typeName = head.slice(4, -2);
      const named = this.name(typeName, file, scopeId, rules, depth + 1);
      current = named
        ? unique(named.symbols.filter((s) => TYPE_KINDS.has(s.kind)))
        : this.typeNamed(typeName, file, scopeId, rules, depth + 1);
    } else if (position) {
      // `split()#1`: a position of what a bare call returns.
      const { callee } = this.bareCallee(position[1]!, file, scopeId, rules, depth);
      current = callee ? this.tupleType(callee, position[2]!, depth + 1) : null;
    } else if (head.endsWith(`()${ELEMENT}`)) {
      // `pending()[0]`: an element of what a bare call returns.
      const { callee } = this.bareCallee(head.slice(0, -2 - ELEMENT.length), file, scopeId, rules, depth);
      current = callee ? this.returnElement(callee, depth + 1) : null;
    } else if (head.endsWith("()")) {
      const bare = head.slice(0, -2);
      const { callee, named } = this.bareCallee(bare, file, scopeId, rules, depth);
      current = callee ? this.returnType(callee, depth + 1) : null;
      // Kotlin's and Swift's `Foo(x)` makes a Foo: a call of a type's name is of that type.
      if (!callee && named && !rules.newOnly && !named.symbols.some((s) => CALLABLE_KINDS.has(s.kind)))
        current = unique(named.symbols.filter((s) => TYPE_KINDS.has(s.kind)));
    } else if (head.endsWith(ELEMENT)) {
      // `items[0]`, a loop's or callback's element of `items`: of the element type its type names
      // (a field's, for languages where a bare name may be one).
      const of = head.slice(0, -ELEMENT.length);
      const named = this.variableTypeName(of, file, scopeId, rules);
      const owner = !named && rules.implicitThis ? this.enclosingType(scopeId) : undefined;
      current = named
        ? this.elementOf(named.typeName, file, named.scopeId, rules, depth)
        : owner
          ? this.memberElement(owner, of, depth + 1)
          : null;
      // Where the collection keeps its own type (Kotlin's `List`), its elements' is recorded apart.
      current ??= this.variableType(head, file, scopeId, rules, depth + 1);
    } else if (rules.selfNames.has(head)) {
      current = parts.length > 1 ? (this.enclosingType(scopeId) ?? this.moduleObject(scopeId, file, rules)) : null;
    } else {
      current = this.variableType(head, file, scopeId, rules, depth + 1);
      // Java and friends: a bare field name means `this.field`.
      if (!current && rules.implicitThis) {
        const owner = this.enclosingType(scopeId);
        current = owner ? this.fieldType(owner, head, depth + 1) : null;
      }
      if (!current && parts.length > 1) {
        // A module-level value of known type (`export const manager = new Manager()`) or a type itself.
        const v = this.value(head, file, scopeId, rules, depth + 1);
        const called = TUPLE_POSITION.exec(parts[1]!);
        const owner = v && "symbols" in v ? unique(v.symbols) : null;
        // A module is also one file's node (Rust's `use crate::runtime::blocking` names mod.rs).
        const module = v && ("files" in v || (owner !== null && MODULE_KINDS.has(owner.kind)));
        if (module && (parts[1]!.endsWith("()") || called)) {
          // A function of an imported module or package: `pkg.Open()`, `mpsc.channel()#1`.
          const fnName = called ? called[1]! : parts[1]!.slice(0, -2);
          const fn = this.value(`${head}.${fnName}`, file, scopeId, rules, depth + 1);
          const callee = fn && "symbols" in fn ? unique(fn.symbols.filter((s) => CALLABLE_KINDS.has(s.kind))) : null;
          current = !callee
            ? null
            : called
              ? this.tupleType(callee, called[2]!, depth + 1)
              : this.returnType(callee, depth + 1);
          rest = 2;
        } else {
          current = owner && TYPE_KINDS.has(owner.kind) ? owner : owner ? this.declaredType(owner, depth + 1) : null;
        }
      }
    }
    for (const segment of parts.slice(rest)) {
      if (!current) return null;
      const at = TUPLE_POSITION.exec(segment);
      if (at) {
        const m = unique(this.member(current, at[1]!, depth + 1).filter((s) => CALLABLE_KINDS.has(s.kind)));
        current = m ? this.tupleType(m, at[2]!, depth + 1) : null;
      } else if (segment.endsWith(ELEMENT)) {
        current = this.memberElement(current, segment.slice(0, -ELEMENT.length), depth + 1);
      } else if (segment.endsWith("()")) {
        const m = unique(
          this.member(current, segment.slice(0, -2), depth + 1).filter((s) => CALLABLE_KINDS.has(s.kind)),
        );
        current = m ? this.returnType(m, depth + 1) : null;
      } else {
        current = this.fieldType(current, segment, depth + 1);
      }
    }
    return current;
  }

  /** A local variable or parameter's type, innermost scope first, then the file's top level. */
  private variableType(
    name: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    if (!this.lookup.localTypes(file.id).length) return null;
    let scope = this.lookup.symbol(scopeId);
    while (scope) {
      const owner = scope;
      if (!TYPE_KINDS.has(owner.kind)) {
        const entry = this.assignmentAt(owner.id, name, file, rules);
        if (entry) {
          const typed = this.assignedType(entry, file, owner.id, rules, depth);
          // An element or a member of something untyped (`x = rows[0]`, `info = ii.info`) says
          // nothing: the other assignments decide, as they did before elements and members were typed.
          if (typed || !this.saysLittle(entry.typeName, file, owner.id, rules)) return typed;
          const other = this.assignmentAt(owner.id, name, file, rules, true);
          return other ? this.assignedType(other, file, owner.id, rules, depth) : null;
        }
      }
      scope = this.outerScope(owner);
    }
    return null;
  }

  /** The type of a value as one assignment gives it, read where it was assigned (`x = x.next()` follows the x before it). */
  private assignedType(
    entry: LocalTypeInfo,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    const outer = this.at;
    // Elsewhere the answer may hang on the line being resolved, in another file (see `assignmentAt`).
    if (!rules.flowTypes || outer?.fileId !== file.id)
      return this.typeNamed(entry.typeName, file, scopeId, rules, depth);
    let byDepth = this.assignedTypes.get(entry);
    if (!byDepth) this.assignedTypes.set(entry, (byDepth = new Map()));
    return this.memo(byDepth, depth, () => {
      this.at = { fileId: file.id, line: entry.line };
      try {
        return this.typeNamed(entry.typeName, file, scopeId, rules, depth);
      } finally {
        this.at = outer;
      }
    });
  }

  /** Where a local variable or parameter's type is written, innermost scope first: its entry's type name and scope. */
  private variableTypeName(
    name: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
  ): { typeName: string; scopeId: number } | null {
    for (let scope = this.lookup.symbol(scopeId); scope;) {
      if (!TYPE_KINDS.has(scope.kind)) {
        const entry = this.assignmentAt(scope.id, name, file, rules);
        if (entry) return { typeName: entry.typeName, scopeId: scope.id };
      }
      scope = this.outerScope(scope);
    }
    return null;
  }

  /**
   * The scope names are looked up in next, out from `scope`: its parent, or for a method written in
   * a function of its class (`this.render = function () {..}` in a constructor) that function, whose
   * names the method sees; the class comes after it.
   */
  private outerScope(scope: SymbolInfo, written = this.writtenIn(scope)): SymbolInfo | undefined {
    if (scope.parentId === null) return undefined;
    const fn =
      written && written !== WRITTEN_IN_CLASS
        ? this.lookup.children(scope.parentId, written).find((s) => CALLABLE_KINDS.has(s.kind))
        : undefined;
    return fn ?? this.lookup.symbol(scope.parentId);
  }

  /**
   * For a method written as a statement of a function's body (WRITTEN_IN), that function's name as a
   * member of the method's class (`constructor`), or WRITTEN_IN_CLASS when the function is the class
   * itself (`function Queue() { this.clear = .. }`); null for any other symbol.
   */
  private writtenIn(scope: SymbolInfo): string | null {
    if (scope.kind !== "method") return null;
    return this.typesAt(scope.fileId, scope.id, WRITTEN_IN)[0]?.typeName ?? null;
  }

  /**
   * The element type of a member of `type`: a field (`items` typed `Item[]`) or what a method returns
   * (`all()` returning `Item[]`).
   */
  private memberElement(type: SymbolInfo, segment: string, depth: number): SymbolInfo | null {
    if (depth > MAX_DEPTH) return null;
    if (segment.endsWith("()")) {
      const m = unique(this.member(type, segment.slice(0, -2), depth).filter((s) => CALLABLE_KINDS.has(s.kind)));
      return m ? this.returnElement(m, depth) : null;
    }
    const file = this.lookup.file(type.fileId);
    const entry = file ? this.typesAt(file.id, type.id, `this.${segment}`)[0] : undefined;
    // Where the collection keeps its own type (or has none: a C# array), its elements' is recorded apart.
    const own = file ? this.typesAt(file.id, type.id, `this.${segment}${ELEMENT}`)[0] : undefined;
    if (file && (entry || own)) {
      const rules = RULES[file.language] ?? RULES.typescript!;
      const element = entry ? this.elementOf(entry.typeName, file, type.id, rules, depth) : null;
      return element ?? (own ? this.typeNamed(own.typeName, file, type.id, rules, depth + 1) : null);
    }
    for (const base of this.bases(type, depth)) {
      const hit = this.memberElement(base, segment, depth + 1);
      if (hit) return hit;
    }
    return null;
  }

  /** The element type of what a callable returns (`all()` returning `Item[]`). */
  private returnElement(callable: SymbolInfo, depth: number): SymbolInfo | null {
    const file = this.lookup.file(callable.fileId);
    const entry = file ? this.typesAt(file.id, callable.id, "()")[0] : undefined;
    if (!file || !entry) return null;
    const rules = RULES[file.language] ?? RULES.typescript!;
    const element = this.elementOf(entry.typeName, file, callable.id, rules, depth);
    const own = element ? undefined : this.typesAt(file.id, callable.id, `()${ELEMENT}`)[0];
    return element ?? (own ? this.typeNamed(own.typeName, file, callable.id, rules, depth + 1) : null);
  }

  /** The type of an element of a value whose type is written `T[]` (`Item[]`, `Array<Item>`): T. */
  private elementOf(
    typeName: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    if (typeName.endsWith("[]")) return this.typeNamed(typeName.slice(0, -2), file, scopeId, rules, depth + 1);
    // A value typed by an expression (`const items = repo.all()`, `var stack = this.stack`): the
    // element of what it stands for.
    return typeName.includes("(") || typeName.endsWith(ELEMENT) || MEMBER_PATH.test(typeName)
      ? this.exprType(`${typeName}${ELEMENT}`, file, scopeId, rules, depth + 1)
      : null;
  }

  /**
   * A scope's local types named `name`, in stored order (the first is what `find` used to return).
   * Indexed by name within each scope: a class's fields and a long function's variables are many
   * (MediaWiki's), and scanning them for each name was a quarter of its resolution.
   */
  private typesAt(fileId: number, scopeId: number, name: string): readonly LocalTypeInfo[] {
    let byScope = this.typesByScope.get(fileId);
    if (!byScope) {
      if (this.typesByScope.size >= INDEXED_TYPE_FILES) this.typesByScope.clear();
      byScope = new Map();
      for (const t of this.lookup.localTypes(fileId)) {
        let byName = byScope.get(t.scopeId);
        if (!byName) byScope.set(t.scopeId, (byName = new Map()));
        const named = byName.get(t.name);
        if (named) named.push(t);
        else byName.set(t.name, [t]);
      }
      this.typesByScope.set(fileId, byScope);
    }
    return byScope.get(scopeId)?.get(name) ?? NO_TYPES;
  }

  /**
   * A scope's typing of a name as seen from the line being resolved. With `flowTypes`, its last
   * assignment before that line (the first of several on one line; a use on an assignment's own line
   * is in its value: `x = x.next()`), else its first (a use before any, in a loop, or from another
   * file). Without, its first: the declared type.
   */
  private assignmentAt(
    scopeId: number,
    name: string,
    file: FileInfo,
    rules: LanguageRules,
    skipLittle = false,
  ): LocalTypeInfo | undefined {
    const line = rules.flowTypes && this.at?.fileId === file.id ? this.at.line : null;
    let first: LocalTypeInfo | undefined;
    let best: LocalTypeInfo | undefined;
    for (const t of this.typesAt(file.id, scopeId, name)) {
      if (skipLittle && this.saysLittle(t.typeName, file, scopeId, rules)) continue;
      first ??= t;
      if (line !== null && t.line < line && (!best || t.line > best.line)) best = t;
    }
    return best ?? first;
  }

  /**
   * Whether a type is written as an element, a member or a tuple position of another value
   * (`rows[0]`, `ii.info`, `self.repo`, `split()#1`), which is unknown when that value's type is. A dotted name whose head is an import,
   * a module or a type is a type's path (`testing.T`, `models.Order`), which says what it says.
   */
  private saysLittle(typeName: string, file: FileInfo, scopeId: number, rules: LanguageRules): boolean {
    if (typeName.startsWith(DOC_TYPE)) return false;
    if (typeName.endsWith(ELEMENT) || TUPLE_POSITION.test(typeName)) return true;
    // What `map` makes (`items[0].copy()[]`, see mappedElements): elements, and no type of its own.
    if (typeName.endsWith("[]") && (typeName.includes("(") || typeName.includes(ELEMENT))) return true;
    const dot = typeName.indexOf(".");
    if (dot < 0 || typeName.includes("(")) return false;
    const head = typeName.slice(0, dot);
    if (rules.selfNames.has(head) || this.variableTypeName(head, file, scopeId, rules)) return true;
    return !this.importsNamed(file.id, head).length && !this.value(head, file, scopeId, rules, 0);
  }

  /** The declared or inferred type of a variable, constant or property symbol. */
  private declaredType(sym: SymbolInfo, depth: number): SymbolInfo | null {
    if (sym.kind !== "variable" && sym.kind !== "constant" && sym.kind !== "property") return null;
    const file = this.lookup.file(sym.fileId);
    if (!file || sym.parentId === null) return null;
    const parent = this.lookup.symbol(sym.parentId);
    const name = parent && TYPE_KINDS.has(parent.kind) ? `this.${sym.name}` : sym.name;
    const entry = this.typesAt(file.id, sym.parentId, name)[0];
    if (entry?.typeName === OBJECT_TYPE) return sym;
    return entry
      ? this.typeNamed(entry.typeName, file, sym.parentId, RULES[file.language] ?? RULES.typescript!, depth)
      : null;
  }

  /** The type name written on a variable, constant or property symbol, whether or not it resolves. */
  private declaredTypeName(sym: SymbolInfo): string | null {
    if (sym.parentId === null) return null;
    const file = this.lookup.file(sym.fileId);
    const parent = this.lookup.symbol(sym.parentId);
    if (!file || !parent) return null;
    const key = TYPE_KINDS.has(parent.kind) ? `this.${sym.name}` : sym.name;
    const entry = this.typesAt(file.id, parent.id, key)[0];
    return entry && !entry.typeName.includes("(") ? this.throughAlias(entry.typeName, file) : null;
  }

  /** A callable's declared return type (`key` "()"), or a position of it (see `tupleType`). */
  private returnType(callable: SymbolInfo, depth: number, key = "()"): SymbolInfo | null {
    const file = this.lookup.file(callable.fileId);
    if (!file) return null;
    const entry = this.typesAt(file.id, callable.id, key)[0];
    if (entry?.typeName === OBJECT_TYPE) return callable;
    if (!entry) return null;
    const rules = RULES[file.language] ?? RULES.typescript!;
    const typed = this.typeNamed(entry.typeName, file, callable.id, rules, depth);
    // Python's `return clone`: a name that is no type is a local of the function, of the type its
    // last assignment before that return gives it (where variables have only assigned types).
    if (typed || !rules.flowTypes || !BARE_NAME.test(entry.typeName)) return typed;
    const outer = this.at;
    this.at = { fileId: file.id, line: entry.line };
    try {
      return this.variableType(entry.typeName, file, callable.id, rules, depth + 1);
    } finally {
      this.at = outer;
    }
  }

  /** The bound of a type parameter `name` declared around a scope (see TYPE_BOUND), or null. */
  private typeBound(
    name: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    for (let s = this.lookup.symbol(scopeId); s; s = s.parentId === null ? undefined : this.lookup.symbol(s.parentId)) {
      const entry = this.typesAt(file.id, s.id, `${TYPE_BOUND}${name}`)[0];
      if (entry) return entry.typeName === name ? null : this.typeNamed(entry.typeName, file, s.id, rules, depth + 1);
    }
    return null;
  }

  /** A position of what a callable returns: its `()#i` (see TUPLE). */
  private tupleType(callable: SymbolInfo, position: string, depth: number): SymbolInfo | null {
    return this.returnType(callable, depth, `()${TUPLE}${position}`);
  }

  /** The declared type of field `name` on a type or, failing that, on its bases. */
  private fieldType(type: SymbolInfo, name: string, depth = 0): SymbolInfo | null {
    if (depth > MAX_DEPTH) return null;
    const file = this.lookup.file(type.fileId);
    if (!file) return null;
    const entry = this.typesAt(file.id, type.id, `this.${name}`)[0];
    const rules = RULES[file.language] ?? RULES.typescript!;
    const typed = entry ? this.typeNamed(entry.typeName, file, type.id, rules, depth) : null;
    // A field typed here by a name we cannot follow: where a field is one property of the object
    // (`sharedFields`), its bases' typing of it holds as well; elsewhere this one hides theirs.
    if (typed || (entry && !rules.sharedFields)) return typed;
    for (const base of this.bases(type, depth)) {
      const hit = this.fieldType(base, name, depth + 1);
      if (hit) return hit;
    }
    return null;
  }

  /** A type written as a name (`Foo`, `ns.Foo`) or, for inferred types, as an expression (`make()`). */
  private typeNamed(
    typeName: string,
    file: FileInfo,
    scopeId: number,
    rules: LanguageRules,
    depth: number,
  ): SymbolInfo | null {
    if (depth > MAX_DEPTH || typeName.startsWith(MIXIN)) return null;
    if (typeName.startsWith(DOC_TYPE)) {
      const written = typeName.slice(DOC_TYPE.length);
      return this.typeNamed(written, file, scopeId, rules, depth) ?? this.projectType(written, file);
    }
    if (typeName.endsWith(ELEMENT)) return this.exprType(typeName, file, scopeId, rules, depth + 1);
    if (typeName.includes("(")) {
      const made = this.exprType(typeName, file, scopeId, rules, depth + 1);
      // Python's `x = mod.cos(y)`: a call of a class by a dotted path (or of a class named as functions
      // are) makes that class, where no language needs `new`.
      const plainCall = typeName.indexOf("(") === typeName.length - 2;
      if (made || rules.newOnly || !plainCall) return made;
      return this.typeNamed(typeName.slice(0, -2), file, scopeId, rules, depth + 1);
    }
    // A fluent method's `this` (TypeScript) or `Self` (Python, Swift): the type it is a member of.
    if (typeName === "this") return this.enclosingType(scopeId) ?? this.moduleObject(scopeId, file, rules);
    const v = this.value(typeName, file, scopeId, rules, depth + 1);
    if (!v && typeName === "Self") return this.enclosingType(scopeId) ?? null;
    if (!v && (rules.ownerScopes || rules.nestedTypesByName) && !typeName.includes(".")) {
      // A type nested in an enclosing type is named bare inside it (Swift's `NativeState` in `AppContext`,
      // Java's `TreeNode` in `HashMap`).
      for (
        let t = this.enclosingType(scopeId);
        t;
        t = t.parentId === null ? undefined : this.enclosingType(t.parentId)
      ) {
        const nested = unique(this.member(t, typeName, depth + 1).filter((s) => TYPE_KINDS.has(s.kind)));
        if (nested) return nested;
      }
    }
    if (!v && !typeName.includes(".")) {
      const bound = this.typeBound(typeName, file, scopeId, rules, depth);
      if (bound) return bound;
    }
    // `const cache = this.cache`, `const repo = deps.repo`: a dotted name that is no type is a value's
    // member, of the type that member has.
    if (!v || "files" in v)
      return typeName.includes(".") ? this.exprType(typeName, file, scopeId, rules, depth + 1) : null;
    const types = v.symbols.filter((s) => TYPE_KINDS.has(s.kind));
    if (types.length) return unique(types);
    // `srv := http.DefaultServer`: a value, of the type it was declared or made with.
    const value = unique(v.symbols);
    return value ? this.declaredType(value, depth + 1) : null;
  }

  /**
   * The project's one type named `name` in the file's language family (JavaScript and TypeScript share
   * their classes): what a doc comment names without importing it (`@param {AnimationMixer} mixer`).
   */
  private projectType(name: string, file: FileInfo): SymbolInfo | null {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
    const family = LANGUAGE_FAMILY[file.language] ?? file.language;
    return unique(
      this.lookup.named(name).filter((s) => {
        if (!TYPE_KINDS.has(s.kind)) return false;
        const language = this.lookup.file(s.fileId)?.language;
        return language !== undefined && (LANGUAGE_FAMILY[language] ?? language) === family;
      }),
    );
  }

  /** Members of a type by name, its own first, then its bases', nearest first. */
  private member(type: SymbolInfo, name: string, depth: number): SymbolInfo[] {
    if (depth > MAX_DEPTH) {
      this.truncated = true;
      return [];
    }
    let byName = this.memberCache.get(type.id);
    if (!byName) this.memberCache.set(type.id, (byName = new Map()));
    return this.memo(byName, name, () => this.computeMember(type, name, depth));
  }

  /**
   * Overloads are inherited: `listIterator()` in a list that declares only `listIterator(int)` calls
   * its base's `listIterator()`. Where every candidate is a method of one type whose parameter count
   * is known and not the call's argument count, the nearest base's method of the name and count is
   * taken, or none (the method may be an outside base's: a view's `addView(child)`).
   */
  private inheritedOverloads(ref: RefInfo, candidates: SymbolInfo[]): SymbolInfo[] {
    const arity = ref.argCount;
    const owner = candidates[0]?.parentId;
    if (arity === null || owner === null || owner === undefined) return candidates;
    const kind = candidates[0]!.kind;
    for (const s of candidates)
      if (s.kind !== kind || s.parentId !== owner || s.paramCount === null || s.paramCount === arity) return candidates;
    // Constructors are not inherited: the one called is one the index does not hold (Kotlin's
    // primary constructor is its class: `super(message, cause)` beside `constructor(code, message, cause)`).
    if (kind === "constructor") return [];
    if (kind !== "method") return candidates;
    const type = this.lookup.symbol(owner);
    if (!type || !TYPE_KINDS.has(type.kind)) return candidates;
    for (const base of this.bases(type, 0)) {
      const hits = this.overridden(base, ref.name, arity, 0);
      if (hits.length) return hits;
    }
    return [];
  }

  /**
   * The methods of a name a method overrides from this base: the nearest base's of that name, or,
   * with `arity` (the overriding method's parameter count, where methods are overloaded), the
   * nearest of as many parameters, looking past a base whose methods of the name have other counts.
   */
  private overridden(
    type: SymbolInfo,
    name: string,
    arity: number | null,
    depth: number,
    kinds: ReadonlySet<NodeKind> = CALLABLE_KINDS,
  ): SymbolInfo[] {
    if (arity === null) return this.member(type, name, depth).filter((s) => kinds.has(s.kind));
    if (depth > MAX_DEPTH) return [];
    const own = this.ownMembers(type, name).filter((s) => kinds.has(s.kind));
    const fits = own.filter((s) => s.paramCount === null || s.paramCount === arity);
    if (fits.length) return fits;
    for (const base of this.bases(type, depth)) {
      const hits = this.overridden(base, name, arity, depth + 1, kinds);
      if (hits.length) return hits;
    }
    return [];
  }

  private computeMember(type: SymbolInfo, name: string, depth: number): SymbolInfo[] {
    // The module's object (see `moduleObject`): its members are what the module exports.
    if (type.kind === "file") {
      const file = this.lookup.file(type.fileId);
      const rules = file ? RULES[file.language] : undefined;
      return (file && rules && this.ownExport(name, file, rules)?.symbols) || [];
    }
    const own = this.ownMembers(type, name);
    if (own.length) return own.length > 1 ? this.inherentFirst(own) : own;
    for (const base of this.bases(type, depth)) {
      const hits = this.member(base, name, depth + 1);
      if (hits.length) return hits;
    }
    return [];
  }

  /**
   * With `inherentFirst`, a type's own members of a name without its trait methods where it has an
   * inherent method of the name too (a field of the name stays: `self.haystack` beside `haystack()`).
   */
  private inherentFirst(members: SymbolInfo[]): SymbolInfo[] {
    const file = this.lookup.file(members[0]!.fileId);
    if (!file || !RULES[file.language]?.inherentFirst) return members;
    const fromTrait = (m: SymbolInfo) => this.typesAt(m.fileId, m.id, TRAIT_METHOD).length > 0;
    const inherent = members.some((m) => m.kind === "method" && !fromTrait(m));
    return inherent ? members.filter((m) => !fromTrait(m)) : members;
  }

  /**
   * The files whose declarations may be a type's members, as `ownMembers` looks them up: its own, its
   * parts', its crate's or its package's; null where any file of its language may (Ruby reopens a
   * class anywhere, by its full name).
   */
  memberFiles(type: SymbolInfo): number[] | null {
    const file = this.lookup.file(type.fileId);
    const rules = file ? RULES[file.language] : undefined;
    if (!file || !rules) return [type.fileId];
    if (rules.rubyConstants) return null;
    if (rules.partialTypes) return this.parts(type).map((p) => p.fileId);
    const group = rules.crateOf
      ? this.crateOf(file, rules)
      : rules.membersAcrossPackage
        ? this.packageOf(file, rules)
        : null;
    return (group?.files ?? [file]).map((f) => f.id);
  }

  private ownMembers(type: SymbolInfo, name: string): SymbolInfo[] {
    const qname = `${type.qualifiedName}.${name}`;
    const file = this.lookup.file(type.fileId);
    const rules = file ? RULES[file.language] : undefined;
    if (rules?.partialTypes) return this.partsMembers(type, qname);
    const own = this.lookup.byQualifiedName(type.fileId, qname).filter(isDeclaration);
    if (own.length || !file || !rules) return own;
    if (rules.crateOf) return this.crateMembers(type, name, this.crateOf(file, rules));
    if (!rules.membersAcrossPackage) return own;
    const pkg = this.packageOf(file, rules);
    return (pkg?.files ?? []).flatMap((f) => this.lookup.byQualifiedName(f.id, qname).filter(isDeclaration));
  }

  /**
   * Members declared in other files of the type's crate (`impl Point` in another module). Names are
   * qualified within their file, so this holds only when no other file of the crate declares a type
   * of the same qualified name.
   */
  private crateMembers(type: SymbolInfo, name: string, crate: FileGroup | null): SymbolInfo[] {
    if (!crate) return [];
    const types = this.crateNamed(crate, type.qualifiedName).filter((s) => TYPE_KINDS.has(s.kind));
    if (types.length !== 1 || types[0]!.id !== type.id) return [];
    const qname = `${type.qualifiedName}.${name}`;
    return this.crateNamed(crate, name).filter((s) => s.qualifiedName === qname);
  }

  private constructors(type: SymbolInfo): SymbolInfo[] {
    const ctors: SymbolInfo[] = [];
    const file = this.lookup.file(type.fileId);
    if (!file) return [];
    // Constructors are named `constructor` (TS), `__init__` (Python) or after the class (Java).
    for (const n of ["constructor", "__init__", type.name]) {
      ctors.push(...this.lookup.children(type.id, n).filter((s) => s.kind === "constructor"));
    }
    return ctors.length ? dedupe(ctors) : [type];
  }

  /** Every base type of a type, transitively, as resolution finds them. */
  ancestors(typeId: number): SymbolInfo[] {
    const type = this.lookup.symbol(typeId);
    const file = type && this.lookup.file(type.fileId);
    if (file && RULES[file.language]?.rubyConstants) return this.ruby.ancestorParts(type.qualifiedName);
    const found = new Map<number, SymbolInfo>();
    const queue = type ? [type] : [];
    while (queue.length) {
      for (const b of this.bases(queue.pop()!, 0)) {
        if (found.has(b.id) || b.id === typeId) continue;
        found.set(b.id, b);
        queue.push(b);
      }
    }
    return [...found.values()];
  }

  /** Resolved base types (extends and implements), memoised per type. */
  /**
   * The project type an anonymous class's (or object expression's) member names as its supertype
   * (`new Foo() { .. }`, `object : Foo { .. }`), looked up from the declaration the object is in, as
   * a class's base is from the class's scope (see `bases`).
   */
  private writtenBase(dotted: string | null, file: FileInfo, member: SymbolInfo, rules: LanguageRules): SymbolInfo[] {
    if (dotted === null) return [];
    const scope = member.parentId ?? file.nodeId;
    const v = this.value(dotted, file, scope, rules, 1);
    if (!v || "files" in v) {
      const nested = rules.nestedTypesByName ? this.typeNamed(dotted, file, scope, rules, 1) : null;
      return nested ? [nested] : [];
    }
    const hit = unique(v.symbols.filter((s) => TYPE_KINDS.has(s.kind)));
    return hit ? [hit] : [];
  }

  private bases(type: SymbolInfo, depth: number): SymbolInfo[] {
    const cached = this.basesCache.get(type.id);
    if (cached) return cached;
    this.basesCache.set(type.id, []); // cycles in broken code must terminate
    const file = this.lookup.file(type.fileId);
    const rules = file ? RULES[file.language] : undefined;
    const out: SymbolInfo[] = [];
    if (file && rules && depth <= MAX_DEPTH) {
      // A partial type's bases may be written on any of its parts.
      for (const part of rules.partialTypes ? this.parts(type) : [type]) {
        const partFile = part.fileId === file.id ? file : this.lookup.file(part.fileId);
        if (!partFile) continue;
        for (const ref of this.lookup.heritage(part.id)) {
          const keep = (t: SymbolInfo | null) => {
            if (!t) this.outsideBase(type, ref.name, rules);
            else if (!out.some((o) => o.id === t.id)) out.push(t);
          };
          if (rules.partialTypes && ref.receiver === null && ref.name === part.name) {
            keep(unique(this.baseOfItsName(part, partFile, rules)));
            continue;
          }
          const scope = part.parentId ?? partFile.nodeId;
          const expr = ref.receiver ? `${ref.receiver}.${ref.name}` : ref.name;
          const v = this.value(expr, partFile, scope, rules, depth + 1);
          if (!v || "files" in v) {
            // A type nested in an enclosing type, named bare (`DescendingIterator extends DeqIterator`).
            const nested = rules.nestedTypesByName ? this.typeNamed(expr, partFile, scope, rules, depth + 1) : null;
            if (nested && nested.id !== type.id && !out.some((o) => o.id === nested.id)) out.push(nested);
            else if (!nested) this.outsideBase(type, ref.name, rules);
            continue;
          }
          let hits = v.symbols.filter((s) => TYPE_KINDS.has(s.kind) && s.qualifiedName !== type.qualifiedName);
          if (rules.partialTypes) hits = this.oneTypePerName(hits);
          keep(unique(hits));
        }
      }
    }
    this.basesCache.set(type.id, out);
    return out;
  }

  /**
   * The parts of a partial type: top-level types of the same name in files of its package (one
   * namespace, not the enclosing ones). A nested type is its own only part.
   */
  private parts(type: SymbolInfo): SymbolInfo[] {
    const cached = this.partsCache.get(type.id);
    if (cached) return cached;
    let out = [type];
    const file = this.lookup.file(type.fileId);
    if (file && file.packageName !== null && type.qualifiedName === type.name && RULES[file.language]?.partialTypes) {
      const key = `parts:${file.language}:${file.packageName}`;
      const files = () => this.lookup.filesInPackage(file.packageName!, file.language);
      const found = this.packageNames
        .named(key, files, type.name)
        .filter((s) => s.kind === type.kind && !this.derivesFromItsName(s));
      if (found.length > 1 && found.some((s) => s.id === type.id)) out = found;
    }
    this.partsCache.set(type.id, out);
    return out;
  }

  /**
   * The members of a qualified name declared in the parts of a partial type, and only there: a file
   * may declare two types of one name (`ReactPromise` and `ReactPromise<T>`), whose members share
   * their qualified names.
   */
  private partsMembers(type: SymbolInfo, qname: string): SymbolInfo[] {
    const parts = this.parts(type);
    const partIds = new Set(parts.map((p) => p.id));
    return [...new Set(parts.map((p) => p.fileId))].flatMap((fileId) =>
      this.lookup
        .byQualifiedName(fileId, qname)
        .filter((s) => isDeclaration(s) && s.parentId !== null && partIds.has(s.parentId)),
    );
  }

  /**
   * C#: what a type's base list means by the type's own name (`class P : P<string>`, see
   * `derivesFromItsName`): another type of that name, of its namespace or one enclosing it, else of a
   * namespace the file uses; never the type itself, which a lookup from its own file finds first.
   */
  private baseOfItsName(type: SymbolInfo, file: FileInfo, rules: LanguageRules): SymbolInfo[] {
    const other = (s: SymbolInfo) => TYPE_KINDS.has(s.kind) && s.id !== type.id;
    const pkg = this.packageOf(file, rules);
    const inPackage = pkg ? this.packageNames.named(pkg.key, () => pkg.files, type.name).filter(other) : [];
    if (inPackage.length) return this.oneTypePerName(inPackage);
    for (const b of this.importsNamed(file.id, "*")) {
      if (b.reexport) continue;
      const hits = this.exported(this.modules(b.specifier, file, rules), type.name, rules, 1).filter(other);
      if (hits.length) return this.oneTypePerName(hits);
    }
    return [];
  }

  /**
   * Whether a type's base list names the type's own name, bare: `class ReactPromise :
   * ReactPromise<JSValue>` derives from another type of that name (of another generic arity, which
   * is not stored), since no type derives from itself. Such a declaration is no part of a partial
   * type of its name, and its base of that name is one of the others.
   */
  private derivesFromItsName(type: SymbolInfo): boolean {
    return this.lookup.heritage(type.id).some((r) => r.receiver === null && r.name === type.name);
  }

  /**
   * Parts of one partial type among candidates stand for it once: declarations of one qualified name
   * and kind in one package. The part in the file named after the type stands for it, else the part
   * in the first file by path.
   */
  private oneTypePerName(list: SymbolInfo[]): SymbolInfo[] {
    if (list.length < 2) return list;
    const first = new Map<string, { symbol: SymbolInfo; path: string }>();
    for (const s of list) {
      if (!TYPE_KINDS.has(s.kind)) continue;
      const f = this.lookup.file(s.fileId);
      if (!f) continue;
      const key = `${f.packageName}\0${s.kind}\0${s.qualifiedName}`;
      const seen = first.get(key);
      // The part in the file named after the type (`Order.cs` beside `Order.Lines.cs`), else the first.
      const rank = `${baseName(f.path) === s.name ? 0 : 1}${f.path}`;
      if (!seen || rank < seen.path) first.set(key, { symbol: s, path: rank });
    }
    const keep = new Set([...first.values()].map((v) => v.symbol.id));
    return list.filter((s) => !TYPE_KINDS.has(s.kind) || keep.has(s.id) || !this.lookup.file(s.fileId));
  }

  /**
   * The members named `name` (that `keep` accepts) of the enclosing type or its bases; with
   * `outerMembers`, of the first type it is nested in that has some, innermost first.
   */
  private enclosingMembers(
    scopeId: number,
    name: string,
    rules: LanguageRules,
    keep: (s: SymbolInfo) => boolean = () => true,
    depth = 0,
  ): SymbolInfo[] {
    const outward = rules.outerMembers && !rules.outerMembers.universal.has(name);
    for (let scope = scopeId; ;) {
      // An anonymous class body is a type around the scope too, with no symbol of its own.
      const body = rules.anonymousBodies ? this.anonymousBodyAround(scope) : null;
      const file = body ? this.lookup.file(body.method.fileId) : undefined;
      if (body && file) {
        // Kotlin: a local callable around the object (a parameter of function type) comes before members.
        if (body.locals.includes(name)) return [];
        const hits = this.anonymousMembers(body, name, file, rules).filter(keep);
        // Past a supertype from outside the project too (unlike a named type's, see `membersKnown`):
        // that is how such a body is written (`new PrivilegedAction<>() { .. }` calling the class's
        // own methods), and it is how the outward search went before the body had members.
        if (hits.length || !outward || body.method.parentId === null) return hits;
        scope = body.method.parentId;
        continue;
      }
      const owner = this.enclosingType(scope);
      if (!owner) return [];
      const hits = this.member(owner, name, depth).filter(keep);
      if (hits.length || !outward || owner.parentId === null || !this.membersKnown(owner, name, depth)) return hits;
      scope = owner.parentId;
    }
  }

  /**
   * The anonymous class body a scope is in, innermost and short of a named type around the scope:
   * the first of the scope and the symbols it is nested in that is marked as a body's method.
   */
  private anonymousBodyAround(scopeId: number): AnonymousScope | null {
    for (let s = this.lookup.symbol(scopeId); s && s.parentId !== null && !TYPE_KINDS.has(s.kind);) {
      const mark = this.typesAt(s.fileId, s.id, ANONYMOUS_BODY)[0];
      if (mark) return { method: s, ...readAnonymousBody(mark.typeName) };
      s = this.lookup.symbol(s.parentId);
    }
    return null;
  }

  /**
   * The members of an anonymous class body named `name`: its own methods (the symbols beside the
   * scope's method that are marked as the same body's), else its supertypes'.
   */
  private anonymousMembers(body: AnonymousScope, name: string, file: FileInfo, rules: LanguageRules): SymbolInfo[] {
    const holder = body.method.parentId;
    const own =
      holder === null
        ? []
        : this.lookup.children(holder, name).filter((s) => {
            const mark = this.typesAt(s.fileId, s.id, ANONYMOUS_BODY)[0];
            return mark !== undefined && readAnonymousBody(mark.typeName).key === body.key;
          });
    if (own.length) return own;
    for (const base of this.anonymousSupertypes(body, file, rules)) {
      const hits = this.member(base, name, 0);
      if (hits.length) return hits;
    }
    return [];
  }

  /** The project types an anonymous class body names as its supertypes. */
  private anonymousSupertypes(body: AnonymousScope, file: FileInfo, rules: LanguageRules): SymbolInfo[] {
    return body.supertypes.flatMap((dotted) => this.writtenBase(dotted, file, body.method, rules));
  }

  /**
   * Whether `type` and its bases, all the way up, are known not to declare `name` anywhere we cannot
   * see: a base from outside the project may (an inner `Worker extends Thread` calling `start()` calls
   * Thread's, not the outer class's `start`), unless it is one whose members the rules list.
   */
  private membersKnown(type: SymbolInfo, name: string, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    const bases = this.bases(type, depth);
    const outside = this.outsideBases.get(type.id);
    if (outside === null || outside?.has(name)) return false;
    return bases.every((b) => this.membersKnown(b, name, depth + 1));
  }

  /** Record that `type` has a base from outside the project, named `base` (see `membersKnown`). */
  private outsideBase(type: SymbolInfo, base: string, rules: LanguageRules): void {
    const members = rules.outerMembers?.external[base];
    const known = this.outsideBases.get(type.id);
    if (!members || known === null) return void this.outsideBases.set(type.id, null);
    const names = known ?? new Set<string>();
    for (const m of members) names.add(m);
    this.outsideBases.set(type.id, names);
  }

  /**
   * Swift: a type an extension declares (`typealias View` in `extension ExpoSwiftUI`, a child of its
   * file named `ExpoSwiftUI.View`) is named bare only inside the extended type, which
   * `enclosingNestedTypes` looks in first: found by its bare name otherwise, through its own file's
   * declarations, it is a mistake (SwiftUI's `View` in that file).
   */
  private declaredInExtension(s: SymbolInfo): boolean {
    if (s.qualifiedName === s.name || s.parentId === null) return false;
    return this.lookup.symbol(s.parentId)?.kind === "file";
  }

  /**
   * A written type named bare: one nested in a type around the use, innermost first, outward and
   * through extensions (Swift's `outerNestedTypes`), past members named like it (C#'s `public State
   * State;` in a class nested beside the enum State, Java's `TreeNode` inside `HashMap.TreeNode`,
   * not its constructor). Unlike a member, a nested type is not looked for in a base from outside the
   * project, so one is no reason to stop (a nested `Comparer : IComparer<T>` names itself in its own
   * fields; Java's `class Node extends WeakReference<Itr>` names its outer class's `Itr`).
   */
  private enclosingNestedTypes(scopeId: number, name: string): SymbolInfo[] {
    let owner = this.enclosingType(scopeId);
    for (let depth = 0; owner && depth < MAX_DEPTH; depth++) {
      const hits = this.member(owner, name, 0).filter((s) => TYPE_KINDS.has(s.kind));
      if (hits.length) return hits;
      const parent = owner.parentId === null ? undefined : this.lookup.symbol(owner.parentId);
      // A type declared in an extension (`Outer.Inner`, in the file) is nested in the extended type.
      owner =
        parent && parent.kind !== "file"
          ? this.enclosingType(parent.id)
          : owner.qualifiedName !== owner.name
            ? (this.ownerType(owner) ?? undefined)
            : undefined;
    }
    return [];
  }

  private enclosingType(scopeId: number): SymbolInfo | undefined {
    let s = this.lookup.symbol(scopeId);
    while (s && !TYPE_KINDS.has(s.kind)) {
      if (s.qualifiedName !== s.name && s.parentId !== null) {
        const parent = this.lookup.symbol(s.parentId);
        if (parent?.kind === "file") return this.ownerType(s) ?? undefined;
      }
      s = s.parentId === null ? undefined : this.lookup.symbol(s.parentId);
    }
    return s;
  }

  /**
   * The type a member declared apart from it belongs to (`ownerScopes`: Swift's `extension Foo`
   * member `Foo.m`): the one type of that qualified name in the compilation unit.
   */
  private ownerType(member: SymbolInfo): SymbolInfo | null {
    const file = this.lookup.file(member.fileId);
    const rules = file ? RULES[file.language] : undefined;
    if (!file || !rules?.ownerScopes) return null;
    const crate = this.crateOf(file, rules);
    if (!crate) return null;
    const [head, ...rest] = member.qualifiedName.split(".").slice(0, -1);
    let type = unique(this.crateNamed(crate, head!).filter((s) => TYPE_KINDS.has(s.kind) && s.qualifiedName === head));
    for (const segment of rest)
      type = type ? unique(this.member(type, segment, 0).filter((s) => TYPE_KINDS.has(s.kind))) : null;
    return type;
  }

  /**
   * Swift: a protocol's requirement and its default implementation in an extension of the protocol
   * (one qualified name) are one method to a caller, which reaches the requirement, as a call through
   * an interface reaches the interface's method.
   */
  private requirementFirst(candidates: SymbolInfo[]): SymbolInfo[] {
    const qname = candidates[0]!.qualifiedName;
    if (candidates.some((s) => s.qualifiedName !== qname)) return candidates;
    const inBody = candidates.filter((s) => {
      const parent = s.parentId === null ? undefined : this.lookup.symbol(s.parentId);
      return parent !== undefined && TYPE_KINDS.has(parent.kind);
    });
    return inBody.length === 1 ? inBody : candidates;
  }

  /**
   * Swift: overloads told apart by argument labels (`register(module:)`, `register(holder:)`). The
   * extractor records a call's labels as the local type `(labels)<line>:<name>` of its scope and a
   * function's as `(labels)`; candidates whose labels do not fit the call's are dropped, unless none
   * fits (labels the grammar misread).
   */
  private byLabels(ref: RefInfo, file: FileInfo, candidates: SymbolInfo[], strict = false): SymbolInfo[] {
    const key = `(labels)${ref.line}:${ref.name}`;
    let call: string | undefined;
    for (let scope = this.lookup.symbol(ref.fromId); scope && call === undefined;) {
      call = this.typesAt(file.id, scope.id, key)[0]?.typeName;
      scope = scope.parentId === null ? undefined : this.lookup.symbol(scope.parentId);
    }
    if (call === undefined) return candidates;
    const args = call.split(",").map((a) => {
      const eq = a.indexOf("=");
      return eq < 0 ? { label: a, expr: null } : { label: a.slice(0, eq), expr: a.slice(eq + 1) };
    });
    const params = new Map<number, string[]>();
    for (const s of candidates) {
      const declared = this.typesAt(s.fileId, s.id, "(labels)")[0];
      params.set(s.id, declared ? declared.typeName.split(",") : []);
    }
    const labels = args.map((a) => a.label);
    const fits = candidates.filter((s) => labelsFit(params.get(s.id)!.map(labelOf), labels));
    // One candidate whose recorded labels the call's do not fit: a method of that name elsewhere
    // (`decode(v, in: r)` calling `decode(_:expectingKind:in:)` of its base, `super.init(frame:)`).
    // Unlabelled arguments at the end may be what the grammar made of an `if let x = f(a) { .. }`
    // body, so the labels before them are enough.
    if (strict) {
      const declared = params.get(candidates[0]!.id)!.map(labelOf);
      let n = labels.length;
      while (n > 0 && labels[n - 1] === "_") n--;
      const fit = fits.length > 0 || (n < labels.length && labelsFit(declared, labels.slice(0, n)));
      return fit || !declared.length ? candidates : [];
    }
    if (fits.length < 2) return fits.length ? fits : candidates;
    return this.byArgumentTypes(ref, file, fits, params, args) ?? fits;
  }

  /**
   * Swift overloads of one label list told apart by an argument's type (`reject(_: Error)` and
   * `reject(_: Exception)`), where the argument is a name or call chain of known type: the overload
   * whose parameter types are nearest that type's (itself, then its bases), if one is nearest; for a
   * type from outside the project, the overload taking that very type.
   * Only overloads whose parameters match the arguments one to one are compared.
   */
  private byArgumentTypes(
    ref: RefInfo,
    file: FileInfo,
    candidates: SymbolInfo[],
    params: Map<number, string[]>,
    args: { label: string; expr: string | null }[],
  ): SymbolInfo[] | null {
    const rules = RULES[file.language];
    if (!rules) return null;
    const types = args.map((a) => (a.expr ? this.exprType(a.expr, file, ref.fromId, rules) : null));
    // A type from outside the project, as written on the argument's declaration (`error: Error`).
    const written = args.map((a, i) =>
      a.expr && !types[i] ? this.writtenType(a.expr, file, ref.fromId, rules) : null,
    );
    if (types.every((t) => t === null) && written.every((w) => w === null)) return null;
    let best: SymbolInfo[] = [];
    let bestScore = Infinity;
    for (const s of candidates) {
      const declared = params.get(s.id)!;
      if (declared.length !== args.length) return null;
      let score = 0;
      for (let i = 0; i < args.length && score !== Infinity; i++) {
        const type = types[i];
        const colon = declared[i]!.indexOf(":");
        if ((!type && !written[i]) || colon < 0) continue;
        const param = declared[i]!.slice(colon + 1).replace(/[?*]$/, "");
        const distance = type
          ? this.typeDistance(type, param)
          : lastSegment(written[i]!) === lastSegment(param)
            ? 0
            : null;
        score = distance === null ? Infinity : score + distance;
      }
      if (score < bestScore) [best, bestScore] = [[s], score];
      else if (score === bestScore) best.push(s);
    }
    return best.length === 1 ? best : null;
  }

  /** How many inheritance steps from a type to a type named `name` (0: itself); null when none. */
  private typeDistance(type: SymbolInfo, name: string): number | null {
    const target = name.slice(name.lastIndexOf(".") + 1);
    const seen = new Set<number>();
    let level = [type];
    for (let d = 0; d <= MAX_DEPTH && level.length; d++) {
      const next: SymbolInfo[] = [];
      for (const t of level) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        if (t.name === target) return d;
        for (const part of this.parts(t))
          for (const base of this.lookup.heritage(part.id)) if (base.name === target) return d + 1;
        next.push(...this.bases(t, 0));
      }
      level = next;
    }
    return null;
  }
}

/** An extension callable and the type it extends (a type name as written, or GENERIC_RECEIVER). */
interface Extension {
  symbol: SymbolInfo;
  extends: string;
  /** Whether `extends` names a type of the project; worked out on first need. */
  projectType?: boolean;
}

/** A file's name without folders and its last extension. */
function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot < 0 ? name : name.slice(0, dot);
}

/**
 * A type name as written, from a local type: a name, or a type from outside the project made where
 * objects are made by calling the type (`val x = Foo()` in Kotlin, recorded as `Foo()`); null for
 * other call chains.
 */
function writtenName(typeName: string, rules: LanguageRules): string | null {
  if (!typeName.includes("(")) return typeName;
  return !rules.newOnly && /^[A-Z]\w*\(\)$/.test(typeName) ? typeName.slice(0, -2) : null;
}

/**
 * Whether a call's argument labels fit a function's parameters (labels only, see `labelOf`; Swift): in order, a parameter with a
 * default value (`x?`) may be left out, a variadic one (`x*`) takes unlabelled arguments after its
 * first, and every parameter left over must have a default.
 */
function labelOf(param: string): string {
  const colon = param.indexOf(":");
  return colon < 0 ? param : param.slice(0, colon) + (/[?*]$/.exec(param)?.[0] ?? "");
}

function labelsFit(declared: string[], call: string[]): boolean {
  let i = 0;
  for (const label of call) {
    for (;;) {
      const d = declared[i];
      if (d === undefined) return false;
      const name = d.replace(/[?*]$/, "");
      if (name === label || (d.endsWith("*") && label === "_")) break;
      if (!d.endsWith("?") && !d.endsWith("*")) return false;
      i++;
    }
    if (!declared[i]!.endsWith("*")) i++;
  }
  return declared.slice(i).every((d) => d.endsWith("?") || d.endsWith("*"));
}

/** The root type every type derives from, as an extension names it (C#'s `object`, Kotlin's `Any`). */
const ROOT_TYPES: ReadonlySet<string> = new Set(["object", "Object", "Any"]);

/** `new String()`, as C# writes a literal receiver (`"abc".Slug()`): the keyword type made, else null. */
function madeKeywordType(receiver: string, rules: LanguageRules): string | null {
  if (!rules.keywordTypes) return null;
  const made = /^new (\w+)\(\)$/.exec(receiver)?.[1];
  return made && rules.keywordTypes.has(made) ? made : null;
}

function lastSegment(dotted: string): string {
  return dotted.slice(dotted.lastIndexOf(".") + 1);
}

function groupByFile(list: readonly SymbolInfo[]): Map<number, SymbolInfo[]> {
  const out = new Map<number, SymbolInfo[]>();
  for (const s of list) {
    const l = out.get(s.fileId);
    if (l) l.push(s);
    else out.set(s.fileId, [s]);
  }
  return out;
}

/** A method at the top level of its file, declared for a type by owner (`Point.new`). */
function isOwnedMethod(s: SymbolInfo): boolean {
  return s.kind === "method" && s.qualifiedName !== s.name;
}

/**
 * Rust: a member an `impl` declares (a method, `type Output`, `const ALL`), which sits in the scope the
 * `impl` is written in (the file, for a type of another file) under its type's name: its qualified
 * name is not the scope's and its own. A bare name never reaches one (`Self::Output` does, through
 * the type); `scope` null is the file, whose declarations' qualified names are their names.
 */
function implMember(s: SymbolInfo, scope: SymbolInfo | null, rules: LanguageRules): boolean {
  if (!rules.modulePaths) return false;
  return s.qualifiedName !== (scope && scope.kind !== "file" ? `${scope.qualifiedName}.${s.name}` : s.name);
}

/**
 * A name reached through a module (`q.Value`) is one the module declares, not a method that one of
 * its types declares at the top level (Go's `func (it *Iter) Value()`): those go unless nothing else
 * is left.
 */
function withoutOwnedMethods(list: SymbolInfo[]): SymbolInfo[] {
  const own = list.filter((s) => !isOwnedMethod(s));
  return own.length ? own : list;
}

/** What a read of a name may reach (see `Resolver.read`). */
const READ_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "variable", "enum_member", "property"]);
/** What a bare name read in C or C++ may be: no field, which only a member access reads. */
const BARE_READ_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "variable", "enum_member"]);

function acceptable(kind: EdgeKind, target: NodeKind): boolean {
  switch (kind) {
    case "calls":
      return CALL_TARGETS.has(target);
    case "instantiates":
      return INSTANTIABLE.has(target);
    case "extends":
    case "implements":
      return TYPE_KINDS.has(target) || target === "variable" || target === "constant" || target === "function";
    default:
      return target !== "file";
  }
}

function dedupe(list: SymbolInfo[]): SymbolInfo[] {
  const seen = new Set<number>();
  return list.filter((s) => !seen.has(s.id) && seen.add(s.id));
}

/** The one declaration meant, or null when there is none or several. */
/**
 * The first of several overloads of one method or function (one qualified name in one file) that a
 * call's argument count leaves: the call reaches one of them, and answers group them as one
 * definition. Null for any other list.
 */
function firstOverload(list: SymbolInfo[]): SymbolInfo | null {
  const first = list[0];
  if (!first) return null;
  let earliest = first;
  for (const s of list) {
    if (!CALLABLE_KINDS.has(s.kind) || s.fileId !== first.fileId || s.qualifiedName !== first.qualifiedName)
      return null;
    if (s.id < earliest.id) earliest = s;
  }
  return earliest;
}

/** The last of several definitions of one qualified name and kind in one file; null for any other list. */
function lastAlternative(list: SymbolInfo[], kinds: ReadonlySet<NodeKind>): SymbolInfo | null {
  const first = list[0];
  if (!first || !kinds.has(first.kind)) return null;
  let last = first;
  for (const s of list) {
    if (s.fileId !== first.fileId || s.qualifiedName !== first.qualifiedName || s.kind !== first.kind) return null;
    if (s.id > last.id) last = s;
  }
  return last;
}

/** Languages whose files use each other's types, by the first of them. */
const LANGUAGE_FAMILY: Readonly<Record<string, string>> = { typescript: "javascript" };

/** A file's group (package or crate) from `cache`, asked of `ask` the first time. */
function groupOf(cache: Map<number, FileGroup | null>, file: FileInfo, ask: () => FileGroup | null): FileGroup | null {
  let group = cache.get(file.id);
  if (group === undefined) cache.set(file.id, (group = ask()));
  return group;
}

/** A name alone, no path, call or element: `clone`. */
const BARE_NAME = /^[A-Za-z_$][\w$]*$/;
/** `this.stack`, `self.items`, `a.b.c`: a member of a value, by a dotted path of plain names. */
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** A value of a type named by a dotted path, heading a chain: `new ssa.Call()`. */
const MADE_OF_PATH = /^new [A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(\)/;

/** What a value naming a module is: a module or namespace declaration, or a file (a module of its own). */
const MODULE_KINDS: ReadonlySet<string> = new Set(["module", "namespace", "file"]);

/** `this._router`: a field of `this`, one name deep. */
const MODULE_FIELD = /^this\.[A-Za-z_$][\w$]*$/;

/** A member read off a receiver, not called (`s.incr`, `self.get`, `acc.push.bind()`): the receiver and the member. */
const METHOD_VALUE = /^((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)(?:\.bind\(\))?$/;
/**
 * A call and a position of its tuple result: `split()#1` → split, 1 (see TUPLE); or of what a function
 * given to it gets: `each()#1:0`, parameter 0 of the function given as argument 1 (`:this`, its receiver).
 */
const TUPLE_POSITION = new RegExp(`^(.+)\\(\\)${TUPLE}(\\d+(?::(?:\\d+|this))?)$`);

/** How a call finds a type's members, where its overloads may be inherited ones. */
const MEMBER_WAYS = new Set(["member", "inherited", "typed", "static"]);

function unique(list: SymbolInfo[]): SymbolInfo | null {
  const d = dedupe(list);
  return d.length === 1 ? d[0]! : null;
}

/** A file's import bindings of one name, by the function they were made in (see `importScopes`). */
interface ImportScopes {
  outside: readonly ImportBinding[];
  inFunction: Map<number, ImportBinding[]>;
}

function scopesOf(nodes: readonly SymbolInfo[], bindings: readonly ImportBinding[], lookup: Lookup): ImportScopes {
  const outside: ImportBinding[] = [];
  const inFunction = new Map<number, ImportBinding[]>();
  nodes.forEach((node, k) => {
    const parent = node.parentId === null ? undefined : lookup.symbol(node.parentId);
    if (parent && LEXICAL_SCOPES.has(parent.kind)) {
      const list = inFunction.get(parent.id);
      if (list) list.push(bindings[k]!);
      else inFunction.set(parent.id, [bindings[k]!]);
    } else outside.push(bindings[k]!);
  });
  return { outside, inFunction };
}
