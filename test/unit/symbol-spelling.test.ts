import { describe, expect, it } from "vitest";
import { nodeView } from "../../src/query/node.js";
import { symbolSuggestions } from "../../src/query/suggest.js";
import { dottedSpelling, moduleFit } from "../../src/query/symbol-spelling.js";
import { findSymbols } from "../../src/query/symbols.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// Agents name symbols as their language, docs and stack traces write them. Each spelling below is
// one a real project's users write; each must find the one declaration it means, and a module path
// that names no file of it must find nothing (and offer the declaration's qualified name).

const FILES: Record<string, string> = {
  "django/db/models/query.py": "class QuerySet:\n    def filter(self, *args):\n        return self\n",
  "django/shortcuts.py": "def render(request, template):\n    return template\n",
  "django/template/defaultfilters.py": "def filter(value):\n    return value\n",
  "lib/active_record/persistence.rb":
    "module ActiveRecord\n  module Persistence\n    def save\n    end\n  end\nend\n\nclass XPersistence\n  def save\n  end\nend\n",
  "src/ORM/EntityManager.php":
    "<?php\nnamespace Doctrine\\ORM;\n\nclass EntityManager\n{\n    public function flush(): void {}\n}\n",
  "go.mod": "module golang.org/x/tools\n\ngo 1.22\n",
  "go/packages/packages.go": "package packages\n\nfunc Load() error { return nil }\n",
  "go/ssa/builder.go": "package ssa\n\ntype Package struct{}\n\nfunc (p *Package) Build() {}\n",
  "Cargo.toml": '[package]\nname = "tokio"\nversion = "1.0.0"\n',
  "src/lib.rs": "pub mod runtime;\n\npub fn spawn() {}\n",
  "src/runtime/mod.rs": "mod builder;\npub use builder::Builder;\n",
  "src/runtime/builder.rs": "pub struct Builder;\n\nimpl Builder {\n    pub fn build(&self) {}\n}\n",
  "java.base/java/util/ArrayList.java":
    "package java.util;\n\npublic class ArrayList<E> {\n    public boolean add(E e) { return true; }\n}\n",
  "geo/shapes.h": "namespace geo {\nclass Shape {\n public:\n  int count();\n};\n}\n",
  "web/widget.js": "export class Widget {\n  draw() {}\n}\n",
};

const project = useIndexedProject("spelling", { files: FILES });

const found = (text: string) => findSymbols(project.db, text).map((h) => `${h.qualifiedName} ${h.file}`);

describe("dottedSpelling", () => {
  it("reads each language's separators as dots", () => {
    expect(dottedSpelling("ActiveRecord::Persistence#save")).toBe("ActiveRecord.Persistence.save");
    expect(dottedSpelling("\\Doctrine\\ORM\\EntityManager::flush")).toBe("Doctrine.ORM.EntityManager.flush");
    expect(dottedSpelling("Order->total")).toBe("Order.total");
    expect(dottedSpelling("net/http.(*Server).Serve")).toBe("net.http.Server.Serve");
    expect(dottedSpelling("(Server).Serve")).toBe("Server.Serve");
    expect(dottedSpelling("Foo.prototype.bar")).toBe("Foo.bar");
  });

  it("drops call parentheses, type arguments and Rust's qualified-path brackets", () => {
    expect(dottedSpelling("QuerySet.filter()")).toBe("QuerySet.filter");
    expect(dottedSpelling("ArrayList#add(E)")).toBe("ArrayList.add");
    expect(dottedSpelling("Map<K, List<V>>.get")).toBe("Map.get");
    expect(dottedSpelling("<tokio::sync::Mutex<T>>::lock")).toBe("tokio.sync.Mutex.lock");
    expect(dottedSpelling("<Vec<T> as Extend<T>>::extend")).toBe("Vec.extend");
    expect(dottedSpelling("Point::operator()")).toBe("Point.operator()");
  });
});

describe("moduleFit", () => {
  const none = () => null;
  it("ranks a path that ends the file or folder over one whose words are only in it", () => {
    expect(moduleFit("django.db.models.query", "django/db/models/query.py", none)).toBe(1);
    expect(moduleFit("net.http", "src/net/http/server.go", none)).toBe(1);
    expect(moduleFit("django.db", "django/db/models/query.py", none)).toBe(2);
    expect(moduleFit("crate", "src/anything.rs", none)).toBe(2);
  });

  it("takes the file's package, then a path whose first words are not in it, else nothing", () => {
    expect(moduleFit("Doctrine.ORM", "src/ORM/EntityManager.php", () => "Doctrine.ORM")).toBe(3);
    expect(moduleFit("tokio.runtime", "src/runtime/builder.rs", none)).toBe(4);
    expect(moduleFit("golang.org.x.tools.go.packages", "go/packages/packages.go", none)).toBe(7);
    expect(moduleFit("tokio.net", "src/net/tcp/stream.rs", none)).toBe(4);
    expect(moduleFit("foo", "django/db/models/query.py", none)).toBe(Infinity);
  });

  it("reads the project's or crate's own name heading a path as its root (`tokio::spawn`)", () => {
    const none = () => null;
    expect(moduleFit("tokio", "src/task/spawn.rs", none, ["tokio"])).toBe(2);
    expect(moduleFit("tokio_util.codec", "src/codec/mod.rs", none, ["checkout", "tokio-util"])).toBe(1);
    expect(moduleFit("tokio", "src/task/spawn.rs", none, ["mio"])).toBe(Infinity);
  });
});

describe("symbols as their languages write them", () => {
  it("finds members by their language's separators", () => {
    expect(found("ActiveRecord::Persistence#save")).toEqual([
      "ActiveRecord.Persistence.save lib/active_record/persistence.rb",
    ]);
    expect(found("Persistence::save")).toEqual(["ActiveRecord.Persistence.save lib/active_record/persistence.rb"]);
    expect(found("\\Doctrine\\ORM\\EntityManager::flush")).toEqual(["EntityManager.flush src/ORM/EntityManager.php"]);
    expect(found("EntityManager->flush")).toEqual(["EntityManager.flush src/ORM/EntityManager.php"]);
    expect(found("geo::Shape::count")).toEqual(["geo.Shape.count geo/shapes.h"]);
    expect(found("Widget.prototype.draw")).toEqual(["Widget.draw web/widget.js"]);
    expect(found("ArrayList<E>#add(E)")).toEqual(["ArrayList.add java.base/java/util/ArrayList.java"]);
  });

  it("finds a qualified name after its module's path, and only in the file the path names", () => {
    expect(found("django.db.models.query.QuerySet.filter")).toEqual(["QuerySet.filter django/db/models/query.py"]);
    expect(found("django.shortcuts.render")).toEqual(["render django/shortcuts.py"]);
    expect(found("java.util.ArrayList.add")).toEqual(["ArrayList.add java.base/java/util/ArrayList.java"]);
    expect(found("tokio::runtime::Builder::build")).toEqual(["Builder.build src/runtime/builder.rs"]);
    expect(found("golang.org/x/tools/go/ssa.(*Package).Build")).toEqual(["Package.Build go/ssa/builder.go"]);
    expect(found("packages.Load")).toEqual(["Load go/packages/packages.go"]);
    expect(found("template.defaultfilters.filter")).toEqual(["filter django/template/defaultfilters.py"]);
  });

  it("reads the crate's name from Cargo.toml, whatever the checkout's folder is called", () => {
    expect(found("tokio::spawn")).toEqual(["spawn src/lib.rs"]);
    expect(found("mio::spawn")).toEqual([]);
  });

  it("finds nothing for a path that names no file of it, and offers its qualified name", () => {
    expect(found("foo.QuerySet.filter")).toEqual([]);
    expect(found("foo::Builder::build")).toEqual([]);
    expect(symbolSuggestions(project.db, "foo.QuerySet.filter")).toEqual(["QuerySet.filter"]);
    expect(symbolSuggestions(project.db, "QuerySet::filtr")).toEqual(["QuerySet.filter"]);
  });

  it("matches the end of a qualified name at a dot", () => {
    expect(found("Persistence.save")).toEqual(["ActiveRecord.Persistence.save lib/active_record/persistence.rb"]);
    expect(found("XPersistence.save")).toEqual(["XPersistence.save lib/active_record/persistence.rb"]);
  });

  it("node reads a PHP name with a leading backslash as a symbol, and a path outside the project as one", () => {
    const symbol = nodeView(project.db, project.dir, "\\Doctrine\\ORM\\EntityManager::flush");
    expect(symbol.type).toBe("symbols");
    const outside = nodeView(project.db, project.dir, "/etc/passwd");
    expect(outside.type).toBe("outside");
  });
});
