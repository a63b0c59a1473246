import type { Node } from "web-tree-sitter";
import type { ExtractionBuilder } from "../builder.js";
import { constructedTypeName } from "../ts-helpers.js";
import type { JsScopes } from "./js-scopes.js";

/** A type a value may carry into another scope: a constructor's name, or a call of one (`Layer`, `Layer()`, `ns.Layer`). */
export const CONSTRUCTED_TYPE = /^[A-Z][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;

/**
 * The untyped parameters of a function declared inside another (Express's `trim_prefix(layer, ..)`
 * inside the router's `handle`), typed by what its calls pass: where every call in the enclosing
 * function passes a value of one type at a position, the parameter is of that type. TypeScript
 * leaves such a parameter `any`; JavaScript written this way has no other type to give.
 */
export class LocalCallSites {
  private readonly declared = new Map<string, Node[]>();
  private readonly calls = new Map<string, { site: Node; args: Node }[]>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly scopes: JsScopes,
  ) {}

  /** A function declaration (only one nested in another function is typed by its calls). */
  declaration(def: Node, name: string): void {
    let list = this.declared.get(name);
    if (!list) this.declared.set(name, (list = []));
    list.push(def);
  }

  /** A call by bare name, `name(args)`. */
  call(name: string, site: Node, args: Node): void {
    let list = this.calls.get(name);
    if (!list) this.calls.set(name, (list = []));
    list.push({ site, args });
  }

  /** Once every match is read: the types the calls give the parameters. */
  finish(): void {
    // Recorded once all are read: `typeRecordedBetween` relies on the source order of what it searches.
    const typed: { param: Node; type: string }[] = [];
    for (const [name, defs] of this.declared) {
      // Two local functions of one name: which a call reaches is a matter of scope, left alone.
      const calls = this.calls.get(name);
      if (defs.length !== 1 || !calls) continue;
      const def = defs[0]!;
      const outer = this.scopes.innermostFunction(def);
      if (!outer) continue;
      const sites = calls.filter(({ site }) => within(site, outer) && !within(site, def));
      if (sites.length) this.typeParameters(def, sites, typed);
    }
    for (const { param, type } of typed) this.b.localType(param, this.b.text(param), type);
  }

  private typeParameters(def: Node, sites: { site: Node; args: Node }[], typed: { param: Node; type: string }[]): void {
    const params = def.childForFieldName("parameters")?.namedChildren ?? [];
    params.forEach((param, i) => {
      if (param?.type !== "identifier") return;
      let agreed: string | null = null;
      for (const { site, args } of sites) {
        const type = this.argumentType(args.namedChild(i), site, def);
        if (!type || (agreed !== null && type !== agreed)) return;
        agreed = type;
      }
      if (agreed) typed.push({ param, type: agreed });
    });
  }

  /**
   * What an argument holds, written so that it reads the same inside `def`: `new Layer()`'s Layer, or
   * a local's recorded type whose first name `def` sees as the call does (`stack[0]`, where `stack`
   * belongs to a function around both).
   */
  private argumentType(arg: Node | null, site: Node, def: Node): string | null {
    if (arg?.type === "new_expression") {
      const constructor = arg.childForFieldName("constructor");
      return constructor ? constructedTypeName(constructor, (n) => this.b.text(n)) : null;
    }
    if (arg?.type !== "identifier") return null;
    const name = this.b.text(arg);
    // Most arguments are names nothing types: known without looking for their scope.
    if (!this.b.hasRecordedType(name)) return null;
    const found = this.scopes.typeOfLocal(name, site);
    const head = found ? /^[A-Za-z_$][\w$]*/.exec(found)?.[0] : undefined;
    if (!found || !head || head === "this") return null;
    if (CONSTRUCTED_TYPE.test(found)) return found;
    // The head must not be a local of a function the call is in and `def` is not.
    for (let fn = this.scopes.innermostFunction(site); fn && !within(def, fn); fn = this.scopes.innermostFunction(fn))
      if (this.scopes.binds(fn, head)) return null;
    return found;
  }
}

function within(node: Node, outer: Node): boolean {
  return node.startIndex >= outer.startIndex && node.endIndex <= outer.endIndex;
}
