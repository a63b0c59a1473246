import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphSnapshot } from "../helpers/graph-snapshot.js";
import { run, runJson } from "../helpers/cli.js";
import { fixtures, settleTree, syncedProject } from "../helpers/sync-compare.js";
import { WORKERS_FROM_BYTES } from "../../src/indexer/pool.js";

/** The incremental promise, continued (see sync-equals-init.test.ts): hierarchies, bound methods, Go interfaces, and more. */

describe("sync equals init --force, continued", () => {
  const project = syncedProject();
  const { at, syncThenCompare } = project;
  // Where members live apart from their type (Go methods, Rust impls, Ruby's reopened classes) or
  // extensions reach a receiver through its ancestors (Kotlin, Swift, C#), a type in the middle of a
  // hierarchy that goes takes its ancestors' methods and extensions from a file that only names a
  // type below it, and brings them back when it comes.
  const middles: { language: string; files: Record<string, string>; middle: string; use: string; calls: number }[] = [
    {
      language: "go",
      files: {
        "go.mod": "module example.com/h\n\ngo 1.22\n",
        "base.go": "package h\n\ntype Base struct{}\n\nfunc (b *Base) Hello() {}\n",
        "mid.go": "package h\n\ntype Mid struct {\n\tBase\n}\n",
        "leaf.go": "package h\n\ntype Leaf struct {\n\tMid\n}\n",
        "use.go": "package h\n\nfunc use(l *Leaf) {\n\tl.Hello()\n}\n",
      },
      middle: "mid.go",
      use: "use.go",
      calls: 1,
    },
    {
      language: "rust",
      files: {
        "Cargo.toml": '[package]\nname = "h"\nversion = "0.1.0"\n',
        "src/lib.rs": "mod base;\nmod mid;\nmod leaf;\nmod usage;\n",
        "src/base.rs": "pub trait Base {\n    fn hello(&self) {}\n}\n",
        "src/mid.rs": "use crate::base::Base;\npub trait Mid: Base {}\n",
        "src/leaf.rs": "use crate::mid::Mid;\npub struct Leaf;\nimpl Mid for Leaf {}\n",
        "src/usage.rs": "use crate::leaf::Leaf;\npub fn run(l: &Leaf) {\n    l.hello();\n}\n",
      },
      middle: "src/mid.rs",
      use: "src/usage.rs",
      calls: 1,
    },
    {
      language: "ruby",
      files: {
        "base.rb": "class Base\n  def hello\n  end\nend\n",
        "mid.rb": "class Mid < Base\nend\n",
        "leaf.rb": "class Leaf < Mid\nend\n",
        "user.rb": "class User\n  def run\n    Leaf.new.hello\n  end\nend\n",
      },
      middle: "mid.rb",
      use: "user.rb",
      calls: 1,
    },
    {
      language: "kotlin",
      files: {
        "Base.kt": "package h\n\nopen class Base {\n  fun hello() {}\n}\n\nfun Base.greet() {}\n",
        "Mid.kt": "package h\n\nopen class Mid : Base()\n",
        "Leaf.kt": "package h\n\nclass Leaf : Mid()\n",
        "Use.kt": "package h\n\nfun use(l: Leaf) {\n  l.hello()\n  l.greet()\n}\n",
      },
      middle: "Mid.kt",
      use: "Use.kt",
      calls: 2,
    },
    {
      language: "swift",
      files: {
        "Base.swift": "class Base {\n  func hello() {}\n}\n\nextension Base {\n  func greet() {}\n}\n",
        "Mid.swift": "class Mid: Base {}\n",
        "Leaf.swift": "class Leaf: Mid {}\n",
        "Use.swift": "func use(l: Leaf) {\n  l.hello()\n  l.greet()\n}\n",
      },
      middle: "Mid.swift",
      use: "Use.swift",
      calls: 2,
    },
    {
      language: "csharp",
      files: {
        "Base.cs":
          "namespace H {\n  public class Base {\n    public void Hello() {}\n  }\n" +
          "  public static class Ext {\n    public static void Greet(this Base b) {}\n  }\n}\n",
        "Mid.cs": "namespace H {\n  public class Mid : Base {}\n}\n",
        "Leaf.cs": "namespace H {\n  public class Leaf : Mid {}\n}\n",
        "Use.cs":
          "namespace H {\n  public class User {\n    public void Run(Leaf l) { l.Hello(); l.Greet(); }\n  }\n}\n",
      },
      middle: "Mid.cs",
      use: "Use.cs",
      calls: 2,
    },
  ];
  /** Writes `c.files` under `dir`, then removes `c.middle` and restores it: the calls from `c.use` go and come back. */
  async function goesAndComesBack(dir: string, c: (typeof middles)[number]) {
    for (const [path, text] of Object.entries(c.files)) {
      mkdirSync(join(at(dir), path, ".."), { recursive: true });
      writeFileSync(join(at(dir), path), text);
    }
    const calls = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.startsWith(`${dir}/${c.use}|`) && e.includes(" -calls@"));
    await syncThenCompare({ added: Object.keys(c.files).filter((p) => !/\.(mod|toml)$/.test(p)).length });
    expect(calls()).toHaveLength(c.calls);
    rmSync(join(at(dir), c.middle));
    await syncThenCompare({ removed: 1 });
    expect(calls()).toHaveLength(0);
    writeFileSync(join(at(dir), c.middle), c.files[c.middle]!);
    await syncThenCompare({ added: 1 });
    expect(calls()).toHaveLength(c.calls);
  }
  it.each(middles)("a type in the middle of a hierarchy goes, then comes back ($language)", (c) =>
    goesAndComesBack(`hierarchy-${c.language}`, c),
  );

  // C#: `class P : P<string>` is another type than `P<T>`, no part of it: its `base(..)` and its
  // `Resolve("x")` reach P<T>'s constructor and `Resolve(T)`, which go with P<T>'s file and come back.
  it("a C# generic class goes and comes back beside the class of its name deriving from it", () =>
    goesAndComesBack("same-name-csharp", {
      language: "csharp",
      files: {
        "P.cs":
          "namespace G {\n  public class P<T> {\n    public P(int a) {}\n    public void Resolve(T v) {}\n  }\n}\n",
        "PVoid.cs":
          "namespace G {\n  public class P : P<string> {\n    public P(int a) : base(a) {}\n" +
          '    public void Resolve() { Resolve("x"); }\n  }\n}\n',
      },
      middle: "P.cs",
      use: "PVoid.cs",
      calls: 2,
    }));

  // A bare call of a local bound to a method (`f := s.incr; f()`) calls that method: when the method's
  // file goes, the call goes with it, and comes back with it.
  const boundMethods: typeof middles = [
    {
      language: "go",
      files: {
        "go.mod": "module example.com/b\n\ngo 1.22\n",
        "counter.go": "package b\n\ntype Counter struct{ n int }\n",
        "incr.go": "package b\n\nfunc (c *Counter) incr() { c.n++ }\n",
        "use.go": "package b\n\nfunc run(c *Counter) {\n\tf := c.incr\n\tf()\n}\n",
      },
      middle: "incr.go",
      use: "use.go",
      calls: 1,
    },
    {
      language: "python",
      files: {
        "acc.py": "class Acc:\n    def push(self, x):\n        pass\n",
        "use.py": "from acc import Acc\n\ndef run(acc: Acc):\n    push = acc.push\n    push(1)\n",
      },
      middle: "acc.py",
      use: "use.py",
      calls: 1,
    },
  ];
  it.each(boundMethods)("the method a local is bound to goes, then comes back ($language)", (c) =>
    goesAndComesBack(`bound-${c.language}`, c),
  );

  // What a function returns in each position of a tuple types its callers' locals in other files:
  // changing a later position's type changes what the local it types reaches, and back.
  const tuples = [
    {
      language: "rust",
      files: {
        "Cargo.toml": '[package]\nname = "tup"\nversion = "0.1.0"\n',
        "src/lib.rs": "mod chan;\nmod user;\n",
        "src/chan.rs":
          "pub struct Tx;\npub struct Rx;\nimpl Tx {\n    pub fn send(&self) {}\n}\nimpl Rx {\n    pub fn recv(&self) {}\n}\n" +
          "pub fn pair() -> (Tx, Rx) {\n    (Tx, Rx)\n}\n",
        "src/user.rs":
          "use crate::chan;\n\npub fn run() {\n    let (tx, rx) = chan::pair();\n    tx.send();\n    rx.recv();\n}\n",
      },
      changed: "src/chan.rs",
      swap: ["(Tx, Rx)", "(Tx, Tx)"],
      use: "src/user.rs",
    },
    {
      language: "go",
      files: {
        "go.mod": "module example.com/t\n\ngo 1.22\n",
        "chan.go":
          "package t\n\ntype Tx struct{}\ntype Rx struct{}\n\nfunc (t *Tx) send() {}\nfunc (r *Rx) recv() {}\n\n" +
          "func pair() (*Tx, *Rx) { return nil, nil }\n",
        "user.go": "package t\n\nfunc run() {\n\ttx, rx := pair()\n\ttx.send()\n\trx.recv()\n}\n",
      },
      changed: "chan.go",
      swap: ["(*Tx, *Rx)", "(*Tx, *Tx)"],
      use: "user.go",
    },
  ];
  // Nine syncs, each checked against a fresh index: 13 s alone, 20-30 s beside the rest of the suite.
  it("a Go type comes to implement an interface, by a method or an embedded field, and stops", async () => {
    const dir = "iface-go";
    const write = (path: string, text: string) => {
      mkdirSync(join(at(dir), path, ".."), { recursive: true });
      writeFileSync(join(at(dir), path), text);
    };
    write("go.mod", "module example.com/i\n\ngo 1.22\n");
    write("shape.go", "package i\n\ntype Shape interface {\n\tArea() int\n\tSide() int\n}\n");
    write("square.go", "package i\n\ntype Square struct{}\n\nfunc (s *Square) Area() int { return 1 }\n");
    write("use.go", "package i\n\nfunc total(s Shape) int { return s.Area() }\n");
    write("other/tile.go", "package other\n\ntype Tile struct{}\n\nfunc (Tile) Area() int { return 1 }\n");
    /** The derived edges, as `implements Square -> Shape`, sorted. */
    const derived = () =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith(`${dir}/`) && e.endsWith("(structural)"))
        .map((e) => {
          const m = /^[^|]+\|([^|]+)\|\w+ -(\w+)@\d*-> [^|]+\|([^|]+)\|/.exec(e)!;
          return `${m[2]} ${m[1]} -> ${m[3]}`;
        })
        .sort();
    await syncThenCompare({ added: 4 });
    expect(derived()).toEqual([]);
    // A method in another file of the package completes Square's method set.
    write("square_side.go", "package i\n\nfunc (s *Square) Side() int { return 1 }\n");
    await syncThenCompare({ added: 1 });
    expect(derived()).toEqual([
      "implements Square -> Shape",
      "overrides Square.Area -> Shape.Area",
      "overrides Square.Side -> Shape.Side",
    ]);
    // An edit that moves Square's declarations down, and changes none: their edges stay, moved.
    write(
      "square.go",
      "package i\n\n// Square.\n// A unit.\ntype Square struct{}\n\nfunc (s *Square) Area() int { return 2 }\n",
    );
    await syncThenCompare({ modified: 1 });
    expect(derived()).toHaveLength(3);
    // A method no interface asks for, in a file of its own, then beside Square's: nothing derived changes.
    write("square_helper.go", "package i\n\nfunc (s *Square) Helper() int { return 3 }\n");
    await syncThenCompare({ added: 1 });
    write("square_helper.go", "package i\n\nfunc (s *Square) Helper(n int) int { return n }\n");
    await syncThenCompare({ modified: 1 });
    expect(derived()).toHaveLength(3);
    // A type in another package embedding one with the rest of the methods implements it too.
    write("other/tile.go", 'package other\n\nimport "example.com/i"\n\ntype Tile struct {\n\ti.Square\n}\n');
    await syncThenCompare({ modified: 1 });
    expect(derived()).toContain("implements Tile -> Shape");
    // The interface asks for one more method: nothing implements it.
    write("shape.go", "package i\n\ntype Shape interface {\n\tArea() int\n\tSide() int\n\tName() string\n}\n");
    await syncThenCompare({ modified: 1 });
    expect(derived()).toEqual([]);
    // It asks for less again; then the file completing Square goes.
    write("shape.go", "package i\n\ntype Shape interface {\n\tArea() int\n\tSide() int\n}\n");
    await syncThenCompare({ modified: 1 });
    expect(derived()).toHaveLength(4);
    rmSync(join(at(dir), "square_side.go"));
    await syncThenCompare({ removed: 1 });
    expect(derived()).toEqual([]);
  }, 90_000);

  it.each(tuples)("a later result of a function changes type, then changes back ($language)", async (c) => {
    const dir = `tuple-${c.language}`;
    for (const [path, text] of Object.entries(c.files)) {
      mkdirSync(join(at(dir), path, ".."), { recursive: true });
      writeFileSync(join(at(dir), path), text);
    }
    const methodCalls = () =>
      graphSnapshot(project.dir).edges.filter(
        (e) => e.startsWith(`${dir}/${c.use}|`) && e.includes(" -calls@") && !e.includes("pair"),
      );
    await syncThenCompare({ added: Object.keys(c.files).filter((p) => !/\.(mod|toml)$/.test(p)).length });
    expect(methodCalls()).toHaveLength(2);
    const original = c.files[c.changed as keyof typeof c.files]!;
    writeFileSync(join(at(dir), c.changed), original.replace(c.swap[0]!, c.swap[1]!));
    await syncThenCompare({ modified: 1 });
    expect(methodCalls()).toHaveLength(1);
    writeFileSync(join(at(dir), c.changed), original);
    await syncThenCompare({ modified: 1 });
    expect(methodCalls()).toHaveLength(2);
  });

  // Go reaches a field after a dot only: a field that changes type moves `s.buf`'s readers in its own
  // package, while a variable of its name in another package (`buf := &Bytes{}`) stays; the struct's
  // file going and coming back takes both readers through the field with it.
  it("a Go field changes type, its file goes and comes back, beside a variable of its name", async () => {
    const dir = "fields-go";
    const scan =
      "package scan\n\ntype Buf struct{}\n\nfunc (b *Buf) Len() int { return 0 }\n\n" +
      "type Alt struct{}\n\nfunc (a *Alt) Len() int { return 0 }\n\n" +
      "type Scanner struct {\n\tbuf *Buf\n}\n\nfunc (s *Scanner) Buffer() *Buf { return s.buf }\n\n" +
      "func New() *Scanner { return &Scanner{} }\n";
    const files = {
      "go.mod": "module example.com/f\n\ngo 1.22\n",
      "scan/scan.go": scan,
      "scan/use.go": "package scan\n\nfunc size(s *Scanner) int {\n\tb := s.buf\n\treturn b.Len()\n}\n",
      "other/other.go":
        'package other\n\nimport "example.com/f/scan"\n\ntype Bytes struct{}\n\nfunc (b *Bytes) Len() int { return 0 }\n\n' +
        "func use() int {\n\tbuf := &Bytes{}\n\ts := scan.New()\n\treturn buf.Len() + s.Buffer().Len()\n}\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(at(dir), path, ".."), { recursive: true });
      writeFileSync(join(at(dir), path), text);
    }
    const callsFrom = (path: string) =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith(`${dir}/${path}|`) && e.includes(" -calls@"))
        .map((e) => e.slice(e.indexOf("-> ")));
    await syncThenCompare({ added: 3 });
    expect(callsFrom("scan/use.go")).toEqual([expect.stringContaining("|Buf.Len|")]);
    expect(callsFrom("other/other.go")).toEqual(
      expect.arrayContaining([expect.stringContaining("|Bytes.Len|"), expect.stringContaining("|Buf.Len|")]),
    );
    writeFileSync(join(at(dir), "scan/scan.go"), scan.replace("buf *Buf\n", "buf *Alt\n"));
    await syncThenCompare({ modified: 1 });
    expect(callsFrom("scan/use.go")).toEqual([expect.stringContaining("|Alt.Len|")]);
    writeFileSync(join(at(dir), "scan/scan.go"), scan);
    await syncThenCompare({ modified: 1 });
    expect(callsFrom("scan/use.go")).toEqual([expect.stringContaining("|Buf.Len|")]);
    rmSync(join(at(dir), "scan/scan.go"));
    await syncThenCompare({ removed: 1 });
    expect(callsFrom("scan/use.go")).toEqual([]);
    expect(callsFrom("other/other.go")).toEqual([expect.stringContaining("|Bytes.Len|")]);
    writeFileSync(join(at(dir), "scan/scan.go"), scan);
    await syncThenCompare({ added: 1 });
    expect(callsFrom("scan/use.go")).toEqual([expect.stringContaining("|Buf.Len|")]);
  });

  // A Go struct embedding another type than before changes what its promoted methods are, by name:
  // the call through it in an unchanged file moves with the embedding, without every reference of
  // the project resolving again.
  it("a Go struct embeds another type, then the first again", async () => {
    const dir = "embed-go";
    const files = {
      "go.mod": "module example.com/e\n\ngo 1.22\n",
      "a.go":
        "package e\n\ntype Base struct{}\n\nfunc (b *Base) Hello() int { return 1 }\n\n" +
        "type Other struct{}\n\nfunc (o *Other) Hello() int { return 2 }\n",
      "w.go": "package e\n\ntype W struct {\n\t*Base\n}\n",
      "use.go": "package e\n\nfunc use(w *W) int {\n\treturn w.Hello()\n}\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(at(dir), path, ".."), { recursive: true });
      writeFileSync(join(at(dir), path), text);
    }
    const hello = () =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith(`${dir}/use.go|`) && e.includes(" -calls@"))
        .map((e) => e.slice(e.indexOf("-> ")));
    await syncThenCompare({ added: 3 });
    expect(hello()).toEqual([expect.stringContaining("|Base.Hello|")]);
    writeFileSync(join(at(dir), "w.go"), files["w.go"].replace("*Base", "*Other"));
    await syncThenCompare({ modified: 1 });
    expect(hello()).toEqual([expect.stringContaining("|Other.Hello|")]);
    writeFileSync(join(at(dir), "w.go"), files["w.go"]);
    await syncThenCompare({ modified: 1 });
    expect(hello()).toEqual([expect.stringContaining("|Base.Hello|")]);
  });

  it("a Rust module file goes and comes back: its child modules leave its crate, then rejoin it", async () => {
    // poll.rs finds its crate, and so the crate's macro, through future/mod.rs; without it, it is a
    // crate of its own.
    const dir = at("orphan");
    mkdirSync(join(dir, "src/future"), { recursive: true });
    writeFileSync(join(dir, "Cargo.toml"), '[package]\nname = "orphan"\nversion = "0.1.0"\n');
    writeFileSync(join(dir, "src/lib.rs"), "mod macros;\nmod future;\n");
    writeFileSync(join(dir, "src/macros.rs"), "macro_rules! ready {\n    ($e:expr) => {\n        $e\n    };\n}\n");
    writeFileSync(join(dir, "src/future/mod.rs"), "mod poll;\n");
    writeFileSync(join(dir, "src/future/poll.rs"), "pub fn f() -> i32 {\n    ready!(1)\n}\n");
    const calls = () =>
      graphSnapshot(project.dir).edges.filter(
        (e) => e.startsWith("orphan/src/future/poll.rs|") && e.includes(" -calls@"),
      );
    await syncThenCompare({ added: 4 });
    expect(calls()).toHaveLength(1);
    rmSync(join(dir, "src/future/mod.rs"));
    await syncThenCompare({ removed: 1 });
    expect(calls()).toHaveLength(0);
    writeFileSync(join(dir, "src/future/mod.rs"), "mod poll;\n");
    await syncThenCompare({ added: 1 });
    expect(calls()).toHaveLength(1);
  });

  it("a Java interface at the top of a hierarchy goes: nested classes below it may inherit any name", async () => {
    // Inner reaches Impl's Helper by its bare name only while every base of Inner is known: a base from
    // outside the project (Base, once its file is gone) might declare a Helper of its own.
    const dir = at("java/src/main/java/com/shop/deep");
    mkdirSync(dir, { recursive: true });
    const base = "package com.shop.deep;\n\npublic interface Base {}\n";
    writeFileSync(join(dir, "Base.java"), base);
    writeFileSync(join(dir, "Mid.java"), "package com.shop.deep;\n\npublic interface Mid extends Base {}\n");
    writeFileSync(
      join(dir, "Impl.java"),
      "package com.shop.deep;\n\npublic class Impl {\n  static class Helper {}\n\n" +
        "  static class Inner implements Mid {\n    Helper make() {\n      return new Helper();\n    }\n  }\n}\n",
    );
    const made = () =>
      graphSnapshot(project.dir).edges.filter((e) => e.includes("deep/Impl.java|") && e.includes(" -instantiates@"));
    await syncThenCompare({ added: 3 });
    expect(made()).toHaveLength(1);
    rmSync(join(dir, "Base.java"));
    await syncThenCompare({ removed: 1 });
    expect(made()).toHaveLength(0);
    writeFileSync(join(dir, "Base.java"), base);
    await syncThenCompare({ added: 1 });
    expect(made()).toHaveLength(1);
  });

  it("a Python module an import was waiting for comes, then goes", async () => {
    writeFileSync(
      at("python/shop/uses_extras.py"),
      "from shop.extras import bonus\n\n\ndef run():\n    return bonus()\n",
    );
    await syncThenCompare({ added: 1 });
    writeFileSync(at("python/shop/extras.py"), "def bonus():\n    return 1\n");
    await syncThenCompare({ added: 1 });
    const calls = graphSnapshot(project.dir).edges.filter((e) => e.startsWith("python/shop/uses_extras.py|run|"));
    expect(calls.some((e) => e.includes("-> python/shop/extras.py|bonus|"))).toBe(true);
    rmSync(at("python/shop/extras.py"));
    await syncThenCompare({ removed: 1 });
  });

  it("a PHP class other files use goes, then comes back", async () => {
    cpSync(join(fixtures, "php"), at("php"), { recursive: true });
    await syncThenCompare({});
    const customer = at("php/src/Model/Customer.php");
    const text = readFileSync(customer, "utf8");
    rmSync(customer);
    await syncThenCompare({ removed: 1 });
    writeFileSync(customer, text);
    await syncThenCompare({ added: 1 });
  });

  it("class hierarchies changed in Python and Java files", async () => {
    // Re-resolved through the names the old and new ancestors declare, not every reference.
    const models = at("python/shop/models.py");
    writeFileSync(models, readFileSync(models, "utf8").replace("class Order(Model):", "class Order:"));
    await syncThenCompare({ modified: 1 });
    writeFileSync(models, readFileSync(models, "utf8").replace("class Order:", "class Order(Product):"));
    await syncThenCompare({ modified: 1 });
    const entity = at("java/src/main/java/com/shop/model/Entity.java");
    writeFileSync(entity, readFileSync(entity, "utf8").replace(" implements Describable", ""));
    const express = at("java/src/main/java/com/shop/service/ExpressOrderService.java");
    writeFileSync(express, readFileSync(express, "utf8").replace(" extends OrderService", ""));
    await syncThenCompare({ modified: 2 });
  });

  it("a barrel that re-exports another base re-resolves calls through a subclass in an unchanged file", async () => {
    // Mid's file does not change, nor does use.ts: only what `Base` in lib/index.ts is.
    mkdirSync(at("rebase/lib"), { recursive: true });
    mkdirSync(at("rebase/app"), { recursive: true });
    writeFileSync(at("rebase/lib/index.ts"), 'export { Base } from "./core";\n');
    writeFileSync(at("rebase/lib/core.ts"), "export class Base { hello() { return 1; } }\n");
    writeFileSync(at("rebase/lib/other.ts"), "export class Base { hello() { return 2; } }\n");
    writeFileSync(at("rebase/app/mid.ts"), 'import { Base } from "../lib/index";\nexport class Mid extends Base {}\n');
    writeFileSync(
      at("rebase/app/use.ts"),
      'import { Mid } from "./mid";\nexport function use(m: Mid) { return m.hello(); }\n',
    );
    await syncThenCompare({ added: 5 });
    writeFileSync(at("rebase/lib/index.ts"), 'export { Base } from "./other";\n');
    await syncThenCompare({ modified: 1 });
    const callees = await runJson<{ groups: { rows: { symbol: { file: string } }[] }[] }>([
      "callees",
      "use",
      "--file",
      "rebase/app/use.ts",
      "-p",
      project.dir,
    ]);
    expect(callees.groups[0]?.rows.map((r) => r.symbol.file)).toEqual(["rebase/lib/other.ts"]);
    // Mid's own file loses the import of its base: `extends Base` reads the same, and reaches nothing.
    writeFileSync(at("rebase/app/mid.ts"), "export class Mid extends Base {}\n");
    await syncThenCompare({ modified: 1 });
    // And a Python package that stops re-exporting a subclass's base.
    mkdirSync(at("rebase_py/lib"), { recursive: true });
    mkdirSync(at("rebase_py/app"), { recursive: true });
    writeFileSync(at("rebase_py/lib/__init__.py"), "from .core import Base as Base\n");
    writeFileSync(at("rebase_py/lib/core.py"), "class Base:\n    def hello(self):\n        return 1\n");
    writeFileSync(at("rebase_py/app/__init__.py"), "");
    writeFileSync(at("rebase_py/app/mid.py"), "import lib\n\nclass Mid(lib.Base):\n    pass\n");
    writeFileSync(at("rebase_py/app/use.py"), "from app.mid import Mid\n\ndef use(m: Mid):\n    return m.hello()\n");
    await syncThenCompare({ added: 5 });
    writeFileSync(at("rebase_py/lib/__init__.py"), "");
    await syncThenCompare({ modified: 1 });
  });

  it("a PHP class imported with `use` is renamed: the import no longer reaches its file", async () => {
    mkdirSync(at("php_use/src/A"), { recursive: true });
    mkdirSync(at("php_use/src/B"), { recursive: true });
    writeFileSync(at("php_use/src/A/Foo.php"), "<?php\nnamespace App\\A;\n\nclass Foo {\n}\n");
    writeFileSync(at("php_use/src/B/Bar.php"), "<?php\nnamespace App\\B;\n\nuse App\\A\\Foo;\n\nclass Bar {\n}\n");
    await syncThenCompare({ added: 2 });
    writeFileSync(at("php_use/src/A/Foo.php"), "<?php\nnamespace App\\A;\n\nclass Foo2 {\n}\n");
    await syncThenCompare({ modified: 1 });
    writeFileSync(at("php_use/src/A/Foo.php"), "<?php\nnamespace App\\A;\n\nclass Foo {\n}\n");
    await syncThenCompare({ modified: 1 });
  });

  it("a Python function returning a local: a change of what the local holds re-resolves its callers elsewhere", async () => {
    writeFileSync(
      at("python/shop/made.py"),
      "from shop.db import Repo\nfrom shop.models import QuerySet\n\n\ndef make():\n    c = Repo()\n    return c\n",
    );
    writeFileSync(
      at("python/shop/uses_made.py"),
      "from shop.made import make\n\n\ndef use():\n    return make().count()\n",
    );
    await syncThenCompare({ added: 2 });
    const reaches = () =>
      graphSnapshot(project.dir).edges.filter(
        (e) => e.startsWith("python/shop/uses_made.py|use|function -calls") && e.includes("QuerySet.count"),
      );
    expect(reaches()).toHaveLength(0);
    // Only the local changes: the function, its return (`c`) and its callers' file stay as they were.
    writeFileSync(
      at("python/shop/made.py"),
      "from shop.db import Repo\nfrom shop.models import QuerySet\n\n\ndef make():\n    c = QuerySet()\n    return c\n",
    );
    await syncThenCompare({ modified: 1 });
    expect(reaches()).toHaveLength(1);
  });

  it("a value typed by a call whose callee's return type another import now names: its users elsewhere follow", async () => {
    const box = (from: string) => `class Box:\n    def open(self):\n        pass\n`.replace("pass", `return "${from}"`);
    writeFileSync(at("python/shop/held_a.py"), box("a"));
    writeFileSync(at("python/shop/held_b.py"), box("b"));
    writeFileSync(at("python/shop/held_box.py"), "from shop.held_a import Box\n");
    writeFileSync(
      at("python/shop/held_make.py"),
      "from shop.held_box import Box\n\n\ndef make() -> Box:\n    return Box()\n",
    );
    // `held` is typed by the call `held_make.make()`, which reaches the same function throughout.
    writeFileSync(at("python/shop/held_value.py"), "from shop import held_make\n\nheld = held_make.make()\n");
    writeFileSync(
      at("python/shop/held_use.py"),
      "from shop.held_value import held\n\n\ndef use():\n    return held.open()\n",
    );
    await syncThenCompare({ added: 6 });
    const opens = () =>
      graphSnapshot(project.dir)
        .edges.filter((e) => e.startsWith("python/shop/held_use.py|use|function -calls"))
        .map((e) => e.split("-> ")[1]);
    expect(opens()).toEqual(["python/shop/held_a.py|Box.open|method (typed)"]);
    // Only the import in held_box.py changes: `make` returns the other Box now.
    writeFileSync(at("python/shop/held_box.py"), "from shop.held_b import Box\n");
    await syncThenCompare({ modified: 1 });
    expect(opens()).toEqual(["python/shop/held_b.py|Box.open|method (typed)"]);
  });

  it("a change big enough for parse workers", async () => {
    // From WORKERS_FROM_BYTES of source on, files are parsed on worker threads, by the sync that adds
    // them and by init.
    const before = await runJson<{ edges: number }>(["status", "-p", project.dir]);
    mkdirSync(at("python/chain"), { recursive: true });
    writeFileSync(at("python/chain/__init__.py"), "");
    const count = 60;
    const padding = `# ${"x".repeat(WORKERS_FROM_BYTES / 50)}\n`;
    for (let i = 0; i < count; i++) {
      const next = (i + 1) % count;
      writeFileSync(
        at(`python/chain/step${i}.py`),
        `${padding}from chain.step${next} import Step${next}\n\n\nclass Step${i}:\n    def run(self):\n        following = Step${next}()\n        return following.run()\n`,
      );
    }
    const synced = await syncThenCompare({ added: count + 1 });
    const snapshot = graphSnapshot(project.dir);
    const calls = snapshot.edges.filter((e) => e.startsWith("python/chain/step7.py|Step7.run|method -calls"));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain("-> python/chain/step8.py|Step8.run|method");
    // Per step: contains ×3 (import, class, method), imports, instantiates, calls.
    expect(synced.edges - before.edges).toBe(count * 6);
  });
  it("a Ruby class that comes or goes with two mixins changes what one's calls reach in the other", async () => {
    cpSync(join(fixtures, "ruby"), at("ruby"), { recursive: true });
    // A module no class includes: its call of `audit` (Auditable's) reaches nothing.
    writeFileSync(
      at("ruby/lib/shop/notes.rb"),
      'module Shop\n  module Notes\n    def note\n      audit("note")\n    end\n  end\nend\n',
    );
    await syncThenCompare({});
    const reaches = () =>
      graphSnapshot(project.dir).edges.filter(
        (e) =>
          e.startsWith("ruby/lib/shop/notes.rb|Shop.Notes.note|method -calls") && e.includes("Shop.Auditable.audit"),
      );
    expect(reaches()).toHaveLength(0);
    // The new file names nothing Notes calls, yet through Memo, Notes now reaches Auditable's audit.
    writeFileSync(
      at("ruby/lib/shop/memo.rb"),
      "module Shop\n  class Memo\n    include Auditable\n    include Notes\n  end\nend\n",
    );
    await syncThenCompare({ added: 1 });
    expect(reaches()).toHaveLength(1);
    rmSync(at("ruby/lib/shop/memo.rb"));
    await syncThenCompare({ removed: 1 });
    expect(reaches()).toHaveLength(0);
  });
  it("a project past 1 MiB: the index finished beside resolution equals sync's", async () => {
    // From 1 MiB of source, init --force fills the full-text index, builds the indexes and writes the
    // resolved edges on a second connection, in a worker; sync writes each row as it goes. The
    // comparison covers every term, call and unresolved reference of these 60 new files (1.2 MB).
    mkdirSync(at("python/bulk"), { recursive: true });
    const NOTE = " Entries are checked against the journal before they are posted.".repeat(2);
    for (let f = 0; f < 60; f++) {
      const body = Array.from(
        { length: 90 },
        (_, i) =>
          `def bulk_${f}_${i}(x):\n    """${f === 7 ? "Reconcile" : "Scale"} the ledger entry ${i} of batch ${f}.${NOTE}"""\n    return helper_${f}(x)\n`,
      ).join("\n");
      writeFileSync(at(`python/bulk/mod_${f}.py`), `def helper_${f}(x):\n    return x\n\n${body}`);
    }
    expect(statSync(at("python/bulk/mod_0.py")).size * 60).toBeGreaterThan(2 ** 20);
    const synced = await syncThenCompare({ added: 60 });
    expect(synced.nodes).toBeGreaterThan(5000);
    const hits = await runJson<{ hits: { name: string }[] }>([
      "search",
      "reconcile",
      "-p",
      project.dir,
      "--limit",
      "5",
    ]);
    expect(hits.hits.length).toBe(5);
    // Found by a word of their docstrings alone, which only the full-text index holds.
    expect(hits.hits.every((h) => h.name.startsWith("bulk_7_"))).toBe(true);
  });

  it("with every folder an hour old, a sync reads only the folders that changed, and still equals init", async () => {
    // A sync reads a folder again only when its mtime (or .gitignore) moved since the last walk, and
    // trusts an mtime only once it is older than a clock tick (scan/folder-snapshot.ts).
    mkdirSync(at("deep/a/b"), { recursive: true });
    for (const p of ["deep/__init__.py", "deep/a/__init__.py", "deep/a/b/__init__.py"]) writeFileSync(at(p), "");
    writeFileSync(at("deep/a/b/leaf.py"), "def leaf():\n    return 1\n");
    writeFileSync(at("deep/a/b/gone.py"), "def gone():\n    return 2\n");
    writeFileSync(
      at("deep/a/user.py"),
      "from .b.leaf import leaf\nfrom .b.gone import gone\n\n\ndef use():\n    return leaf() + gone()\n",
    );
    await syncThenCompare({ added: 6 });
    settleTree(project.dir);
    // Every file's mtime moved: a sync may rebuild rather than hash them all, and count them modified.
    await syncThenCompare({ added: 0, removed: 0 });

    writeFileSync(at("deep/a/b/late.py"), "def late():\n    return 3\n");
    rmSync(at("deep/a/b/gone.py"));
    writeFileSync(at("deep/a/b/leaf.py"), "from .late import late\n\n\ndef leaf():\n    return late()\n");
    writeFileSync(at("deep/a/.gitignore"), "user.py\n");
    const pending = await runJson<{ changes: unknown }>(["status", "-p", project.dir]);
    expect(pending.changes).toEqual({
      added: ["deep/a/b/late.py"],
      modified: ["deep/a/b/leaf.py"],
      removed: ["deep/a/b/gone.py", "deep/a/user.py"],
    });
    const synced = await run(["sync", project.dir], { env: { ...process.env, CODEGRAPH_DEBUG: "1" } });
    expect(synced.stdout).toContain("1 added, 1 modified, 2 removed");
    // deep/a gained a .gitignore, so it and everything below it is read; no other folder is.
    expect(synced.stderr).toMatch(/scan \(2 of \d+ folders read\)/);
    await syncThenCompare({ added: 0, modified: 0, removed: 0 });
    const leafCalls = graphSnapshot(project.dir).edges.filter(
      (e) => e.startsWith("deep/a/b/leaf.py|leaf|") && e.includes(" -calls@"),
    );
    expect(leafCalls).toEqual([expect.stringContaining("-> deep/a/b/late.py|late|function")]);
  });
});
