/**
 * Go's implicit interfaces. A Go type implements an interface by having its methods; nothing in the
 * source says so, so no reference leads from one to the other: a method's callers through an
 * interface (`inst.String()` on an `Instruction`) were no part of its impact, and an interface's
 * method listed no implementations. A named type of the project implements an interface of the
 * project when its method set (its own methods, and those its embedded fields promote) holds every
 * method of the interface's (its own, and its embedded interfaces'), by name and parameter count,
 * an unexported name from the interface's own package. The edges are derived from the whole project
 * after resolution: `implements` from the type to the interface, and `overrides` from each method
 * answering an interface method to that method.
 *
 * Left out, so that no edge is a guess: an interface embedding one outside the project (`io.Reader`),
 * which may ask for anything; interfaces with no methods (every type satisfies `any`); interfaces
 * satisfying interfaces. Parameter types are not compared: the index keeps their count only.
 */
import {
  isExported,
  type DerivedEdge,
  type GoDeclaration,
  type GoDeclarations,
  type GoEmbed,
} from "../core/go-method-sets.js";
import { getOr } from "../core/group-by.js";
import { dirOf } from "../core/paths.js";

/**
 * A method in a method set: the methods answering it (one, or one per build of a type declared once
 * per platform; none for Go's own `error.Error`, or for what an embedded interface promotes), the
 * package of its name, and its parameter count.
 */
interface Member {
  methods: GoDeclaration[];
  pkg: number | null;
  paramCount: number | null;
}

type MethodSet = Map<string, Member>;

/** Embedding past this depth is left unread (Go allows any; real code stays within a few). */
const MAX_DEPTH = 16;

/** Interfaces of Go's own that an interface may embed, by their methods. */
const BUILT_IN_INTERFACES: ReadonlyMap<string, MethodSet> = new Map([
  ["any", new Map()],
  ["error", new Map([["Error", { methods: [], pkg: null, paramCount: 0 }]])],
]);

export function implicitImplementations(input: GoDeclarations): DerivedEdge[] {
  const project = new GoProject(input);
  const edges: DerivedEdge[] = [];
  const overriding = new Set<string>();
  for (const iface of project.interfaces) {
    const wanted = project.interfaceSet(iface.id, 0);
    if (!wanted?.size) continue;
    for (const type of project.candidates(wanted)) {
      // Two programs of one folder, each declaring its own types, do not meet.
      if (project.apart(type, iface)) continue;
      const answers = answering(project.typeSet(type, 0), wanted);
      if (!answers) continue;
      edges.push({ sourceId: type.id, targetId: iface.id, kind: "implements", fileId: type.fileId, line: type.line });
      for (const [got, want] of answers)
        for (const target of want.methods)
          for (const m of got.methods) {
            const key = `${m.id}:${target.id}`;
            if (overriding.has(key)) continue;
            overriding.add(key);
            edges.push({ sourceId: m.id, targetId: target.id, kind: "overrides", fileId: m.fileId, line: m.line });
          }
    }
  }
  return edges;
}

/** For each method an interface wants, the type's member answering it; null if one is missing. */
function answering(has: MethodSet, wanted: MethodSet): [Member, Member][] | null {
  const answers: [Member, Member][] = [];
  for (const [n, want] of wanted) {
    const got = has.get(n);
    if (!got || got.paramCount !== want.paramCount) return null;
    // An unexported method's name is its package's own: only that package's types answer it.
    if (!isExported(n) && got.pkg !== want.pkg) return null;
    answers.push([got, want]);
  }
  return answers;
}

/** The project's Go types and methods, and their method sets, worked out as asked. */
class GoProject {
  readonly interfaces: GoDeclaration[] = [];
  private readonly files = new Map<number, { nodeId: number; pkg: number }>();
  private readonly typeById = new Map<number, GoDeclaration>();
  /** Concrete methods by package, then by their type's name. */
  private readonly methodsOf = new Map<number, Map<string, GoDeclaration[]>>();
  private readonly specsOf = new Map<number, GoDeclaration[]>();
  /** The files declaring each type name, by package (see `typeSet`). */
  private readonly declaredIn = new Map<number, Map<string, Set<number>>>();
  private readonly embedsOf = new Map<number, GoEmbed[]>();
  /** The types with a method of each name, own or promoted. */
  private readonly havingName = new Map<string, Set<GoDeclaration>>();
  private readonly interfaceSets = new Map<number, MethodSet | null>();
  private readonly typeSets = new Map<number, MethodSet>();

  constructor(input: GoDeclarations) {
    // A package is a folder and a package name (`foo` and `foo_test` are two).
    const packages = new Map<string, number>();
    for (const f of input.files) {
      const key = `${dirOf(f.path)}\0${f.packageName ?? ""}`;
      let pkg = packages.get(key);
      if (pkg === undefined) packages.set(key, (pkg = packages.size));
      this.files.set(f.id, { nodeId: f.nodeId, pkg });
    }
    const methods: GoDeclaration[] = [];
    for (const d of input.declarations) {
      const file = this.files.get(d.fileId);
      if (!file) continue;
      if (d.kind === "method") methods.push(d);
      else if (d.parentId === file.nodeId) {
        this.typeById.set(d.id, d);
        if (d.kind === "interface") this.interfaces.push(d);
        getOr(getOr(this.declaredIn, file.pkg, newMap<string, Set<number>>), d.name, newSet<number>).add(d.fileId);
      }
    }
    const byName = new Map<number, Map<string, GoDeclaration[]>>();
    for (const d of this.typeById.values())
      if (d.kind !== "interface") push(getOr(byName, this.pkg(d), newMap<string, GoDeclaration[]>), d.name, d);
    for (const m of methods) {
      const parent = m.parentId === null ? undefined : this.typeById.get(m.parentId);
      if (parent?.kind === "interface") {
        push(this.specsOf, parent.id, m);
        continue;
      }
      const dot = m.qualifiedName.lastIndexOf(".");
      if (dot <= 0 || m.parentId !== this.files.get(m.fileId)!.nodeId) continue;
      const owner = m.qualifiedName.slice(0, dot);
      push(getOr(this.methodsOf, this.pkg(m), newMap<string, GoDeclaration[]>), owner, m);
      for (const t of byName.get(this.pkg(m))?.get(owner) ?? []) getOr(this.havingName, m.name, newSet).add(t);
    }
    for (const e of input.embeds) push(this.embedsOf, e.sourceId, e);
    // What embedded fields promote adds names to a type's method set.
    for (const id of this.embedsOf.keys()) {
      const t = this.typeById.get(id);
      if (t && t.kind !== "interface")
        for (const n of this.typeSet(t, 0).keys()) getOr(this.havingName, n, newSet).add(t);
    }
  }

  pkg(d: GoDeclaration): number {
    return this.files.get(d.fileId)!.pkg;
  }

  /**
   * Whether a type's name is declared once in its package. More than once: once per platform (`type
   * file struct` in file_unix.go and file_windows.go), or in a folder of programs, one a file
   * (`testdata/*.go`, all `package main`).
   */
  declaredOnce(t: GoDeclaration): boolean {
    return this.filesDeclaring(t).size === 1;
  }

  /** Whether two types are declared in two programs of one folder (see `declaredOnce`). */
  apart(a: GoDeclaration, b: GoDeclaration): boolean {
    return a.fileId !== b.fileId && this.pkg(a) === this.pkg(b) && !this.declaredOnce(a) && !this.declaredOnce(b);
  }

  private filesDeclaring(t: GoDeclaration): Set<number> {
    return this.declaredIn.get(this.pkg(t))!.get(t.name)!;
  }

  /** The concrete types having the rarest of the methods an interface wants. */
  candidates(wanted: MethodSet): Iterable<GoDeclaration> {
    let fewest: Set<GoDeclaration> | undefined;
    for (const n of wanted.keys()) {
      const having = this.havingName.get(n);
      if (!having) return [];
      if (!fewest || having.size < fewest.size) fewest = having;
    }
    return fewest ?? [];
  }

  /** An interface's methods, or null when they cannot all be known. */
  interfaceSet(id: number, depth: number): MethodSet | null {
    if (this.interfaceSets.has(id)) return this.interfaceSets.get(id)!;
    this.interfaceSets.set(id, null); // an embedding cycle is no Go: no set
    if (depth > MAX_DEPTH) return null;
    const set: MethodSet = new Map();
    for (const m of this.specsOf.get(id) ?? [])
      set.set(m.name, { methods: [m], pkg: this.pkg(m), paramCount: m.paramCount });
    for (const e of this.embedsOf.get(id) ?? []) {
      const target = e.targetId === null ? undefined : this.typeById.get(e.targetId);
      const embedded =
        e.targetId === null
          ? e.receiver === null
            ? BUILT_IN_INTERFACES.get(e.name)
            : null
          : target?.kind === "interface"
            ? this.interfaceSet(target.id, depth + 1)
            : null;
      if (!embedded) return null;
      for (const [n, member] of embedded) if (!set.has(n)) set.set(n, member);
    }
    this.interfaceSets.set(id, set);
    return set;
  }

  /**
   * A concrete type's method set: its own methods, then what each embedded field promotes. A name two
   * embedded fields promote at once is ambiguous in Go, and in no method set. Of a type declared in
   * several files, a method declared beside one of the declarations is that one's; one elsewhere is
   * each one's.
   */
  typeSet(type: GoDeclaration, depth: number): MethodSet {
    const known = this.typeSets.get(type.id);
    if (known) return known;
    const set: MethodSet = new Map();
    this.typeSets.set(type.id, set); // a cycle of embeddings reads as empty
    if (depth > MAX_DEPTH) return set;
    const beside = this.declaredOnce(type) ? null : this.filesDeclaring(type);
    for (const m of this.methodsOf.get(this.pkg(type))?.get(type.name) ?? []) {
      if (beside && m.fileId !== type.fileId && beside.has(m.fileId)) continue;
      const old = set.get(m.name);
      if (old) old.methods.push(m);
      else set.set(m.name, { methods: [m], pkg: this.pkg(m), paramCount: m.paramCount });
    }
    const promoted = new Map<string, Member | null>();
    for (const e of this.embedsOf.get(type.id) ?? []) {
      const embedded = e.targetId === null ? undefined : this.typeById.get(e.targetId);
      if (!embedded) continue;
      const viaInterface = embedded.kind === "interface";
      const from = viaInterface ? this.interfaceSet(embedded.id, depth + 1) : this.typeSet(embedded, depth + 1);
      for (const [n, member] of from ?? []) {
        if (set.has(n)) continue;
        // An embedded interface's methods are the value's in the field: no implementation here.
        promoted.set(n, promoted.has(n) ? null : viaInterface ? { ...member, methods: [] } : member);
      }
    }
    for (const [n, member] of promoted) if (member) set.set(n, member);
    return set;
  }
}

const newMap = <K, V>() => new Map<K, V>();
const newSet = <V>() => new Set<V>();

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
