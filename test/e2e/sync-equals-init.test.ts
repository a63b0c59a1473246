import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphSnapshot } from "../helpers/graph-snapshot.js";
import { runJson, tempRepo } from "../helpers/cli.js";
import { fixtures, syncedProject, type Summary } from "../helpers/sync-compare.js";

/**
 * The incremental promise: after any sequence of edits, `sync` leaves exactly the graph that a fresh
 * `init --force` builds. Each step edits the tree, syncs, snapshots, rebuilds, snapshots, compares.
 * The steps are in two files (this one and sync-equals-init-more.test.ts), each with a project of
 * its own: together half of the suite's time, which the runner's two workers share
 * (vitest.config.ts).
 */

describe("sync equals init --force", () => {
  const project = syncedProject();
  const { at, syncThenCompare } = project;

  it("nothing changed: nothing to do", async () => {
    await syncThenCompare({ added: 0, modified: 0, removed: 0 });
  });

  it("a touched file with the same bytes is not a change", async () => {
    const later = new Date(Date.now() + 5000);
    utimesSync(at("typescript/src/models/order.ts"), later, later);
    await syncThenCompare({ added: 0, modified: 0, removed: 0 });
  });

  it("renaming a function its callers use leaves them unresolved, then a new file defines it again", async () => {
    const money = at("typescript/src/util/money.ts");
    writeFileSync(
      money,
      readFileSync(money, "utf8").replace("export function formatMoney", "export function formatCents"),
    );
    await syncThenCompare({ modified: 1 });
    writeFileSync(money, readFileSync(money, "utf8") + "\nexport { formatCents as formatMoney };\n");
    await syncThenCompare({ modified: 1 });
  });

  it("adding a module that an import was waiting for resolves it", async () => {
    writeFileSync(
      at("python/shop/discounts.py"),
      "from .models import Order\n\ndef apply(order: Order):\n    return order.total()\n",
    );
    appendFileSync(
      at("python/main.py"),
      "\nfrom shop.discounts import apply\n\ndef run_discount(o):\n    return apply(o)\n",
    );
    await syncThenCompare({ added: 1, modified: 1 });
  });

  it("changing a declared return type re-resolves calls through it in other files", async () => {
    writeFileSync(
      at("typescript/src/services/factory.ts"),
      'import { OrderRepo } from "./repo";\nexport function makeRepo(): OrderRepo {\n  return new OrderRepo();\n}\n',
    );
    writeFileSync(
      at("typescript/src/services/use-factory.ts"),
      'import { makeRepo } from "./factory";\nexport function lookup(id: string) {\n  const repo = makeRepo();\n  return repo.find(id);\n}\n',
    );
    await syncThenCompare({ added: 2 });
    const factory = at("typescript/src/services/factory.ts");
    writeFileSync(
      factory,
      readFileSync(factory, "utf8").replace("makeRepo(): OrderRepo", "makeRepo(): Map<string, string>"),
    );
    await syncThenCompare({ modified: 1 });
  });

  it("deleting a file drops its nodes and the edges into it", async () => {
    rmSync(at("typescript/src/services/repo.ts"));
    await syncThenCompare({ removed: 1 });
  });

  it("a class JSDoc names without an import goes, then comes back", async () => {
    // shapes/measure.js's `@param {Box} box` finds geometry.js's Box only through the project's names.
    const geometry = at("typescript/src/services/geometry.js");
    const text = readFileSync(geometry, "utf8");
    writeFileSync(geometry, text.replace("export class Box {", "export class Crate {"));
    await syncThenCompare({ modified: 1 });
    writeFileSync(geometry, text);
    await syncThenCompare({ modified: 1 });
  });

  it("changing a class hierarchy re-resolves inherited calls", async () => {
    const order = at("typescript/src/models/order.ts");
    writeFileSync(
      order,
      readFileSync(order, "utf8").replace("export class Order extends Entity", "export class Order"),
    );
    await syncThenCompare({ modified: 1 });
  });

  it("several edits across languages at once", async () => {
    const goFile = at("go/store/helpers.go");
    writeFileSync(goFile, `${readFileSync(goFile, "utf8")}\nfunc Extra() int { return sumPrices(nil) }\n`);
    const javaDir = at("java/src/main/java/com/shop/model");
    writeFileSync(
      join(javaDir, "Coupon.java"),
      'package com.shop.model;\n\npublic class Coupon extends Entity {\n  public Coupon() { super("c"); }\n}\n',
    );
    rmSync(at("python/shop/services/pricing.py"));
    await syncThenCompare({ added: 1, modified: 1, removed: 1 });
  });

  it("a Rust file using its crate's macro and a type's members from other files, added by a sync", async () => {
    // A sync of a file or two reads the names it needs of a crate one by one; a full index indexes
    // every name of the crate at once. Both must reach the same declarations.
    cpSync(join(fixtures, "rust"), at("rust"), { recursive: true });
    await syncThenCompare({});
    writeFileSync(
      at("rust/core/src/audit.rs"),
      "use crate::model::Item;\n\npub fn audit(item: &Item) -> bool {\n    ensure!(item.cents > 0);\n    item.is_food()\n}\n",
    );
    appendFileSync(at("rust/core/src/lib.rs"), "pub mod audit;\n");
    await syncThenCompare({ added: 1, modified: 1 });
    const callees = await runJson<{ groups: { rows: { symbol: { qualifiedName: string; file: string } }[] }[] }>([
      "callees",
      "audit",
      "-p",
      project.dir,
    ]);
    const reached = callees.groups.flatMap((g) => g.rows.map((r) => `${r.symbol.file}:${r.symbol.qualifiedName}`));
    expect(reached).toEqual(
      expect.arrayContaining(["rust/core/src/macros.rs:ensure!", "rust/core/src/model.rs:Item.is_food"]),
    );
  });

  it("an Objective-C header comes, changes and goes, stored with nothing in it", async () => {
    const header = at("python/Bridge.h");
    writeFileSync(header, "#import <Foundation/Foundation.h>\n@interface Bridge : NSObject\n- (void)run;\n@end\n");
    await syncThenCompare({ added: 1 });
    appendFileSync(header, "@protocol Runner\n- (void)go;\n@end\n");
    await syncThenCompare({ modified: 1 });
    rmSync(header);
    await syncThenCompare({ removed: 1 });
  });

  it("Java files that come and go in a package imported with a wildcard, and in one nobody imports", async () => {
    // OrderService imports com.shop.model.*; the new file in com.shop.audit concerns no import.
    const model = at("java/src/main/java/com/shop/model");
    writeFileSync(
      join(model, "Voucher.java"),
      'package com.shop.model;\n\npublic class Voucher extends Entity {\n  public Voucher() { super("v"); }\n}\n',
    );
    mkdirSync(at("java/src/main/java/com/shop/audit"), { recursive: true });
    writeFileSync(
      at("java/src/main/java/com/shop/audit/Trail.java"),
      "package com.shop.audit;\n\npublic class Trail {\n  public int size() { return 0; }\n}\n",
    );
    await syncThenCompare({ added: 2 });
    rmSync(join(model, "Customer.java"));
    await syncThenCompare({ removed: 1 });
  });

  it("a Java class imported by name is renamed, and its file changes package", async () => {
    // Shelf imports com.shop.model.Item by name: it depends on Item.java, not on every file of the package.
    const shelf = "java/src/main/java/com/shop/service/Shelf.java";
    const item = at("java/src/main/java/com/shop/model/Item.java");
    const imported = () =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith(`${shelf}|`) && e.includes(" -imports@"))
        .map((e) => e.slice(e.indexOf("-> ") + 3, e.indexOf("|", e.indexOf("-> "))));
    expect(imported()).toEqual(["java/src/main/java/com/shop/model/Item.java"]);
    const text = readFileSync(item, "utf8");
    writeFileSync(item, text.replace(/\bItem\b/g, "Article"));
    await syncThenCompare({ modified: 1 });
    expect(imported()).toEqual([]);
    writeFileSync(item, text);
    await syncThenCompare({ modified: 1 });
    expect(imported()).toEqual(["java/src/main/java/com/shop/model/Item.java"]);
    writeFileSync(item, text.replace("package com.shop.model;", "package com.shop.util;"));
    await syncThenCompare({ modified: 1 });
    expect(imported()).toEqual([]);
    writeFileSync(item, text);
    await syncThenCompare({ modified: 1 });
    expect(imported()).toEqual(["java/src/main/java/com/shop/model/Item.java"]);
  });

  it("a Go constant moves between the files of its package, and an importer starts using more of it", async () => {
    // api/version.go uses store.Version alone: it depends on the file declaring it, not on all of store.
    const user = "go/api/version.go";
    const imported = () =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith(`${user}|`) && e.includes(" -imports@"))
        .map((e) => e.slice(e.indexOf("-> ") + 3, e.indexOf("|", e.indexOf("-> "))));
    expect(imported()).toEqual(["go/store/version.go"]);
    const version = at("go/store/version.go");
    const helpers = at("go/store/helpers.go");
    const [versionText, helpersText, userText] = [version, helpers, at(user)].map((p) => readFileSync(p, "utf8")) as [
      string,
      string,
      string,
    ];
    writeFileSync(version, "package store\n");
    writeFileSync(helpers, `${helpersText}\nconst Version = 3\n`);
    await syncThenCompare({ modified: 2 });
    expect(imported()).toEqual(["go/store/helpers.go"]);
    writeFileSync(at(user), `${userText}\nfunc Fresh() *store.Store { return store.NewStore() }\n`);
    await syncThenCompare({ modified: 1 });
    expect(imported()).toEqual(["go/store/helpers.go", "go/store/store.go"]);
    rmSync(helpers);
    await syncThenCompare({ removed: 1 });
    expect(imported()).toEqual(["go/store/store.go"]);
    for (const [p, text] of [
      [version, versionText],
      [helpers, helpersText],
      [at(user), userText],
    ] as const)
      writeFileSync(p, text);
    await syncThenCompare({ added: 1, modified: 2 });
    expect(imported()).toEqual(["go/store/version.go"]);
  });

  it("a C header included through another goes, comes back, and is no longer included", async () => {
    // main.c sees deep.h's macro only through mid.h: every change to that chain changes what it calls.
    mkdirSync(at("c"), { recursive: true });
    const deep = "#define shout loud_print\nint loud_print(const char *s);\n";
    const mid = '#include "deep.h"\n';
    writeFileSync(at("c/deep.h"), deep);
    writeFileSync(at("c/mid.h"), mid);
    writeFileSync(at("c/main.c"), '#include "mid.h"\n\nint main(void) { return shout("x"); }\n');
    const calls = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith("c/main.c|") && e.includes(" -calls@"));
    await syncThenCompare({ added: 3 });
    expect(calls().some((e) => e.includes("c/deep.h|shout"))).toBe(true);
    rmSync(at("c/deep.h"));
    await syncThenCompare({ removed: 1 });
    expect(calls().some((e) => e.includes("c/deep.h|"))).toBe(false);
    writeFileSync(at("c/deep.h"), deep);
    await syncThenCompare({ added: 1 });
    writeFileSync(at("c/mid.h"), "/* no includes */\n");
    await syncThenCompare({ modified: 1 });
    writeFileSync(at("c/mid.h"), mid);
    await syncThenCompare({ modified: 1 });
    expect(calls().some((e) => e.includes("c/deep.h|shout"))).toBe(true);
  });

  it("a C++ member alias names another base: calls through `Super::` in other files follow it", async () => {
    // views.cpp calls `Super::paint()`; what that reaches is written only in views.h's alias.
    mkdirSync(at("cppalias"), { recursive: true });
    const header = [
      "namespace ui {",
      "class Base { public: virtual void paint(); };",
      "class Other { public: virtual void paint(); };",
      "class View : public Base {",
      "  using Super = Base;",
      " public:",
      "  void paint() override;",
      "};",
      "}",
      "",
    ].join("\n");
    writeFileSync(at("cppalias/views.h"), header);
    writeFileSync(
      at("cppalias/views.cpp"),
      '#include "views.h"\nnamespace ui {\nvoid View::paint() { Super::paint(); }\n}\n',
    );
    const calls = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith("cppalias/views.cpp|") && e.includes(" -calls@"));
    await syncThenCompare({ added: 2 });
    expect(calls().some((e) => e.includes("ui.Base.paint"))).toBe(true);
    writeFileSync(at("cppalias/views.h"), header.replace("using Super = Base;", "using Super = Other;"));
    await syncThenCompare({ modified: 1 });
    expect(calls().some((e) => e.includes("ui.Other.paint"))).toBe(true);
  });

  it("a C++ alias used as a value's type names another class: calls on such values follow it", async () => {
    // use.cpp calls `p.paint()` on a `Panel` and `h.panel.paint()` through a field typed `Panel`;
    // what either reaches is written only in types.h's alias.
    mkdirSync(at("cppvalues"), { recursive: true });
    const header = [
      "namespace ui {",
      "class Base { public: void paint(); };",
      "class Other { public: void paint(); };",
      "typedef Base Panel;",
      "struct Holder { Panel panel; };",
      "}",
      "",
    ].join("\n");
    writeFileSync(at("cppvalues/types.h"), header);
    writeFileSync(
      at("cppvalues/use.cpp"),
      '#include "types.h"\nnamespace ui {\nvoid use(Panel p, Holder h) { p.paint(); h.panel.paint(); }\n}\n',
    );
    const calls = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith("cppvalues/use.cpp|") && e.includes(" -calls@"));
    await syncThenCompare({ added: 2 });
    expect(calls().filter((e) => e.includes("ui.Base.paint"))).toHaveLength(2);
    writeFileSync(at("cppvalues/types.h"), header.replace("typedef Base Panel;", "using Panel = Other;"));
    await syncThenCompare({ modified: 1 });
    expect(calls().filter((e) => e.includes("ui.Other.paint"))).toHaveLength(2);
  });

  it("a Python class in the middle of a hierarchy goes, then comes back", async () => {
    // ArrayField overrides what Field inherits from Mixin: without Field, it overrides nothing. It
    // imports Field through its package, whose import stays put while field.py goes and comes.
    mkdirSync(at("inherit/models"), { recursive: true });
    writeFileSync(at("inherit/__init__.py"), "");
    writeFileSync(at("inherit/base.py"), "class Mixin:\n    def get_transform(self, name):\n        return name\n");
    writeFileSync(at("inherit/models/__init__.py"), "from .field import Field\n");
    const field = "from ..base import Mixin\n\n\nclass Field(Mixin):\n    pass\n";
    writeFileSync(at("inherit/models/field.py"), field);
    writeFileSync(
      at("inherit/array.py"),
      "from .models import Field\n\n\nclass ArrayField(Field):\n    def get_transform(self, name):\n        return name\n",
    );
    const overrides = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith("inherit/array.py|") && e.includes(" -overrides@"));
    await syncThenCompare({ added: 5 });
    expect(overrides()).toHaveLength(1);
    rmSync(at("inherit/models/field.py"));
    await syncThenCompare({ removed: 1 });
    expect(overrides()).toHaveLength(0);
    writeFileSync(at("inherit/models/field.py"), field);
    await syncThenCompare({ added: 1 });
    expect(overrides()).toHaveLength(1);
  });

  it("a Python __init__.py that comes makes its folder a package, no source root for `import ticktock`", async () => {
    // `import ticktock` finds `timing/ticktock.py` by its suffix while `timing/` is no package; once
    // `timing/__init__.py` exists, that folder is not on the path, and the import is the library's.
    mkdirSync(at("timing"), { recursive: true });
    writeFileSync(at("timing/ticktock.py"), "def tick():\n    return 1\n");
    writeFileSync(at("ticker.py"), "import ticktock\n\n\ndef run():\n    return ticktock.tick()\n");
    const imports = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith("ticker.py|") && e.includes("timing/ticktock.py|"));
    await syncThenCompare({ added: 2 });
    expect(imports().length).toBeGreaterThan(0);
    writeFileSync(at("timing/__init__.py"), "");
    await syncThenCompare({ added: 1 });
    expect(imports()).toHaveLength(0);
    rmSync(at("timing/__init__.py"));
    await syncThenCompare({ removed: 1 });
    expect(imports().length).toBeGreaterThan(0);
  });
});

describe("a sync that finds most files changed indexes from scratch", () => {
  let repo: { dir: string; cleanup: () => void };
  const files = 150;
  const write = (i: number, note: string) => {
    const next = (i + 1) % files;
    writeFileSync(
      join(repo.dir, `chain/step${i}.py`),
      `from chain.step${next} import Step${next}\n\n\nclass Step${i}:\n    def run(self):\n        # ${note}\n        return Step${next}().run()\n`,
    );
  };

  beforeAll(async () => {
    repo = tempRepo();
    mkdirSync(join(repo.dir, "chain"));
    writeFileSync(join(repo.dir, "chain/__init__.py"), "");
    for (let i = 0; i < files; i++) write(i, "first");
    await runJson(["init", repo.dir]);
  });
  afterAll(() => repo.cleanup());

  it("at least half of the files and at least 100: a full index, which equals init --force", async () => {
    for (let i = 0; i < 100; i++) write(i, "second");
    const synced = await runJson<Summary & { rebuilt?: string }>(["sync", repo.dir]);
    expect([synced.added, synced.modified, synced.removed]).toEqual([0, 100, 0]);
    expect(synced.rebuilt).toBe("100 files changed, added or removed, of 151 indexed: a full index is faster");
    const afterSync = graphSnapshot(repo.dir);
    await runJson(["init", "--force", repo.dir]);
    expect(afterSync).toEqual(graphSnapshot(repo.dir));
    expect(afterSync.edges.filter((e) => e.startsWith("chain/step7.py|Step7.run|method -calls"))).toEqual([
      expect.stringContaining("-> chain/step8.py|Step8.run|method"),
    ]);
  });

  it("fewer than 100 files, or fewer than half: an incremental sync", async () => {
    for (let i = 0; i < 99; i++) write(i, "third");
    const synced = await runJson<Summary & { rebuilt?: string }>(["sync", repo.dir]);
    expect(synced.modified).toBe(99);
    expect(synced.rebuilt).toBeUndefined();
  });

  it("files saved again with the same bytes are no change, however many; the same size with other bytes is one", async () => {
    // A checkout and back, a save with no edit: every file has a new mtime and the bytes it had.
    const later = new Date(Date.now() + 60_000);
    for (let i = 0; i < files; i++) utimesSync(join(repo.dir, `chain/step${i}.py`), later, later);
    const touched = await runJson<Summary & { rebuilt?: string }>(["sync", repo.dir]);
    expect([touched.added, touched.modified, touched.removed, touched.rebuilt]).toEqual([0, 0, 0, undefined]);
    // "fifth" is as long as "third": only the bytes tell these apart.
    for (let i = 0; i < 3; i++) write(i, "fifth");
    const edited = await runJson<Summary & { rebuilt?: string }>(["sync", repo.dir]);
    expect([edited.modified, edited.rebuilt]).toEqual([3, undefined]);
    expect(readFileSync(join(repo.dir, "chain/step0.py"), "utf8")).toContain("# fifth");
    const afterSync = graphSnapshot(repo.dir);
    await runJson(["init", "--force", repo.dir]);
    expect(afterSync).toEqual(graphSnapshot(repo.dir));
  });
});
