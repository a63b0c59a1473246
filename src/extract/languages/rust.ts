import type { Language, Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import {
  ELEMENT,
  NAMED_VALUE,
  TUPLE,
  TRAIT_METHOD,
  callbackPosition,
  type ExtractResult,
  type ExtractedSymbol,
  type ImportBinding,
} from "../../core/extraction.js";
import type { NodeKind } from "../../core/kinds.js";
import { fieldIds } from "../fields.js";
import { ExtractionBuilder, countSyntaxErrors } from "../builder.js";
import type { LanguageExtractor } from "../language.js";
import { splitLast } from "../ts-helpers.js";
import { captureFor, childOfType } from "../nodes.js";
import { parseWithMacroItems, unwrappedMacros } from "./rust-macro-items.js";
import { constantReads } from "./constant-reads.js";
import type { Span } from "../spans.js";

/**
 * One flat query for the whole file; each pattern's index says what a match is (see `P`).
 *
 * Paths are written the way the resolver reads them: segments joined by dots, relative to the file
 * (`self::` and `super::` inside inline modules are folded into the file's own names), with `crate`,
 * `super` (the parent module's file) or a bare first segment (a name in scope, or a crate of the
 * workspace) at the head. Methods of `impl` blocks take their type as owner (`Point.new`), and `self`
 * and `Self` are typed as that owner. Macros live in their own namespace, so their symbols and calls
 * are named with the `!` (`my_macro!`). Macro arguments are token trees, not expressions: calls inside
 * them (`assert_eq!(parse(x), y)`) are read from the tokens, a name followed by parentheses.
 */
const QUERY = `
[(line_comment) (block_comment)] @comment
(attribute_item) @attr
(mod_item name: (identifier) @name body: (declaration_list) @body) @def
(mod_item name: (identifier) @name !body) @def
(function_item name: (identifier) @name parameters: (parameters) @params) @def
(function_signature_item name: (identifier) @name parameters: (parameters) @params) @def
(impl_item body: (declaration_list [(function_item) (function_signature_item) (const_item) (type_item)] @member))
(trait_item body: (declaration_list [(function_item) (function_signature_item) (const_item) (associated_type)] @member))
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @def
(impl_item type: (_) @type body: (declaration_list) @body) @def
(struct_item name: (type_identifier) @name) @def
(union_item name: (type_identifier) @name) @def
(enum_item name: (type_identifier) @name body: (enum_variant_list) @body) @def
(enum_variant name: (identifier) @name) @def
[(struct_item body: (field_declaration_list (field_declaration) @field)) (union_item body: (field_declaration_list (field_declaration) @field))]
(struct_item body: (ordered_field_declaration_list) @fields) @def
(const_item name: (identifier) @name) @def
(static_item name: (identifier) @name) @def
(type_item name: (type_identifier) @name) @def
(macro_definition name: (identifier) @name) @def
(use_declaration argument: (_) @arg) @def
(extern_crate_declaration name: (identifier) @name) @def
(call_expression function: (_) @fn arguments: (arguments) @args)
(macro_invocation macro: (_) @macro) @call
(struct_expression name: (_) @type)
(token_tree) @tokens
(let_declaration pattern: (identifier) @name type: (_) @type)
(let_declaration pattern: (identifier) @name !type value: (_) @value)
(parameter pattern: (identifier) @name type: (_) @type)
(type_parameters (type_identifier) @typeparam)
(constrained_type_parameter left: (type_identifier) @typeparam bounds: (trait_bounds) @bounds)
(trait_item bounds: (trait_bounds (_) @bound))
(where_predicate left: (type_identifier) @typeparam bounds: (trait_bounds) @bounds)
(for_expression pattern: (identifier) @name value: (_) @value body: (block) @body)
(let_declaration pattern: (tuple_pattern) @tuple !type value: (_) @value)
[(optional_type_parameter name: (_) @typeparam) (const_parameter name: (_) @typeparam)]
[(parameter type: (_) @type) (optional_type_parameter default_type: (_) @type) (function_item return_type: (_) @type) (function_signature_item return_type: (_) @type) (closure_expression return_type: (_) @type) (field_declaration type: (_) @type) (ordered_field_declaration_list type: (_) @type) (let_declaration type: (_) @type) (const_item type: (_) @type) (static_item type: (_) @type) (type_item type: (_) @type) (type_cast_expression type: (_) @type) (generic_function type_arguments: (_) @type) (associated_type bounds: (_) @type)]
`;

const P = {
  Comment: 0,
  Attr: 1,
  InlineMod: 2,
  FileMod: 3,
  Fn: 4,
  FnSig: 5,
  ImplMember: 6,
  TraitMember: 7,
  Trait: 8,
  Impl: 9,
  Struct: 10,
  Union: 11,
  Enum: 12,
  Variant: 13,
  Field: 14,
  TupleFields: 15,
  Const: 16,
  Static: 17,
  TypeAlias: 18,
  Macro: 19,
  Use: 20,
  ExternCrate: 21,
  // A call's and a macro's shapes (`f()`, `a::f()`, `x.f()`, `f::<T>()`; `m!`, `a::m!`) are told apart
  // in code: a pattern per shape made the grammar's parse states be analysed for each node type the
  // shapes reach into, when the query is compiled (once per parse worker, once per sync of a few
  // files): 41 ms on V8's baseline tier with them, 15 without.
  Call: 22,
  MacroCall: 23,
  StructExpr: 24,
  TokenCall: 25,
  LetTyped: 26,
  LetValue: 27,
  Param: 28,
  TypeParam: 29,
  ConstrainedTypeParam: 30,
  SuperTrait: 31,
  WherePredicate: 32,
  For: 33,
  LetTuple: 34,
  DefaultOrConstParam: 35,
  TypeUse: 36,
} as const;

/** A parameter `self: T` (`mut self: Pin<&mut Self>`). */
const SELF_TYPED = /^(?:mut\s+)?self\s*:/;

const FIELD_NAMES = [
  "name",
  "body",
  "type",
  "trait",
  "path",
  "list",
  "alias",
  "argument",
  "function",
  "value",
  "field",
  "parameters",
  "return_type",
  "type_arguments",
  "element",
  "arguments",
] as const;
type Fields = Record<(typeof FIELD_NAMES)[number], number>;

/** Types with no methods of the project's, and smart pointers whose methods are their content's. */
const PRIMITIVES = new Set(
  "bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 String".split(" "),
);
/**
 * Names written as types that are no use of a project type: primitives, `Self` (the type being
 * declared), `_` (inferred), and the prelude's wrappers and marker and closure traits, which a
 * project does not declare: as references they would only pile up unresolved.
 */
const UNREFERENCED = new Set([
  ...PRIMITIVES,
  ..."Self _ Option Box Vec Send Sync Sized Unpin Copy Clone Fn FnMut FnOnce".split(" "),
]);
/** `Box`, `Rc` and `Arc`, as written or by a path (`std::sync::Arc`, or dotted once normalised). */
const DEREF_WRAPPER = /(?:^|\.|::\s*)(?:Box|Rc|Arc)$/;
/** Collections whose one type argument is their elements' type. */
const COLLECTIONS = new Set(["Vec", "VecDeque", "HashSet", "BTreeSet", "LinkedList", "BinaryHeap", "Option"]);
/**
 * Pointers that call through to what they wrap (`Deref`): `Pin::new(&mut self.inner).poll_read(cx,
 * buf)` calls the inner value's `poll_read`, as does `Box::pin(fut).poll(cx)`. tokio has 104 such calls.
 */
const WRAPPING_CALLS = /(?:^|\.)(?:Pin\.(?:new|new_unchecked)|Box\.(?:new|pin)|Arc\.new|Rc\.new)$/;
/** Iterator and slice methods whose closure gets an element (through references: `|o|`, `|&o|`). */
const ELEMENT_CLOSURES = new Set([
  "map",
  "for_each",
  "filter",
  "filter_map",
  "flat_map",
  "any",
  "all",
  "find",
  "position",
  "max_by_key",
  "min_by_key",
  "take_while",
  "skip_while",
  "inspect",
  "retain",
  "sort_by_key",
  "and_then",
]);
/** Keywords that can precede `name(` in a token tree without it being a call. */
const NOT_CALL_BEFORE = /(?:^|[^\w])(?:fn|struct|enum|union|trait|impl|mod|macro_rules!?)\s+$/;

type Visibility = ExtractedSymbol["visibility"];

interface Range {
  start: number;
  end: number;
}
interface ModRange extends Range {
  name: string;
}
interface ImplRange extends Range {
  /** The implementing type as a path from the file (`Point`, `a.Point`); null when not a plain path. */
  type: string | null;
  /** The owner of its methods: enclosing inline modules and the type's last segment (`m.Point`). */
  owner: string | null;
  /** The trait implemented, as a path; null for an inherent impl. */
  trait: string | null;
  /** The implementing type as written, spaces collapsed, when it is no path (`str`, `(&str, u16)`, `&[u8]`). */
  text: string | null;
}
interface TraitRange extends Range {
  qname: string;
}
interface ImplHeader extends ImplRange {
  /** Where its body starts: a type written before is in its header (`impl<T: Foo> .. where T: Bar`). */
  bodyStart: number;
}
interface PendingFn {
  def: Node;
  name: Node;
  params: Node;
  signature: boolean;
}

const capture = captureFor("rust");

/** A node-shaped position whose doc comment is looked up from `row`. */
function docAt(row: number): Node {
  return { startPosition: { row, column: 0 } } as Node;
}

/** Innermost range holding `at`, from a list in source order (parents before children). */
function innermost<T extends Range>(list: readonly T[], at: number): T | null {
  let best: T | null = null;
  for (const r of list) {
    if (r.start > at) break;
    if (r.end > at) best = r;
  }
  return best;
}

class RustFile {
  /** The `use` declarations, in order: their paths are imports, not reads (see `constantReads`). */
  readonly useSpans: Span[] = [];
  private readonly mods: ModRange[] = [];
  private readonly impls: ImplHeader[] = [];
  /** Structs, unions and enums, by name and where they start (see `ownerInFunction`). */
  private readonly typeDecls: { name: string; at: number; end: number }[] = [];
  /** What each `use` binds, and where it is written (see `ownerImported`). */
  private readonly useBindings: { local: string; imported: string; specifier: string; at: number }[] = [];
  /** The `use`s written in a block (a function's body), with the block: see `blockUses`. */
  private readonly scopedUses: { binding: ImportBinding; block: Node }[] = [];
  private readonly traits: TraitRange[] = [];
  private readonly implMembers = new Set<number>();
  private readonly traitMembers = new Set<number>();
  private readonly fns: PendingFn[] = [];
  /** Constants, statics and type aliases, which may be members of an impl or a trait. */
  private readonly items: { p: number; def: Node; name: Node }[] = [];
  private readonly typeParams = new Set<string>();
  /**
   * The one trait that bounds a type parameter (`I: Input`, `where I: Input`), by the parameter's
   * name; null when the file bounds that name otherwise elsewhere, or by several traits. Names are
   * the file's, not an item's: a name bound alike throughout the file is all that is trusted.
   */
  private readonly bounds = new Map<string, string | null>();
  private readonly pendingTypes: { at: Node; name: string; typeName: string }[] = [];
  /** Parameters' types, with the span of their function (see `restoreShadowed`). */
  private readonly params: { name: string; typeName: string; start: number; end: number }[] = [];
  /** The names `let`s type, with the block each is in (see `letType`). */
  private readonly lets: { at: Node; name: string; typeName: string; block: Node }[] = [];
  /** Type parameters with where they are declared: each is no type of the project in its item. */
  private readonly typeParamDecls: { name: string; at: number }[] = [];
  /** The items declaring a type parameter of each name, once `scopeTypeParams` has read them. */
  private readonly typeParamItems = new Map<string, Range[]>();
  /** Types written in declarations, casts and turbofishes, walked for references once all is matched. */
  private readonly typeUses: Node[] = [];
  /** Trait bounds of type parameters: those in an impl's header are its type's references. */
  private readonly boundUses: Node[] = [];
  /** Attribute runs: the row an attribute ends on → the row its run starts on. */
  private readonly attrRuns = new Map<number, number>();

  constructor(
    private readonly b: ExtractionBuilder,
    private readonly f: Fields,
  ) {}

  private text(n: Node): string {
    return this.b.text(n);
  }

  handle(m: QueryMatch): void {
    const p = m.patternIndex;
    switch (p) {
      case P.Comment: {
        const node = m.captures[0]!.node;
        const src = this.b.source;
        const at = node.startIndex;
        // Only outer doc comments document the item below them.
        if ((src.startsWith("///", at) && !src.startsWith("////", at)) || src.startsWith("/**", at))
          this.b.comment(node);
        return;
      }
      case P.Attr: {
        const node = m.captures[0]!.node;
        const start = node.startPosition.row;
        this.attrRuns.set(node.endPosition.row, this.attrRuns.get(start - 1) ?? start);
        return;
      }
      case P.InlineMod: {
        const def = capture(m, "def");
        const name = capture(m, "name");
        this.mods.push({ start: def.startIndex, end: def.endIndex, name: this.text(name) });
        this.b.symbol("module", def, name, {
          ...this.visibility(def),
          signatureEnd: capture(m, "body").startIndex,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.FileMod:
        return this.fileMod(capture(m, "def"), capture(m, "name"));
      case P.Fn:
      case P.FnSig:
        this.fns.push({
          def: capture(m, "def"),
          name: capture(m, "name"),
          params: capture(m, "params"),
          signature: p === P.FnSig,
        });
        return;
      case P.ImplMember:
        this.implMembers.add(m.captures[0]!.node.id);
        return;
      case P.TraitMember:
        this.traitMembers.add(m.captures[0]!.node.id);
        return;
      case P.Trait: {
        const def = capture(m, "def");
        const name = capture(m, "name");
        const qname = this.qualify(def.startIndex, this.text(name));
        this.traits.push({ start: def.startIndex, end: def.endIndex, qname });
        this.b.symbol("trait", def, name, {
          ...this.visibility(def),
          signatureEnd: capture(m, "body").startIndex,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.Impl:
        return this.impl(capture(m, "def"), capture(m, "type"), capture(m, "body"));
      case P.Struct:
      case P.Union: {
        const def = capture(m, "def");
        this.typeDecls.push({ name: this.text(capture(m, "name")), at: def.startIndex, end: def.endIndex });
        const body = def.childForFieldId(this.f.body);
        this.b.symbol("struct", def, capture(m, "name"), {
          ...this.visibility(def),
          signatureEnd: body && body.type === "field_declaration_list" ? body.startIndex : undefined,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.Enum: {
        const def = capture(m, "def");
        this.typeDecls.push({ name: this.text(capture(m, "name")), at: def.startIndex, end: def.endIndex });
        this.b.symbol("enum", def, capture(m, "name"), {
          ...this.visibility(def),
          signatureEnd: capture(m, "body").startIndex,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.Variant: {
        const def = capture(m, "def");
        this.b.symbol("enum_member", def, capture(m, "name"), {
          exported: true,
          visibility: "public",
          isStatic: true,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.Field:
        return this.field(m.captures[0]!.node);
      case P.TupleFields:
        return this.tupleFields(capture(m, "fields"));
      case P.Const:
      case P.Static:
      case P.TypeAlias:
        this.items.push({ p, def: capture(m, "def"), name: capture(m, "name") });
        return;
      case P.Macro: {
        const def = capture(m, "def");
        const name = capture(m, "name");
        const body = this.b.source.slice(def.startIndex, def.endIndex);
        this.macroUses(body, def);
        const brace = body.search(/[{([]/);
        const attributed = this.attrRuns.has(def.startPosition.row - 1);
        this.b.symbol("function", def, name, {
          name: `${this.text(name)}!`,
          exported:
            attributed &&
            this.b.source.slice(Math.max(0, def.startIndex - 200), def.startIndex).includes("macro_export"),
          signatureEnd: brace >= 0 ? def.startIndex + brace : undefined,
          docNode: this.docNode(def),
        });
        return;
      }
      case P.Use:
        return this.use(capture(m, "def"), capture(m, "arg"));
      case P.ExternCrate:
        return this.externCrate(capture(m, "def"), capture(m, "name"));
      case P.Call:
        return this.call(capture(m, "fn"), capture(m, "args"));
      case P.For: {
        // `for o in &self.orders { .. }`: in the body, o is an element of what it loops over, and
        // never an `o` of the function around the loop.
        const value = this.receiver(capture(m, "value"));
        const body = capture(m, "body");
        this.b.bindNewElement(this.text(capture(m, "name")), body.startIndex, body.endIndex, value);
        return;
      }
      case P.MacroCall: {
        const path = capture(m, "macro");
        if (path.type === "identifier") return this.b.ref("calls", path, `${this.text(path)}!`, null, null);
        const name = path.type === "scoped_identifier" ? path.childForFieldName("name") : null;
        if (name?.type !== "identifier") return;
        const segs = this.pathSegments(path);
        if (!segs) return;
        const head = segs[0];
        // `$crate::m!` and `crate::m!` name the crate's own macro; another head names a crate.
        const receiver = segs.length === 2 && head !== "crate" && head !== "$crate" ? head! : null;
        if (segs.length > 2) return;
        return this.b.ref("calls", name, `${this.text(name)}!`, receiver, null);
      }
      case P.StructExpr:
        return this.structExpr(capture(m, "type"));
      case P.TokenCall: {
        // The name is read here rather than matched as `(identifier) . (token_tree)`: the anchored
        // pair costs about 40 ms to compile, two thirds of the whole query.
        // Any token tree is matched (a pattern of one inside another cost 5 ms to compile): only one
        // inside another is a call's arguments.
        const args = capture(m, "tokens");
        if (args.parent?.type !== "token_tree") return;
        const name = args.previousNamedSibling;
        return name?.type === "identifier" ? this.tokenCall(name, args) : undefined;
      }
      case P.LetTyped:
      case P.Param: {
        const name = capture(m, "name");
        const type = capture(m, "type");
        const typeName = this.typeName(type, name.startIndex);
        if (typeName && p === P.LetTyped) this.letType(name, this.text(name), typeName);
        else if (typeName) {
          this.pendingTypes.push({ at: name, name: this.text(name), typeName });
          // The parameter's function: a name shadowed in a block inside it is this again after.
          const fn = name.parent?.parent?.parent;
          if (fn) this.params.push({ name: this.text(name), typeName, start: fn.startIndex, end: fn.endIndex });
        }
        this.addElementType(name, this.text(name), type);
        return;
      }
      case P.LetValue: {
        const name = capture(m, "name");
        const typeName = this.valueType(capture(m, "value"), name.startIndex);
        if (typeName) this.letType(name, this.text(name), typeName);
        return;
      }
      case P.LetTuple:
        return this.tupleLet(capture(m, "tuple"), capture(m, "value"));
      case P.TypeParam: {
        const node = m.captures[0]!.node;
        const name = this.text(node);
        this.typeParams.add(name);
        this.typeParamDecls.push({ name, at: node.startIndex });
        return;
      }
      case P.DefaultOrConstParam: {
        const node = m.captures[0]!.node;
        this.typeParamDecls.push({ name: this.text(node), at: node.startIndex });
        return;
      }
      case P.ConstrainedTypeParam:
      case P.WherePredicate: {
        const left = capture(m, "typeparam");
        const param = this.text(left);
        if (m.patternIndex === P.ConstrainedTypeParam) {
          this.typeParams.add(param);
          this.typeParamDecls.push({ name: param, at: left.startIndex });
        }
        const bounds = capture(m, "bounds");
        this.bound(param, bounds);
        this.boundUses.push(bounds);
        return;
      }
      case P.TypeUse:
        this.typeUses.push(m.captures[0]!.node);
        return;
      case P.SuperTrait: {
        const bound = m.captures[0]!.node;
        const path = this.typePath(bound, bound.startIndex);
        if (!path) return;
        const { receiver, name } = splitLast(path);
        return this.b.ref("extends", bound, name, receiver);
      }
    }
  }

  /** Functions, once every impl and trait body is known: members of those are methods. */
  finish(): void {
    for (const fn of this.fns) this.fn(fn);
    for (const item of this.items) this.item(item.p, item.def, item.name);
    this.typeReferences();
    this.restoreShadowed();
    this.blockUses();
    // In the order of the text: the builder reads a name's entries in it (a restore at a block's end
    // is pushed after every `let`).
    const ordered = this.pendingTypes.map((t) => ({ t, at: t.at.startIndex })).sort((a, b) => a.at - b.at);
    for (const { t } of ordered) {
      const head = t.typeName.split(".")[0]!;
      if (!this.typeParams.has(head)) this.b.localType(t.at, t.name, t.typeName);
      else if (head === t.typeName) {
        // A value of a type parameter has the methods of the trait that bounds it.
        const trait = this.bounds.get(head);
        if (trait) this.b.localType(t.at, t.name, trait);
      }
    }
  }

  private bound(param: string, bounds: Node): void {
    const traits: string[] = [];
    for (const b of bounds.namedChildren) {
      if (!b || b.type === "lifetime" || b.type === "removed_trait_bound") continue;
      const name = this.typeName(b, b.startIndex);
      if (!name) {
        this.bounds.set(param, null);
        return;
      }
      traits.push(name);
    }
    const trait = traits.length === 1 ? traits[0]! : null;
    const seen = this.bounds.get(param);
    this.bounds.set(param, seen === undefined || seen === trait ? trait : null);
  }

  // ---- declarations ----

  private visibility(def: Node): { visibility: Visibility; exported: boolean } {
    const first = def.namedChild(0);
    if (first?.type !== "visibility_modifier") return { visibility: "private", exported: false };
    const text = this.text(first);
    return text === "pub" ? { visibility: "public", exported: true } : { visibility: "internal", exported: true };
  }

  /** Items of trait bodies and trait impls are public without saying so. */
  private memberVisibility(def: Node): { visibility: Visibility; exported: boolean } {
    if (this.traitMembers.has(def.id)) return { visibility: "public", exported: true };
    if (this.implMembers.has(def.id)) {
      const impl = innermost(this.impls, def.startIndex);
      if (impl && this.implIsTrait.has(impl.start)) return { visibility: "public", exported: true };
    }
    return this.visibility(def);
  }

  private readonly implIsTrait = new Set<number>();

  /** Where the doc comment of `def` ends: above its attributes, when it has some. */
  private docNode(def: Node): Node {
    const row = def.startPosition.row;
    const run = this.attrRuns.get(row - 1);
    return run === undefined ? def : docAt(run);
  }

  /** The item's path inside the file: enclosing inline modules, then its name. */
  private qualify(at: number, name: string): string {
    const chain = this.modChain(at);
    return chain.length ? `${chain.join(".")}.${name}` : name;
  }

  private modChain(at: number): string[] {
    const out: string[] = [];
    for (const m of this.mods) {
      if (m.start > at) break;
      if (m.end > at) out.push(m.name);
    }
    return out;
  }

  private fileMod(def: Node, name: Node): void {
    const text = this.text(name);
    // `mod a;` inside an inline module lives in a folder we do not follow.
    if (this.modChain(def.startIndex).length) return;
    this.b.import({ local: text, imported: "*", specifier: text, line: def.startPosition.row + 1, reexport: false });
    this.b.symbol("import", def, name);
  }

  private impl(def: Node, written: Node, body: Node): void {
    const at = def.startIndex;
    const typeNode = this.pointee(def, written);
    const type = this.typePath(typeNode, -1);
    const chain = this.modChain(at);
    const last = type ? type.slice(type.lastIndexOf(".") + 1) : null;
    // A bare name may be declared in the function around the impl, or imported into its module.
    const declared =
      type && !type.includes(".") ? (this.ownerInFunction(type, at) ?? this.ownerImported(type, chain, at)) : null;
    const owner = last ? (declared ?? [...chain, last].join(".")) : null;
    const trait = def.childForFieldId(this.f.trait);
    const traitPath = trait ? this.typePath(trait, -1) : null;
    const text = type ? null : this.text(typeNode).replace(/\s+/g, " ");
    this.impls.push({ start: at, end: def.endIndex, type, owner, trait: traitPath, text, bodyStart: body.startIndex });
    if (!trait) return;
    this.implIsTrait.add(at);
    if (!traitPath || !owner) return;
    const { receiver, name } = splitLast(traitPath);
    // Written here, but it is the type that implements the trait (when the type is declared here).
    this.b.typeRef("implements", trait, name, receiver, owner);
  }

  /**
   * The type an impl is for, through the pointers that call through to it: `impl Schedule for
   * Arc<Handle>` gives Handle methods reached through the pointer, as a `self: Arc<Self>` receiver
   * is the type's own (tokio's `Arc.schedule` was three unrelated methods under one name, and the
   * `self.schedule_task(..)` in them found nothing). A pointer to one of the impl's own type parameters
   * (`impl<T: AsyncRead> AsyncRead for Box<T>`) stays as written: no project type is behind it.
   */
  private pointee(def: Node, written: Node): Node {
    if (written.type !== "generic_type") return written;
    const base = written.childForFieldId(this.f.type);
    const args = written.childForFieldId(this.f.type_arguments);
    const inner = args?.namedChildCount === 1 ? args.namedChild(0) : null;
    if (!base || !inner || !DEREF_WRAPPER.test(this.text(base))) return written;
    if (inner.type !== "type_identifier" && inner.type !== "scoped_type_identifier" && inner.type !== "generic_type")
      return written;
    const name = this.text(inner);
    const ownParams = def.childForFieldName("type_parameters")?.namedChildren ?? [];
    const paramName = (p: Node) => p.childForFieldName("left") ?? p.childForFieldName("name") ?? p;
    return ownParams.some((p) => p && this.text(paramName(p)) === name) ? written : inner;
  }

  /**
   * The qualified name of the type an impl inside a function body is for, when that body declares it
   * (`fn set() { struct Reset; impl Drop for Reset { .. } }`): the symbols nest by where they are
   * written, so the struct is `ScopedKey.set.Reset`, and its methods must be too. tokio has 115 such
   * methods, rustc 444. `type` is a bare name. Null elsewhere: the impl's module chain then names
   * the owner.
   */
  private ownerInFunction(type: string, at: number): string | null {
    const fn = this.enclosingFn(at);
    if (!fn) return null;
    const declared = this.typeDecls.some((t) => t.name === type && this.enclosingFn(t.at) === fn);
    return declared ? `${this.fnQName(fn)}.${type}` : null;
  }

  /**
   * The qualified name of the type an impl inside an inline module is for, when that module imports
   * it rather than declaring it (`mod sys { use super::TcpListener; impl AsRawFd for TcpListener }`):
   * the type's own, `TcpListener`, not `sys.TcpListener`. A type from another file is named as at
   * the top of its file. tokio has 14 such methods, rustc 73. `type` is a bare name. Null elsewhere.
   */
  private ownerImported(type: string, chain: string[], at: number): string | null {
    if (!chain.length) return null;
    const mod = innermost(this.mods, at);
    if (!mod || this.typeDecls.some((t) => t.name === type && innermost(this.mods, t.at) === mod)) return null;
    const use = this.useBindings.find((u) => u.local === type && innermost(this.mods, u.at) === mod);
    if (!use) return null;
    const head = use.specifier.split(".")[0]!;
    if (!use.specifier || head === "crate" || head === "super") return use.imported;
    return this.mods.some((m) => m.name === head && this.modChain(m.start).length === 1)
      ? `${use.specifier}.${use.imported}`
      : null;
  }

  /** The innermost function whose text holds `at` (functions are listed in source order). */
  private enclosingFn(at: number): PendingFn | null {
    let best: PendingFn | null = null;
    for (const f of this.fns) {
      if (f.def.startIndex >= at) break;
      if (f.def.endIndex > at) best = f;
    }
    return best;
  }

  /** A function's qualified name as the builder makes it: its impl's owner, its trait, or where it is nested. */
  private fnQName(fn: PendingFn): string {
    const name = this.text(fn.name);
    const at = fn.def.startIndex;
    if (this.implMembers.has(fn.def.id)) {
      const impl = innermost(this.impls, at);
      const owner = impl ? this.ownerOf(impl, true) : null;
      if (owner) return `${owner}.${name}`;
    }
    if (this.traitMembers.has(fn.def.id)) {
      const trait = innermost(this.traits, at);
      if (trait) return `${trait.qname}.${name}`;
    }
    const outer = this.enclosingFn(at);
    return outer ? `${this.fnQName(outer)}.${name}` : this.qualify(at, name);
  }

  /**
   * Who an impl's members belong to: its type, or for a blanket impl over a type parameter
   * (`impl<T: Input> Input for &T`) the trait with that parameter (`Input<T>`), which no type is.
   * With `functions`, the methods of an impl for a type that is no path of the project
   * (`impl AsyncRead for &[u8]`, `impl From<State> for usize`) too: they belong to the trait with
   * that type as written (`AsyncRead<&[u8]>`), or to the type itself for an inherent impl (`impl str`,
   * in the core library). So they are symbols, and the calls in their bodies theirs, not the file's,
   * though no call reaches them through a type of the project. Their associated types and constants
   * stay out: an impl's members are names at the top of their module too, and the core library's
   * `impl IntoIterator for [T; N] { type IntoIter = .. }` would hide the module's `pub use iter::IntoIter`.
   */
  private ownerOf(impl: ImplRange, functions = false): string | null {
    if (impl.type && this.typeParams.has(impl.type)) return impl.trait ? `${impl.trait}<${impl.type}>` : null;
    if (impl.text && functions) return impl.trait ? `${impl.trait}<${impl.text}>` : impl.text;
    return impl.owner;
  }

  /**
   * `&self`, and `self: Arc<Self>` (or `Box<Self>`, `Pin<&mut Self>`), which the grammar reads as a
   * parameter named `self`: the method's receiver either way, through a pointer whose methods are
   * its content's. tokio's `self: Arc<Self>` methods left `self.s.acquire()` unresolved.
   */
  private isSelfParameter(param: Node): boolean {
    return param.type === "self_parameter" || (param.type === "parameter" && SELF_TYPED.test(this.text(param)));
  }

  private fn(fn: PendingFn): void {
    const { def, name, params } = fn;
    const b = this.b;
    const id = def.id;
    const hasSelf = params.namedChildCount > 0 && this.isSelfParameter(params.namedChild(0)!);
    const paramCount = params.namedChildCount - (hasSelf ? 1 : 0);
    const body = fn.signature ? null : def.childForFieldId(this.f.body);
    let end = body ? body.startIndex : def.endIndex;
    if (!body && b.source.endsWith(";", end)) end--;
    const docNode = this.docNode(def);
    let selfType: string | null = null;
    // Options written out, not spread from parts: two spreads into one object went through V8's
    // runtime, and were a quarter of this function's time (CPU profile, tokio).
    if (this.implMembers.has(id)) {
      const impl = innermost(this.impls, def.startIndex);
      const owner = impl ? this.ownerOf(impl, true) : null;
      if (!impl || !owner) return;
      const { visibility, exported } = this.memberVisibility(def);
      b.symbol("method", def, name, {
        signatureEnd: end,
        paramCount,
        docNode,
        visibility,
        exported,
        isStatic: !hasSelf,
        owner,
      });
      // `impl Shape for Square { fn area(..) }`: the method is the trait's `area` for Squares. Its
      // type's node is not its parent (impls are written apart), so the trait is named here.
      if (impl.trait) {
        b.ref("overrides", name, this.text(name), impl.trait);
        this.pendingTypes.push({ at: params, name: TRAIT_METHOD, typeName: impl.trait });
      }
      selfType = owner === impl.owner ? impl.type : null;
    } else if (this.traitMembers.has(id)) {
      b.symbol("method", def, name, {
        signatureEnd: end,
        paramCount,
        docNode,
        visibility: "public",
        exported: true,
        isStatic: !hasSelf,
      });
      selfType = innermost(this.traits, def.startIndex)?.qname ?? null;
    } else {
      const { visibility, exported } = this.visibility(def);
      b.symbol("function", def, name, { signatureEnd: end, paramCount, docNode, visibility, exported });
    }
    if (selfType && hasSelf) this.pendingTypes.push({ at: params, name: "self", typeName: selfType });
    const ret = def.childForFieldId(this.f.return_type);
    const retType = ret ? this.typeName(ret, ret.startIndex) : null;
    if (ret && retType) this.pendingTypes.push({ at: ret, name: "()", typeName: retType });
    if (ret) this.addElementType(ret, "()", ret);
    // `-> (Sender<T>, Receiver<T>)`: each position's type (see TUPLE).
    if (ret?.type === "tuple_type") {
      ret.namedChildren.forEach((t, i) => {
        const typeName = t ? this.typeName(t, ret.startIndex) : null;
        if (typeName) this.pendingTypes.push({ at: ret, name: `()${TUPLE}${i}`, typeName });
      });
    }
    this.closureParameters(def, params);
  }

  /**
   * `fn with_handle<F: FnOnce(&Handle) -> R>(f: F)`, `g: impl Fn(&mut Ctx, usize)`, or a `where F: ..`
   * bound: what a closure given as argument i gets as its parameter j, recorded as `()#i:j` in the
   * function's scope (a position of the call, as TUPLE's are), for `with_handle(|h| h.spawn())` (see
   * `closureArguments`). `self` is no argument.
   */
  private closureParameters(def: Node, params: Node): void {
    let i = 0;
    for (const p of params.namedChildren) {
      if (p?.type !== "parameter") continue;
      const fnType = this.fnBound(def, p.childForFieldId(this.f.type));
      let j = 0;
      for (const t of fnType?.childForFieldId(this.f.parameters)?.namedChildren ?? []) {
        if (!t || t.type === "line_comment" || t.type === "block_comment") continue;
        const typeName = this.typePath(t, t.startIndex);
        if (typeName) this.pendingTypes.push({ at: p, name: `()${callbackPosition(i, j)}`, typeName });
        j++;
      }
      i++;
    }
  }

  /** The `Fn(..)` a parameter's type is: `impl Fn(..)`, or a type parameter bounded by one. */
  private fnBound(def: Node, type: Node | null): Node | null {
    if (type?.type === "abstract_type") {
      const trait = type.childForFieldId(this.f.trait);
      return trait?.type === "function_type" ? trait : null;
    }
    if (type?.type !== "type_identifier") return null;
    const name = this.text(type);
    const declared = [
      ...(def.childForFieldName("type_parameters")?.namedChildren ?? []),
      ...(childOfType(def, "where_clause")?.namedChildren ?? []),
    ];
    for (const d of declared) {
      if (d?.type !== "constrained_type_parameter" && d?.type !== "where_predicate") continue;
      const left = d.childForFieldName("left");
      if (!left || this.text(left) !== name) continue;
      const fnType = childOfType(d.childForFieldName("bounds") ?? d, "function_type");
      if (fnType) return fnType;
    }
    return null;
  }

  /**
   * `with_handle(|h| h.spawn())`, `Builder::new(|cx| ..)`, `rt.block_on(|x| ..)`: a closure given as an
   * argument gets what the callee's signature says (see `closureParameters`), by position.
   */
  private closureArguments(callee: string, args: Node): void {
    let i = 0;
    for (const arg of args.namedChildren) {
      if (!arg || arg.type === "line_comment" || arg.type === "block_comment") continue;
      if (arg.type === "closure_expression") {
        let j = 0;
        for (let p of arg.childForFieldId(this.f.parameters)?.namedChildren ?? []) {
          if (p?.type === "reference_pattern") p = p.namedChild(0);
          if (p?.type === "identifier")
            this.b.bindValue(this.text(p), arg.startIndex, arg.endIndex, `${callee}()${callbackPosition(i, j)}`);
          j++;
        }
      }
      i++;
    }
  }

  /**
   * A name a `let` types, from the `let`'s end (a use inside its value, a closure over the old name,
   * still reads the old one). A name declared again shadows the one before (uses read the last `let`
   * before them, `flowTypes`), up to the end of the block it is declared in, where the outer name's
   * type is restored (see `restoreShadowed`).
   */
  private letType(name: Node, text: string, typeName: string): void {
    let decl = name.parent;
    // A name in a pattern (`(tx, mut rx)`) is a level or two below its `let`.
    for (let up = 0; up < 2 && decl && decl.type !== "let_declaration"; up++) decl = decl.parent;
    const at = decl?.type === "let_declaration" ? (decl.child(decl.childCount - 1) ?? name) : name;
    const block = decl?.type === "let_declaration" ? decl.parent : null;
    this.pendingTypes.push({ at, name: text, typeName });
    if (block) this.lets.push({ at, name: text, typeName, block });
  }

  /**
   * At the end of each block (but a function's own) that declares a name again, the name's type
   * before the block: the last `let` of it before, in a block around this one, else the parameter of
   * that name, else nothing known (`UNKNOWN`). Without it, a `let handler = handler.struct_span_err(..)` in one `match` arm would
   * type `handler` in every arm after it.
   */
  private restoreShadowed(): void {
    const restored = new Set<string>();
    this.lets.forEach((l, i) => {
      const owner = l.block.parent?.type;
      if (l.block.type !== "block" || owner === "function_item") return;
      const key = `${l.block.startIndex}\0${l.name}`;
      if (restored.has(key)) return;
      restored.add(key);
      const param = this.params.find(
        (q) => q.name === l.name && q.start <= l.block.startIndex && l.block.endIndex <= q.end,
      );
      let outer: string = param?.typeName ?? UNKNOWN;
      for (let j = i - 1; j >= 0; j--) {
        const o = this.lets[j]!;
        if (
          o.name === l.name &&
          o.block.startIndex <= l.block.startIndex &&
          l.block.endIndex <= o.block.endIndex &&
          o.block.startIndex !== l.block.startIndex
        ) {
          outer = o.typeName;
          break;
        }
      }
      const closer = l.block.child(l.block.childCount - 1);
      if (closer) this.pendingTypes.push({ at: closer, name: l.name, typeName: outer });
    });
  }

  /**
   * A `use` in a function's body binds its name in that block only, but bindings are the file's: where
   * the file binds the name otherwise too (`use std::sync::mpsc;` at the top, `use tokio::sync::mpsc;`
   * in one test), one binding would stand for the other everywhere. Such a binding is renamed to one
   * of its own (`mpsc'192`, by its line), which the block's paths headed by the name are read as.
   */
  private blockUses(): void {
    const clashing = this.scopedUses.filter(({ binding: b }) =>
      this.useBindings.some((o) => o.local === b.local && (o.specifier !== b.specifier || o.imported !== b.imported)),
    );
    for (const { binding, block } of clashing) {
      const own = `${binding.local}'${binding.line}`;
      this.b.narrow(binding.local, block.startIndex, block.endIndex, own);
      binding.local = own;
    }
  }

  /** `let (tx, mut rx) = mpsc::channel(8)`: each name is that position of what the call returns. */
  private tupleLet(tuple: Node, value: Node): void {
    const call = value.type === "call_expression" ? this.receiverText(value, 0) : null;
    if (!call?.endsWith("()")) return;
    tuple.namedChildren.forEach((p, i) => {
      const id = p?.type === "mut_pattern" ? p.namedChild(p.namedChildCount - 1) : p;
      if (id?.type === "identifier") this.letType(id, this.text(id), `${call}${TUPLE}${i}`);
    });
  }

  private item(p: number, def: Node, name: Node): void {
    const kind: NodeKind = p === P.Const ? "constant" : p === P.Static ? "variable" : "type_alias";
    const options = {
      ...this.memberVisibility(def),
      isStatic: kind !== "type_alias",
      docNode: this.docNode(def),
      owner: undefined as string | undefined,
    };
    if (this.implMembers.has(def.id)) {
      const impl = innermost(this.impls, def.startIndex);
      const owner = impl ? this.ownerOf(impl) : null;
      if (!owner) return;
      options.owner = owner;
    }
    this.b.symbol(kind, def, name, options);
  }

  /** `struct Regex(Exec);`: `self.0` is an Exec. */
  private tupleFields(list: Node): void {
    let i = 0;
    for (const c of list.namedChildren) {
      if (!c || c.type === "visibility_modifier" || c.type === "attribute_item") continue;
      if (c.type.endsWith("comment")) continue;
      const typeName = this.typeName(c, list.startIndex);
      if (typeName) this.pendingTypes.push({ at: list, name: `this.${i}`, typeName });
      i++;
    }
  }

  private field(decl: Node): void {
    const name = decl.childForFieldId(this.f.name);
    if (!name) return;
    const text = this.text(name);
    this.b.symbol("property", decl, name, { ...this.visibility(decl), docNode: this.docNode(decl) });
    const type = decl.childForFieldId(this.f.type);
    const typeName = type ? this.typeName(type, decl.startIndex) : null;
    if (typeName) this.pendingTypes.push({ at: decl, name: `this.${text}`, typeName });
    if (type) this.addElementType(decl, `this.${text}`, type);
  }

  /**
   * The elements' type of a written collection (`Vec<Order>`, `&[Order]`, `[Order; 4]`, `VecDeque`,
   * `HashSet`...), as the type of `name[0]` (see ELEMENT): the name keeps the collection's type.
   */
  private addElementType(at: Node, name: string, type: Node): void {
    let t: Node | null = type;
    while (t?.type === "reference_type") t = t.childForFieldId(this.f.type);
    let element: Node | null = null;
    if (t?.type === "array_type") element = t.childForFieldId(this.f.element);
    else if (t?.type === "generic_type") {
      const base = t.childForFieldId(this.f.type);
      const args = t.childForFieldId(this.f.type_arguments);
      const collection = base ? this.text(base).split("::").pop()! : "";
      // `Result<T, E>`'s element is its success: what `?`, `unwrap()` and `expect()` give.
      const count = args?.namedChildCount ?? 0;
      if (count === 1 && COLLECTIONS.has(collection)) element = args!.namedChild(0);
      else if (count >= 1 && count <= 2 && collection === "Result") element = args!.namedChild(0);
    }
    const typeName = element ? this.typeName(element, at.startIndex) : null;
    if (typeName) this.pendingTypes.push({ at, name: `${name}${ELEMENT}`, typeName });
  }

  /** `orders.iter().map(|o| o.total())`: in the closure, o is an element of what the method is called on. */
  private elementClosure(method: string, receiver: string, args: Node): void {
    if (receiver === "?" || !ELEMENT_CLOSURES.has(method)) return;
    const closure = args.namedChild(0);
    if (closure?.type !== "closure_expression") return;
    const params = closure.childForFieldId(this.f.parameters)?.namedChildren ?? [];
    let param = params.length === 1 ? params[0] : null;
    if (param?.type === "reference_pattern") param = param.namedChild(0);
    if (param?.type === "identifier")
      this.b.bindElement(this.text(param), closure.startIndex, closure.endIndex, receiver);
  }

  // ---- imports ----

  private use(def: Node, arg: Node): void {
    this.useSpans.push({ start: def.startIndex, end: def.endIndex });
    const line = def.startPosition.row + 1;
    // `pub use` passes the names on to importers of this module (and binds them here too).
    const pub = def.namedChild(0)?.type === "visibility_modifier";
    const at = def.startIndex;
    let block: Node | null = null;
    for (let up = def.parent; up && up.type !== "declaration_list" && up.type !== "source_file"; up = up.parent)
      if (up.type === "block") {
        block = up;
        break;
      }
    const add = (local: string, imported: string, specifier: string | null, node: Node) => {
      if (specifier === null || !local || local === "_") return;
      this.useBindings.push({ local, imported, specifier, at });
      const binding: ImportBinding = { local, imported, specifier, line, reexport: false };
      this.b.import(binding);
      if (block && local !== "*") this.scopedUses.push({ binding, block });
      if (pub) this.b.import({ local, imported, specifier, line, reexport: true });
      if (local !== "*") this.b.symbol("import", node, null, { name: local });
    };
    const walk = (node: Node, prefix: string[] | null, depth: number): void => {
      if (depth > 8 || !prefix) return;
      switch (node.type) {
        case "identifier":
        case "scoped_identifier":
        case "self":
        case "super":
        case "crate": {
          const segs = this.pathSegments(node);
          if (!segs) return;
          const full = [...prefix, ...segs];
          const last = full[full.length - 1]!;
          if (last === "self") {
            // `use a::b::{self}` binds `b`.
            const path = full.slice(0, -1);
            if (path.length === 0) return;
            add(path[path.length - 1]!, path[path.length - 1]!, this.normalize(path.slice(0, -1), at), node);
            return;
          }
          if (full.length < 2 || last === "super" || last === "crate") return;
          add(last, last, this.normalize(full.slice(0, -1), at), node);
          return;
        }
        case "use_as_clause": {
          const path = node.childForFieldId(this.f.path);
          const alias = node.childForFieldId(this.f.alias);
          const segs = path ? this.pathSegments(path) : null;
          if (!segs || !alias) return;
          const full = [...prefix, ...segs];
          const last = full[full.length - 1]!;
          if (last === "self") {
            const p2 = full.slice(0, -1);
            add(this.text(alias), p2[p2.length - 1] ?? "", this.normalize(p2.slice(0, -1), at), node);
            return;
          }
          add(this.text(alias), last, this.normalize(full.slice(0, -1), at), node);
          return;
        }
        case "use_wildcard": {
          const inner = node.namedChild(0);
          const segs = inner ? this.pathSegments(inner) : [];
          if (!segs) return;
          add("*", "*", this.normalize([...prefix, ...segs], at), node);
          return;
        }
        case "scoped_use_list": {
          const path = node.childForFieldId(this.f.path);
          const list = node.childForFieldId(this.f.list);
          const segs = path ? this.pathSegments(path) : [];
          if (!segs || !list) return;
          walk(list, [...prefix, ...segs], depth + 1);
          return;
        }
        case "use_list":
          for (const c of node.namedChildren) if (c) walk(c, prefix, depth + 1);
          return;
        default:
          return;
      }
    };
    walk(arg, [], 0);
  }

  /** `use a::b::C;` written in a macro's body: the expansion sees C, so calls in the body do too. */
  private macroUses(body: string, def: Node): void {
    const line = def.startPosition.row + 1;
    for (const m of body.matchAll(/\buse\s+((?:\$?[A-Za-z_]\w*::)+)([A-Za-z_]\w*)\s*;/g)) {
      const spec = this.normalize(m[1]!.slice(0, -2).split("::"), def.startIndex);
      if (spec) this.b.import({ local: m[2]!, imported: m[2]!, specifier: spec, line, reexport: false });
    }
  }

  private externCrate(def: Node, name: Node): void {
    const alias = def.childForFieldId(this.f.alias);
    const crate = this.text(name);
    if (crate === "self") return;
    const local = alias ? this.text(alias) : crate;
    this.b.import({ local, imported: "*", specifier: crate, line: def.startPosition.row + 1, reexport: false });
    this.b.symbol("import", def, null, { name: local });
  }

  // ---- paths ----

  /** Segments of a path as written (`crate`, `self`, `super`, `Self`, names); null for `<T as U>::` and the like. */
  private pathSegments(node: Node, depth = 0): string[] | null {
    if (depth > 12) return null;
    switch (node.type) {
      case "identifier":
      case "type_identifier":
      case "self":
      case "super":
      case "crate":
        return [this.text(node)];
      case "metavariable":
        return [this.text(node)];
      case "scoped_identifier":
      case "scoped_type_identifier": {
        const name = node.childForFieldId(this.f.name);
        const path = node.childForFieldId(this.f.path);
        if (!name) return null;
        if (!path) return [this.text(name)]; // `::name`
        const left = this.pathSegments(path, depth + 1);
        return left ? [...left, this.text(name)] : null;
      }
      case "generic_type": {
        const inner = node.childForFieldId(this.f.type);
        return inner ? this.pathSegments(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /**
   * A path as the resolver reads it, from where it is written (`at`): `self::`/`super::` folded into
   * the file's inline modules, `Self` replaced by the type of the enclosing impl. "" is the file
   * itself; null when the path cannot be followed.
   */
  private normalize(segs: string[], at: number): string | null {
    if (segs.length === 0) return "";
    const head = segs[0]!;
    if (head === "$crate") return ["crate", ...segs.slice(1)].join(".");
    if (head === "crate") return segs.join(".");
    if (head === "Self") {
      const self = this.selfType(at);
      return self ? [self, ...segs.slice(1)].join(".") : null;
    }
    const chain = this.modChain(at);
    if (head === "self") return [...chain, ...segs.slice(1)].join(".");
    if (head === "super") {
      let n = 0;
      while (segs[n] === "super") n++;
      const rest = segs.slice(n);
      if (n <= chain.length) return [...chain.slice(0, chain.length - n), ...rest].join(".");
      return [...Array<string>(n - chain.length).fill("super"), ...rest].join(".");
    }
    if (segs.some((s) => s === "self" || s === "super" || s === "crate")) return null;
    return segs.join(".");
  }

  /** `f(x)`, `a::f(x)`, `x.f(y)`, and each with `::<T>` (a generic function). */
  private call(fn: Node, args: Node): void {
    this.pathValues(args);
    if (fn.type === "generic_function") fn = fn.childForFieldName("function") ?? fn;
    if (fn.type === "identifier") {
      this.b.ref("calls", fn, this.text(fn), null, args.namedChildCount);
      return this.closureArguments(this.text(fn), args);
    }
    if (fn.type === "scoped_identifier") {
      const name = fn.childForFieldName("name");
      return name?.type === "identifier" ? this.pathCall(fn, name, args) : undefined;
    }
    if (fn.type !== "field_expression") return;
    const value = fn.childForFieldName("value");
    const name = fn.childForFieldName("field");
    if (!value?.isNamed || name?.type !== "field_identifier") return;
    const method = this.text(name);
    let recv = this.receiver(value);
    // `fn consume(&mut self, ..) { Pin::new(self).consume(amt) }` hands the call on to the pointer's
    // own impl of another trait's `consume` (AsyncBufReadExt to AsyncBufRead): no call of itself.
    if (recv === "self" && value.type === "call_expression" && this.enclosingFunction(value) === method) recv = "?";
    this.b.ref("calls", name, method, recv, args.namedChildCount);
    if (ELEMENT_CLOSURES.has(method)) return this.elementClosure(method, recv, args);
    if (recv !== "?") this.closureArguments(`${recv}.${method}`, args);
  }

  /** The name of the function around `node` (walked up the tree: for a rare case only). */
  private enclosingFunction(node: Node): string | null {
    for (let n = node.parent; n; n = n.parent) {
      if (n.type !== "function_item") continue;
      const name = n.childForFieldId(this.f.name);
      return name ? this.text(name) : null;
    }
    return null;
  }

  /** The type `Self` stands for at `at`: the enclosing impl's type, or the enclosing trait. */
  selfType(at: number): string | null {
    const impl = innermost(this.impls, at);
    const trait = innermost(this.traits, at);
    if (impl && (!trait || impl.start > trait.start)) return impl.type;
    return trait ? trait.qname : null;
  }

  /**
   * Functions named by path as arguments (`.map(Self::parse)`, `.map(Item::name)`): a use of the
   * function (`NAMED_VALUE`). A path is no local; a bare name (`for_each(drop_all)`) may be one,
   * and is left out. Only arguments whose text holds `::` are read, which few do.
   */
  private pathValues(args: Node): void {
    const at = this.b.source.indexOf("::", args.startIndex);
    if (at < 0 || at >= args.endIndex) return;
    for (const arg of args.namedChildren) {
      if (arg?.type !== "scoped_identifier") continue;
      const name = arg.childForFieldName("name");
      const segs = name?.type === "identifier" ? this.pathSegments(arg) : null;
      const dotted = segs ? this.normalize(segs, arg.startIndex) : null;
      if (!dotted) continue;
      const { receiver, name: last } = splitLast(dotted);
      if (last && receiver) this.b.ref("references", name!, last, `${NAMED_VALUE}${receiver}`);
    }
  }

  private pathCall(path: Node, name: Node, args: Node): void {
    const segs = this.pathSegments(path);
    if (!segs) return;
    const dotted = this.normalize(segs, path.startIndex);
    if (dotted === null) return;
    const { receiver, name: last } = splitLast(dotted);
    if (!last) return;
    this.b.ref("calls", name, last, receiver, args.namedChildCount);
    this.closureArguments(dotted, args);
  }

  /** Receiver of a method call: `self`, `x`, `self.f`, `a.b()`, `Point::new()`; `?` for anything computed. */
  private receiver(node: Node): string {
    return this.receiverText(node, 0) ?? "?";
  }

  private receiverText(node: Node, depth: number): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case "identifier":
      case "self":
        return this.text(node);
      case "field_expression": {
        const value = node.childForFieldId(this.f.value);
        const field = node.childForFieldId(this.f.field);
        if (!value || !field || (field.type !== "field_identifier" && field.type !== "integer_literal")) return null;
        const left = this.receiverText(value, depth + 1);
        return left ? `${left}.${this.text(field)}` : null;
      }
      case "call_expression": {
        const fn = node.childForFieldId(this.f.function);
        if (!fn) return null;
        if (fn.type === "scoped_identifier" || fn.type === "identifier") {
          const segs = this.pathSegments(fn);
          const dotted = segs ? this.normalize(segs, fn.startIndex) : null;
          const args = node.childForFieldId(this.f.arguments);
          const wrapped =
            dotted && WRAPPING_CALLS.test(dotted) && args?.namedChildCount === 1 ? args.namedChild(0) : null;
          if (wrapped) return this.receiverText(wrapped, depth + 1);
          return dotted ? `${dotted}()` : null;
        }
        const callee = this.receiverText(fn, depth + 1);
        return callee ? `${callee}()` : null;
      }
      case "parenthesized_expression":
      case "reference_expression": {
        const inner = node.namedChild(node.namedChildCount - 1);
        return inner ? this.receiverText(inner, depth + 1) : null;
      }
      case "index_expression": {
        // `orders[i]`: an element of orders.
        const of = node.namedChild(0);
        const left = of ? this.receiverText(of, depth + 1) : null;
        return left ? `${left}${ELEMENT}` : null;
      }
      case "try_expression": {
        // `x()?` is what `x()` returns when it succeeds: an element of its `Result` or `Option`.
        const inner = node.namedChild(0);
        const left = inner ? this.receiverText(inner, depth + 1) : null;
        return left ? `${left}${ELEMENT}` : null;
      }
      case "await_expression": {
        // `make().await` is what the async function is declared to return.
        const inner = node.namedChild(0);
        return inner ? this.receiverText(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  private structExpr(type: Node): void {
    const segs = this.pathSegments(type);
    const dotted = segs ? this.normalize(segs, type.startIndex) : null;
    if (!dotted) return;
    const { receiver, name } = splitLast(dotted);
    this.b.ref("instantiates", type, name, receiver, null);
  }

  /**
   * `name(...)` inside a macro's tokens: a call, read from the source around it. A name after `.`
   * is a method call on the plain receiver before it (`self.store.get(`), after `::` a path call.
   */
  private tokenCall(name: Node, args: Node): void {
    const src = this.b.source;
    const at = name.startIndex;
    if (src.charCodeAt(args.startIndex) !== 40) return; // `(`
    // Only `name(`: `name!(` is a macro call, matched as such when it is not inside a macro's tokens.
    if (src.slice(name.endIndex, args.startIndex).trim() !== "") return;
    const before = src.slice(Math.max(0, at - 200), at);
    // Each pattern below ends in what `before` must end with, tested first: a regex anchored at the
    // end is tried from every position of the 200 characters.
    const last = before.charAt(before.length - 1);
    if (/\s/.test(last) && NOT_CALL_BEFORE.test(before)) return;
    const text = this.text(name);
    if (last === "!" || /^[A-Z0-9_]+$/.test(text)) return;
    if (last === ".") {
      const m = /(?:^|[^\w.:])((?:self|[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)*)\.$/.exec(before);
      return this.b.ref("calls", name, text, m ? m[1]! : "?", null);
    }
    const m = before.endsWith("::") ? /(?:^|[^\w:])((?:[A-Za-z_]\w*::)+)$/.exec(before) : null;
    if (m) {
      const dotted = this.normalize(m[1]!.slice(0, -2).split("::"), at);
      if (dotted !== null) this.b.ref("calls", name, text, dotted || null, null);
      return;
    }
    if (before.endsWith(":") || before.endsWith("$") || /\w$/.test(before)) return;
    this.b.ref("calls", name, text, null, null);
  }

  // ---- types ----

  /**
   * Each project type written in a parameter, a result, a field, a `let`, a `const` or `static`, an
   * alias, a cast, a turbofish or a bound (`&mut Order`, `Vec<Box<dyn Store>>`, `crate::a::Id`,
   * `impl Fn(&Order)`, `T: Priced`) as a `references` ref: what `impact` and `callers --all-uses`
   * follow. Not the impl header's types (its `implements`), not a supertrait (`extends`). A bound in
   * an impl's header is a reference of the impl's type, when the file declares it.
   */
  private typeReferences(): void {
    if (!this.typeUses.length && !this.boundUses.length) return;
    this.scopeTypeParams();
    for (const t of this.typeUses) this.typeRefs(t, null, 0);
    for (const bounds of this.boundUses) {
      const at = bounds.startIndex;
      const impl = innermost(this.impls, at);
      if (!impl || at >= impl.bodyStart) this.typeRefs(bounds, null, 0);
      else if (impl.owner) this.typeRefs(bounds, impl.owner, 0);
    }
  }

  /** The item each type parameter is declared by: the innermost generic item around its name. */
  private scopeTypeParams(): void {
    if (!this.typeParamDecls.length) return;
    const items: Range[] = [...this.impls, ...this.traits];
    for (const f of this.fns) items.push({ start: f.def.startIndex, end: f.def.endIndex });
    for (const t of this.typeDecls) items.push({ start: t.at, end: t.end });
    for (const i of this.items) if (i.p === P.TypeAlias) items.push({ start: i.def.startIndex, end: i.def.endIndex });
    // Parents before children, as `innermost` reads them.
    items.sort((a, b) => a.start - b.start || b.end - a.end);
    for (const d of this.typeParamDecls) {
      const item = innermost(items, d.at);
      if (!item) continue;
      const list = this.typeParamItems.get(d.name);
      if (list) list.push(item);
      else this.typeParamItems.set(d.name, [item]);
    }
  }

  private isTypeParam(name: string, at: number): boolean {
    const items = this.typeParamItems.get(name);
    return items !== undefined && items.some((r) => r.start <= at && at < r.end);
  }

  /**
   * The references a written type makes, through references, pointers, arrays, tuples, generic
   * arguments, `dyn`/`impl` and bounds. A closure type's parameters that are `parameter`s
   * (`fn(x: A)`) are matched themselves; an array's length is a value. `fromType`: see `typeRef`.
   */
  private typeRefs(t: Node, fromType: string | null, depth: number): void {
    if (depth > 10) return;
    switch (t.type) {
      case "type_identifier": {
        const name = this.text(t);
        if (!UNREFERENCED.has(name) && !this.isTypeParam(name, t.startIndex)) this.typeRef(t, name, null, fromType);
        return;
      }
      case "scoped_type_identifier": {
        const segs = this.pathSegments(t);
        const head = segs?.[0];
        // `Self::Item`, `T::Output`: an associated type of what the impl or parameter turns out to be.
        if (!segs || head === "Self" || this.isTypeParam(head!, t.startIndex)) return;
        const dotted = this.normalize(segs, t.startIndex);
        if (!dotted) return;
        const { receiver, name } = splitLast(dotted);
        return this.typeRef(t, name, receiver, fromType);
      }
      case "generic_type":
      case "type_arguments":
      case "tuple_type":
      case "bounded_type":
      case "trait_bounds":
        for (const k of t.namedChildren) if (k) this.typeRefs(k, fromType, depth + 1);
        return;
      case "reference_type":
      case "pointer_type":
      case "type_binding":
      case "higher_ranked_trait_bound": {
        const inner = t.childForFieldId(this.f.type);
        if (inner) this.typeRefs(inner, fromType, depth + 1);
        return;
      }
      case "array_type": {
        const element = t.childForFieldId(this.f.element);
        if (element) this.typeRefs(element, fromType, depth + 1);
        return;
      }
      case "dynamic_type":
      case "abstract_type": {
        const inner = t.childForFieldId(this.f.trait);
        if (inner) this.typeRefs(inner, fromType, depth + 1);
        return;
      }
      case "function_type": {
        // `fn(A) -> B`, `Fn(&A) -> B`: the closure trait itself is the prelude's.
        for (const p of t.childForFieldId(this.f.parameters)?.namedChildren ?? [])
          if (p && p.type !== "parameter") this.typeRefs(p, fromType, depth + 1);
        const ret = t.childForFieldId(this.f.return_type);
        if (ret) this.typeRefs(ret, fromType, depth + 1);
        return;
      }
    }
  }

  private typeRef(at: Node, name: string, receiver: string | null, fromType: string | null): void {
    if (fromType === null) this.b.ref("references", at, name, receiver);
    else this.b.typeRef("references", at, name, receiver, fromType);
  }

  /** A type path from the file, generics and references stripped; `Box<T>`/`Rc<T>`/`Arc<T>` are T. */
  private typePath(node: Node, at: number): string | null {
    const segs = this.pathSegments(node.type === "generic_type" ? (node.childForFieldId(this.f.type) ?? node) : node);
    if (!segs) {
      if (node.type === "reference_type") {
        const inner = node.childForFieldId(this.f.type);
        return inner ? this.typePath(inner, at) : null;
      }
      return null;
    }
    return this.normalize(segs, at < 0 ? node.startIndex : at);
  }

  /** The project type a type names, or null (primitives, tuples, slices, type parameters, fn types). */
  private typeName(node: Node, at: number, depth = 0): string | null {
    if (depth > 6) return null;
    switch (node.type) {
      case "type_identifier": {
        const t = this.text(node);
        if (PRIMITIVES.has(t)) return null;
        if (t === "Self") return this.selfType(at);
        return t;
      }
      case "primitive_type":
        return null;
      case "scoped_type_identifier": {
        const segs = this.pathSegments(node);
        return segs ? this.normalize(segs, at) : null;
      }
      case "generic_type": {
        const inner = node.childForFieldId(this.f.type);
        if (!inner) return null;
        const base = this.typeName(inner, at, depth + 1);
        // `Arc<T>` as written, or by its path (`std::sync::Arc<T>`): T, whose methods it calls through to.
        if (base && DEREF_WRAPPER.test(base)) {
          const args = node.childForFieldId(this.f.type_arguments);
          const first = args?.namedChild(0);
          return first && args?.namedChildCount === 1 ? this.typeName(first, at, depth + 1) : null;
        }
        return base;
      }
      case "reference_type": {
        const inner = node.childForFieldId(this.f.type);
        return inner ? this.typeName(inner, at, depth + 1) : null;
      }
      case "dynamic_type":
      case "abstract_type": {
        const inner = node.childForFieldId(this.f.trait);
        return inner ? this.typeName(inner, at, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** What `let x = value` holds when the value says: `T { .. }`, `T::new(..)`, `make(..)`, `&self.repo`. */
  private valueType(value: Node, at: number): string | null {
    // `let repo = &self.repo`: of the field's type; `let f = open(p)?`, `make().await`: what they give.
    const field = value.type === "reference_expression" ? value.namedChild(value.namedChildCount - 1) : value;
    if (field?.type === "field_expression" || field?.type === "try_expression" || field?.type === "await_expression")
      return this.receiverText(field, 0);
    if (value.type === "struct_expression") {
      const name = value.childForFieldId(this.f.name);
      const segs = name ? this.pathSegments(name) : null;
      return segs ? this.normalize(segs, at) : null;
    }
    if (value.type === "call_expression") {
      const fn = value.childForFieldId(this.f.function);
      // `let c = self.new_conn()`: the call as a receiver chain, followed to what it returns.
      if (fn?.type === "field_expression") return this.receiverText(value, 0);
      if (!fn || (fn.type !== "scoped_identifier" && fn.type !== "identifier")) return null;
      const segs = this.pathSegments(fn);
      const dotted = segs ? this.normalize(segs, at) : null;
      return dotted ? `${dotted}()` : null;
    }
    return null;
  }
}

/** The type of a name restored after its block when nothing was known of it before (see `restoreShadowed`). */
const UNKNOWN = "?";

/** What a bare constant read may name in Rust: a `const` or `static`. */
const CONSTANT_KINDS: ReadonlySet<NodeKind> = new Set(["constant", "variable"]);

export const rustExtractor: LanguageExtractor = {
  id: "rust",
  grammar: "tree-sitter-rust.wasm",
  parse: parseWithMacroItems,
  prepare(language: Language, compile: (source: string) => Query) {
    const query = compile(QUERY);
    const fields: Fields = fieldIds(language, "tree-sitter-rust", FIELD_NAMES);
    return (tree: Tree, source: string): ExtractResult => {
      const b = new ExtractionBuilder(source);
      const root = tree.rootNode;
      const file = new RustFile(b, fields);
      for (const m of unwrappedMacros(tree)) b.ref("calls", m, `${m.name}!`, null, null);
      for (const m of query.matches(root)) file.handle(m);
      file.finish();
      constantReads(b, root, {
        nameType: "identifier",
        declaredKinds: CONSTANT_KINDS,
        separator: "::",
        anyCaseMembers: true,
        imports: file.useSpans,
        declaredAfter: /\b(?:const|static(?:\s+mut)?)\s+$/,
        selfType: (at) => file.selfType(at),
      });
      return b.finish(null, countSyntaxErrors(root));
    };
  },
};
