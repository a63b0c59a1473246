import { CALLABLE_KINDS, type EdgeKind } from "../core/kinds.js";
import { OWN_INSTANCE } from "../core/extraction.js";
import type { FileInfo, Lookup, RefInfo, SymbolInfo } from "../core/lookup.js";
import { requireTarget } from "./languages/ruby.js";
import type { ResolvedEdge, Resolution } from "./resolver.js";

/** The local type the Ruby extractor puts on singleton methods (`def self.x`, `class << self`). */
const SINGLETON = "(singleton)";
const MAX_DEPTH = 12;

type Mode = "instance" | "singleton";

/** A class or module that includes (or extends) a module, and the side of it the module's methods join. */
interface Includer {
  type: string;
  mode: Mode;
  isClass: boolean;
}

/** A constant path resolved: a class or module (all its parts, reopened across files), or a plain constant. */
type Constant = { qname: string; parts: SymbolInfo[] } | { qname: string; value: SymbolInfo[] };

const isType = (s: SymbolInfo) => s.kind === "class" || s.kind === "module";
const MEMBER = (s: SymbolInfo) => CALLABLE_KINDS.has(s.kind) || s.kind === "property";

/**
 * Ruby's names, resolved as Ruby finds them (see docs/decisions.md, "Ruby"):
 * - constants are global once loaded, so `Foo` is looked up project-wide by lexical nesting: from
 *   `module A; class B` the candidates are `A.B.Foo`, `A.Foo`, then the ancestors' `X.Foo`, then `Foo`;
 *   `require` decides nothing (Rails autoloads);
 * - a class or module is every declaration of its qualified name (reopened classes are one class):
 *   its methods are those of every part, its mixins and superclass those written on any part;
 * - a method is looked up on the class (its singleton side for `Foo.x`, `self.x` in a singleton
 *   method and bare calls there), then its mixins (last included first; `extend`ed modules and a
 *   concern's `ClassMethods` for the singleton side), then the superclass, as Ruby's ancestors;
 * - a bare `foo` inside a method calls `self.foo`; `Foo.new` instantiates Foo and calls its (or an
 *   ancestor's) `initialize`; `super` calls the method of the same name in the ancestors.
 * A name found nowhere, or a receiver of unknown type, gives no edge.
 */
export class RubyResolution {
  private readonly byName = new Map<string, SymbolInfo[]>();
  private readonly partsCache = new Map<string, SymbolInfo[]>();
  private readonly singletons = new Map<number, Set<number>>();
  private readonly memberCache = new Map<string, SymbolInfo[]>();
  /** What holds a member, and what a class, module or constant, of each name (see `holders`). */
  private readonly memberHolders = new Map<string, Set<string>>();
  private readonly constantHolders = new Map<string, Set<string>>();

  constructor(private readonly lookup: Lookup) {}

  resolve(ref: RefInfo, file: FileInfo): ResolvedEdge[] {
    switch (ref.kind) {
      case "calls":
        return this.call(ref, file);
      case "extends":
      case "implements":
      case "references": {
        if (ref.name === "self") return [];
        const path = ref.receiver ? `${ref.receiver}.${ref.name}` : ref.name;
        // A superclass is named outside the class (`class B < A` inside B's own nesting is A's).
        const self = this.lookup.symbol(ref.fromId);
        const from = ref.kind === "extends" ? (self?.parentId ?? file.nodeId) : ref.fromId;
        const c = this.constant(path, from, 0, ref.kind === "extends" ? self?.qualifiedName : undefined);
        if (!c) return [];
        const target = "parts" in c ? this.representative(c.parts, c.qname) : c.value.length === 1 ? c.value[0]! : null;
        if (!target || target.id === ref.fromId) return [];
        return [{ targetId: target.id, kind: ref.kind, resolution: "lexical" }];
      }
      case "overrides": {
        const method = this.lookup.symbol(ref.fromId);
        const owner = method ? this.ownerType(method) : null;
        if (!method || !owner) return [];
        const mode: Mode = this.isSingleton(method) ? "singleton" : "instance";
        const hit = this.inherited(owner.qualifiedName, ref.name, mode, 0, new Set()).filter((s) =>
          CALLABLE_KINDS.has(s.kind),
        );
        return hit.length ? [{ targetId: hit[0]!.id, kind: "overrides", resolution: "inherited" }] : [];
      }
      default:
        return [];
    }
  }

  private call(ref: RefInfo, file: FileInfo): ResolvedEdge[] {
    const { receiver, name } = ref;
    const scope = this.lookup.symbol(ref.fromId);
    const method = scope ? this.enclosingCallable(scope) : null;
    const owner = scope ? this.ownerType(method ?? scope) : null;
    const edges = (hits: SymbolInfo[], how: Resolution, kind: EdgeKind = "calls") =>
      hits.map((s) => ({ targetId: s.id, kind, resolution: how }));
    if (receiver === null || receiver === "self" || receiver === OWN_INSTANCE) {
      // Inside a singleton method, or in the class body, self is the class; a callback's method
      // (`before_action :set_user`, OWN_INSTANCE) is an instance method of the class or module.
      const mode: Mode = receiver === OWN_INSTANCE || (method && !this.isSingleton(method)) ? "instance" : "singleton";
      if (owner) {
        const q = owner.qualifiedName;
        if (name === "new" && mode === "singleton" && owner.kind === "class") return this.instantiate(q, owner);
        const hits = this.members(q, name, mode);
        if (hits.length) return edges(hits, "member");
        if (mode === "instance" && owner.kind === "module") {
          const provided = this.fromIncluders(q, name);
          if (provided.length) return edges(provided, "inherited");
        }
        if (receiver === "self") return [];
      }
      if (receiver !== null) return [];
      // A method defined at the top level (a private method of Object): this file's, else a required file's.
      const top = this.lookup.topLevel(file.id, name).filter((s) => s.kind === "function");
      if (top.length) return edges(top, "lexical");
      const required: SymbolInfo[] = [];
      for (const f of this.requiredFiles(file)) {
        required.push(...this.lookup.topLevel(f.id, name).filter((s) => s.kind === "function"));
      }
      return required.length === 1 ? edges(required, "import") : [];
    }
    if (receiver === "super") {
      if (!method || !owner) return [];
      const mode: Mode = this.isSingleton(method) ? "singleton" : "instance";
      return edges(this.inherited(owner.qualifiedName, name, mode, 0, new Set()), "inherited");
    }
    if (receiver === "?") return [];
    if (receiver === "self.class") {
      // An instance method's class; in a singleton method (self is the class) it is Class, not ours.
      if (!method || !owner || owner.kind !== "class" || this.isSingleton(method)) return [];
      if (name === "new") return this.instantiate(owner.qualifiedName, owner);
      return edges(this.members(owner.qualifiedName, name, "singleton"), "static");
    }
    if (/^[A-Z]/.test(receiver)) {
      const created = receiver.endsWith(".new()");
      const c = this.constant(created ? receiver.slice(0, -6) : receiver, ref.fromId, 0);
      if (!c || !("parts" in c)) return [];
      if (created) return edges(this.members(c.qname, name, "instance"), "typed");
      if (name === "new") return this.instantiate(c.qname, this.representative(c.parts, c.qname));
      return edges(this.members(c.qname, name, "singleton"), "static");
    }
    // `@x.m` and `x.m` where the code assigned `Foo.new` to it.
    const type = this.variableType(receiver, scope ?? null, owner);
    return type ? edges(this.members(type, name, "instance"), "typed") : [];
  }

  /** `Foo.new`: an instance of Foo, made by its own or an ancestor's `initialize`. */
  private instantiate(qname: string, type: SymbolInfo | null): ResolvedEdge[] {
    if (!type || type.kind !== "class") return [];
    const out: ResolvedEdge[] = [{ targetId: type.id, kind: "instantiates", resolution: "static" }];
    for (const init of this.members(qname, "initialize", "instance")) {
      if (CALLABLE_KINDS.has(init.kind)) out.push({ targetId: init.id, kind: "calls", resolution: "member" });
    }
    return out;
  }

  /**
   * The class named by the `Foo.new` assigned to a local (in this or an enclosing callable) or an
   * `@ivar`, or to the `@ivar` a local was assigned.
   */
  private variableType(receiver: string, scope: SymbolInfo | null, owner: SymbolInfo | null): string | null {
    if (receiver.includes(".") || !scope) return null;
    if (receiver.startsWith("@")) {
      if (!owner || owner.kind !== "class") return null;
      for (const part of this.parts(owner.qualifiedName)) {
        const entry = this.lookup
          .localTypes(part.fileId)
          .find((t) => t.scopeId === part.id && t.name === `this.${receiver}`);
        if (entry) {
          const c = this.constant(entry.typeName, part.id, 0);
          return c && "parts" in c ? c.qname : null;
        }
      }
      return null;
    }
    const types = this.lookup.localTypes(scope.fileId);
    let s: SymbolInfo | undefined = scope;
    while (s && s.kind !== "file") {
      const at: SymbolInfo = s;
      const entry = types.find((t) => t.scopeId === at.id && t.name === receiver);
      // `repo = @repo`: of the instance variable's class.
      if (entry?.typeName.startsWith("@")) return this.variableType(entry.typeName, scope, owner);
      if (entry) {
        const c = this.constant(entry.typeName, at.id, 0);
        return c && "parts" in c ? c.qname : null;
      }
      if (!CALLABLE_KINDS.has(at.kind)) return null;
      s = at.parentId === null ? undefined : this.lookup.symbol(at.parentId);
    }
    return null;
  }

  /**
   * A constant path (`Foo`, `A.B`) seen from a scope: its head by lexical nesting, then the
   * ancestors of the innermost class or module, then the top level; the rest of the path inside it.
   */
  private constant(path: string, scopeId: number, depth: number, exclude?: string): Constant | null {
    if (depth > MAX_DEPTH) return null;
    const segments = path.split(".");
    const head = segments[0]!;
    const nesting = this.nesting(scopeId);
    // `class SchemaDumper < SchemaDumper` inside `module ConnectionAdapters`: the superclass is
    // evaluated before the class exists, so it is the outer SchemaDumper, never the class itself.
    const exact = (q: string) => (q === exclude && segments.length === 1 ? null : this.exact(q));
    const owners = this.holders(this.constantHolders, head, (s) => isType(s) || s.kind === "constant");
    let found: Constant | null = null;
    for (const n of nesting) {
      found = owners.has(n) ? exact(`${n}.${head}`) : null;
      if (found) break;
    }
    if (!found && nesting.length) {
      for (const a of this.ancestors(nesting[0]!, depth + 1)) {
        found = owners.has(a) ? exact(`${a}.${head}`) : null;
        if (found) break;
      }
    }
    found ??= exact(head);
    for (const seg of segments.slice(1)) {
      if (!found || !("parts" in found)) return null;
      found = this.exact(`${found.qname}.${seg}`);
    }
    return found;
  }

  private exact(qname: string): Constant | null {
    const parts = this.parts(qname);
    if (parts.length) return { qname, parts };
    const last = qname.slice(qname.lastIndexOf(".") + 1);
    const value = this.declared(last).filter((s) => s.kind === "constant" && s.qualifiedName === qname);
    return value.length ? { qname, value } : null;
  }

  /** Qualified names of the classes and modules around a scope, innermost first. */
  private nesting(scopeId: number): string[] {
    const out: string[] = [];
    let s = this.lookup.symbol(scopeId);
    while (s && s.kind !== "file") {
      if (isType(s)) out.push(s.qualifiedName);
      s = s.parentId === null ? undefined : this.lookup.symbol(s.parentId);
    }
    return out;
  }

  /** Every declaration of a class or module: its parts, reopened in any file. */
  private parts(qname: string): SymbolInfo[] {
    let hit = this.partsCache.get(qname);
    if (!hit) {
      const last = qname.slice(qname.lastIndexOf(".") + 1);
      hit = this.declared(last).filter((s) => isType(s) && s.qualifiedName === qname);
      this.partsCache.set(qname, hit);
    }
    return hit;
  }

  /** Ruby declarations of a simple name, project-wide. */
  private declared(name: string): SymbolInfo[] {
    let hit = this.byName.get(name);
    if (!hit) {
      hit = this.lookup
        .named(name)
        .filter((s) => s.kind !== "import" && this.lookup.file(s.fileId)?.language === "ruby");
      this.byName.set(name, hit);
    }
    return hit;
  }

  /**
   * The part that stands for a class in edges: the one in the file its name maps to
   * (`active_record/base.rb` for ActiveRecord::Base, else `base.rb`), else one that names a
   * superclass, else the first by path.
   */
  private representative(parts: SymbolInfo[], qname: string): SymbolInfo | null {
    if (parts.length <= 1) return parts[0] ?? null;
    const path = qname.split(".").map(underscore).join("/");
    const base = underscore(qname.slice(qname.lastIndexOf(".") + 1));
    const paths = new Map(parts.map((p) => [p.id, this.lookup.file(p.fileId)?.path ?? ""]));
    const rank = (p: SymbolInfo) => {
      const f = paths.get(p.id)!;
      if (f === `${path}.rb` || f.endsWith(`/${path}.rb`)) return 0;
      if (f === `${base}.rb` || f.endsWith(`/${base}.rb`)) return 1;
      if (this.lookup.heritage(p.id).some((r) => r.kind === "extends")) return 2;
      return 3;
    };
    return [...parts].sort((a, b) => rank(a) - rank(b) || (paths.get(a.id)! < paths.get(b.id)! ? -1 : 1))[0]!;
  }

  /** Methods of a class by name: its own (any part), then its ancestors'. */
  private members(qname: string, name: string, mode: Mode, depth = 0, seen = new Set<string>()): SymbolInfo[] {
    if (depth > MAX_DEPTH || seen.has(`${qname}\0${mode}`)) return [];
    const key = `${qname}\0${name}\0${mode}`;
    const cached = depth === 0 ? this.memberCache.get(key) : undefined;
    if (cached) return cached;
    seen.add(`${qname}\0${mode}`);
    let out = this.own(qname, name, mode);
    if (!out.length) out = this.inherited(qname, name, mode, depth, seen);
    if (depth === 0) this.memberCache.set(key, out);
    return out;
  }

  private own(qname: string, name: string, mode: Mode): SymbolInfo[] {
    if (!this.holders(this.memberHolders, name, MEMBER).has(qname)) return [];
    const out: SymbolInfo[] = [];
    for (const part of this.parts(qname)) {
      for (const s of this.lookup.byQualifiedName(part.fileId, `${qname}.${name}`)) {
        if (!MEMBER(s)) continue;
        if ((mode === "singleton") === this.isSingleton(s)) out.push(s);
      }
    }
    return out;
  }

  /**
   * What holds a declaration named `name` that `accept` takes (`A.B` for `A.B.name`), kept per name in
   * `cache`. A method is looked for in each of a class's ancestors in turn (ActiveRecord::Base has
   * about seventy), a constant in each scope around and each ancestor: most of them declare nothing
   * by that name, and are passed over without reading their parts.
   */
  private holders(cache: Map<string, Set<string>>, name: string, accept: (s: SymbolInfo) => boolean): Set<string> {
    let hit = cache.get(name);
    if (!hit) {
      hit = new Set();
      for (const s of this.declared(name))
        if (accept(s) && s.qualifiedName.endsWith(`.${name}`)) hit.add(s.qualifiedName.slice(0, -name.length - 1));
      cache.set(name, hit);
    }
    return hit;
  }

  /** The method in a class's ancestors (mixins, then the superclass), not the class itself. */
  private inherited(qname: string, name: string, mode: Mode, depth: number, seen: Set<string>): SymbolInfo[] {
    const { includes, extended, superclass, extendsSelf } = this.heritage(qname, depth);
    const next = depth + 1;
    if (mode === "instance") {
      for (const a of this.linear(qname, depth).slice(1)) {
        const hits = this.own(a, name, "instance");
        if (hits.length) return hits;
      }
      return [];
    } else {
      if (extendsSelf) {
        const hits = this.own(qname, name, "instance");
        if (hits.length) return hits;
      }
      for (const m of extended) {
        const hits = this.members(m, name, "instance", next, seen);
        if (hits.length) return hits;
      }
      // ActiveSupport::Concern: an included module's `ClassMethods` are the includer's class methods.
      for (const m of includes) {
        const cm = `${m}.ClassMethods`;
        if (!this.parts(cm).length) continue;
        const hits = this.members(cm, name, "instance", next, seen);
        if (hits.length) return hits;
      }
    }
    return superclass ? this.members(superclass, name, mode, next, seen) : [];
  }

  private readonly linearCache = new Map<string, string[]>();

  /**
   * A class's or module's ancestors in Ruby's order, itself first: each `include` puts the module and
   * its own ancestors right after it (the latest include first), leaving out any already there or in
   * the superclass's ancestors, which come last. Walking each mixin's own mixins depth first instead
   * found `_read_attribute` in `ActiveModel::AttributeMethods` through `ActiveModel::Dirty`, where Ruby
   * has already placed it after ActiveRecord's `Read`.
   */
  private linear(qname: string, depth: number): string[] {
    const cached = this.linearCache.get(qname);
    if (cached) return cached;
    this.linearCache.set(qname, [qname]); // cycles in broken code must end
    const { includes, superclass } = this.heritage(qname, depth);
    const above = superclass && depth <= MAX_DEPTH ? this.linear(superclass, depth + 1) : [];
    const placed = new Set<string>([qname, ...above]);
    let mixins: string[] = [];
    // `includes` holds the latest first: take them in the order they were written.
    for (let i = includes.length - 1; i >= 0; i--) {
      const fresh = this.linear(includes[i]!, depth + 1).filter((a) => !placed.has(a));
      for (const a of fresh) placed.add(a);
      mixins = [...fresh, ...mixins];
    }
    const out = [qname, ...mixins, ...above];
    this.linearCache.set(qname, out);
    return out;
  }

  /**
   * A method that a module's instance methods call but the module does not define: what includes the
   * module provides it, through its own methods, its other mixins or its superclass
   * (`Calculations#pluck` calling `arel_column` of `QueryMethods`, both included by `Relation`). A
   * module that includes it counts, and so does what includes that module; a class that `extend`s it
   * provides its class methods (for a module that extends it, its includers' class methods). Taken
   * only when every class among them finds the same method(s): a class without one may have it from
   * outside the project (a C extension, a gem), and classes that disagree leave the call open.
   */
  private fromIncluders(module: string, name: string): SymbolInfo[] {
    let found: SymbolInfo[] = [];
    let key: string | null = null;
    for (const { type, mode, isClass } of this.includers(module)) {
      const hits = this.members(type, name, mode);
      if (!hits.length) {
        if (isClass) return [];
        continue;
      }
      const ids = hits
        .map((h) => h.id)
        .sort((a, b) => a - b)
        .join(",");
      if (key !== null && ids !== key) return [];
      key = ids;
      found = hits;
    }
    return found;
  }

  private readonly includersCache = new Map<string, Includer[]>();

  /** What includes (or prepends, or extends) a module, directly or through modules that include it. */
  private includers(module: string): Includer[] {
    let out = this.includersCache.get(module);
    if (!out) {
      out = [];
      this.collectIncluders(module, 0, new Set([`${module}\0instance`]), out);
      this.includersCache.set(module, out);
    }
    return out;
  }

  private collectIncluders(module: string, depth: number, seen: Set<string>, out: Includer[]): void {
    if (depth > MAX_DEPTH) return;
    const add = (type: string, mode: Mode, isClass: boolean) => {
      const key = `${type}\0${mode}`;
      if (seen.has(key)) return false;
      seen.add(key);
      out.push({ type, mode, isClass });
      return true;
    };
    for (const r of this.lookup.heritageNamed(module.slice(module.lastIndexOf(".") + 1))) {
      if (r.kind !== "implements" || (r.name === "self" && r.receiver === null)) continue;
      const from = this.lookup.symbol(r.fromId);
      if (!from || !isType(from)) continue;
      const c = this.constant(r.receiver ? `${r.receiver}.${r.name}` : r.name, from.id, 0);
      if (!c || !("parts" in c) || c.qname !== module) continue;
      const isClass = from.kind === "class";
      if (r.argCount !== 1) {
        if (add(from.qualifiedName, "instance", isClass) && !isClass)
          this.collectIncluders(from.qualifiedName, depth + 1, seen, out);
      } else if (isClass) add(from.qualifiedName, "singleton", true);
      else {
        // `extend M` in a module (a concern's `included do` block): the class side of its includers.
        const inner: Includer[] = [];
        this.collectIncluders(from.qualifiedName, depth + 1, new Set([`${from.qualifiedName}\0instance`]), inner);
        for (const i of inner) if (i.mode === "instance") add(i.type, "singleton", i.isClass);
      }
    }
  }

  private readonly heritageCache = new Map<
    string,
    { includes: string[]; extended: string[]; superclass: string | null; extendsSelf: boolean }
  >();

  /** What a class's parts write: included and prepended modules (last first), extended ones, the superclass. */
  private heritage(qname: string, depth: number) {
    const cached = this.heritageCache.get(qname);
    if (cached) return cached;
    const value = {
      includes: [] as string[],
      extended: [] as string[],
      superclass: null as string | null,
      extendsSelf: false,
    };
    this.heritageCache.set(qname, value); // cycles in broken code must end
    if (depth > MAX_DEPTH) return value;
    for (const part of this.parts(qname)) {
      const refs = [...this.lookup.heritage(part.id)].reverse();
      for (const r of refs) {
        if (r.name === "self" && r.receiver === null) {
          if (r.argCount === 1) value.extendsSelf = true;
          continue;
        }
        const path = r.receiver ? `${r.receiver}.${r.name}` : r.name;
        const from = r.kind === "extends" ? (part.parentId ?? part.id) : part.id;
        const c = this.constant(path, from, depth + 1, r.kind === "extends" ? qname : undefined);
        if (!c || !("parts" in c) || c.qname === qname) continue;
        if (r.kind === "extends") value.superclass ??= c.qname;
        else if (r.argCount === 1) value.extended.push(c.qname);
        else value.includes.push(c.qname);
      }
    }
    return value;
  }

  /**
   * Every part of every class and module a class reaches through its superclasses and mixins,
   * included or extended, in no particular order: what its methods and constants may come from.
   */
  ancestorParts(qname: string): SymbolInfo[] {
    const seen = new Set<string>([qname]);
    const queue = [qname];
    const out: SymbolInfo[] = [];
    while (queue.length) {
      const h = this.heritage(queue.shift()!, 0);
      for (const a of [...h.includes, ...h.extended, ...(h.superclass ? [h.superclass] : [])]) {
        if (seen.has(a)) continue;
        seen.add(a);
        queue.push(a);
        out.push(...this.parts(a));
      }
    }
    return out;
  }

  /** Qualified names of a class's ancestors (for constant lookup): mixins and superclasses, nearest first. */
  private ancestors(qname: string, depth: number): string[] {
    const out: string[] = [];
    const seen = new Set<string>([qname]);
    const queue = [qname];
    while (queue.length && out.length < 64) {
      const q = queue.shift()!;
      const h = this.heritage(q, depth);
      for (const a of [...h.includes, ...(h.superclass ? [h.superclass] : [])]) {
        if (seen.has(a)) continue;
        seen.add(a);
        out.push(a);
        queue.push(a);
      }
    }
    return out;
  }

  private isSingleton(s: SymbolInfo): boolean {
    let set = this.singletons.get(s.fileId);
    if (!set) {
      set = new Set(
        this.lookup
          .localTypes(s.fileId)
          .filter((t) => t.name === SINGLETON)
          .map((t) => t.scopeId),
      );
      this.singletons.set(s.fileId, set);
    }
    return set.has(s.id);
  }

  private enclosingCallable(s: SymbolInfo): SymbolInfo | null {
    let cur: SymbolInfo | undefined = s;
    while (cur && cur.kind !== "file") {
      if (CALLABLE_KINDS.has(cur.kind)) return cur;
      if (isType(cur)) return null;
      cur = cur.parentId === null ? undefined : this.lookup.symbol(cur.parentId);
    }
    return null;
  }

  /** The class or module a symbol is declared in. */
  private ownerType(s: SymbolInfo): SymbolInfo | null {
    let cur: SymbolInfo | undefined = isType(s) ? s : s.parentId === null ? undefined : this.lookup.symbol(s.parentId);
    while (cur && cur.kind !== "file") {
      if (isType(cur)) return cur;
      cur = cur.parentId === null ? undefined : this.lookup.symbol(cur.parentId);
    }
    return null;
  }

  private requiredFiles(file: FileInfo): FileInfo[] {
    return this.lookup.imports(file.id).flatMap((b) => requireTarget(b.specifier, file, this.lookup));
  }
}

/** `ActiveRecord` → `active_record`, `HTMLParser` → `html_parser`, as Rails maps constants to files. */
export function underscore(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .toLowerCase();
}
