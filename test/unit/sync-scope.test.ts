import { describe, expect, it } from "vitest";
import { moduleMayChange } from "../../src/resolve/languages/index.js";
import type { ProjectContext } from "../../src/resolve/rules.js";
import { localTypeFacts, type LocalTypeFact } from "../../src/store/reader.js";
import { mentionsAnyOf, type NamedRole } from "../../src/core/changed-names.js";

// What a sync re-resolves when names or files come and go: the tests that keep it narrow but never
// narrower than what could change.

describe("a receiver or type mentions a name", () => {
  it("as a whole identifier, between any punctuation", () => {
    expect(mentionsAnyOf(["go"])("go")).toBe(true);
    expect(mentionsAnyOf(["go"])("self.go.run")).toBe(true);
    expect(mentionsAnyOf(["go"])("go().x")).toBe(true);
    expect(mentionsAnyOf(["repo"])("$this->repo")).toBe(true);
    expect(mentionsAnyOf(["go"])("a::go")).toBe(true);
    expect(mentionsAnyOf(["Probe"])("List<Probe>")).toBe(true);
  });

  it("not inside a longer identifier", () => {
    expect(mentionsAnyOf(["go"])("algorithm")).toBe(false);
    expect(mentionsAnyOf(["go"])("self.gone")).toBe(false);
    expect(mentionsAnyOf(["Probe"])("ProbeSet")).toBe(false);
    expect(mentionsAnyOf(["go"])("my_go")).toBe(false);
    expect(mentionsAnyOf(["go"])("ægo")).toBe(false);
  });

  it("anywhere after an occurrence that is not one", () => {
    expect(mentionsAnyOf(["go"])("algorithm.go")).toBe(true);
  });

  it("any of several names, some of them no identifiers", () => {
    const mentions = mentionsAnyOf(["Reader", "$repo", "m!"]);
    expect(mentions("bufio.NewReader().Reader")).toBe(true);
    expect(mentions("$repo->find()")).toBe(true);
    expect(mentions("m!(x)")).toBe(true);
    expect(mentions("bufio.NewReader()")).toBe(false);
    expect(mentions("$repos")).toBe(false);
    expect(mentions("mm!(x)")).toBe(false);
    expect(mentionsAnyOf([])("anything")).toBe(false);
  });
});

describe("a file coming or going may change a module reference", () => {
  const noContext: ProjectContext = { tsconfigs: [], goModules: [], cargoCrates: [] };
  const mayChange = (
    ref: { name: string; language: string },
    files: { path: string; packageName: string | null }[],
    ctx = noContext,
  ) => moduleMayChange(ref, files, ctx);

  const java = (name: string) => ({ name, language: "java" });
  const inPackage = (packageName: string | null) => [{ path: "src/X.java", packageName }];

  it("Java and Kotlin: only through the package the import names or runs through", () => {
    expect(mayChange(java("java.util"), inPackage("java.util"))).toBe(true);
    expect(mayChange(java("java.util.List"), inPackage("java.util"))).toBe(true);
    expect(mayChange(java("java.util.Map.Entry"), inPackage("java.util"))).toBe(true);
    expect(mayChange(java("java.util"), inPackage("java.util.probe"))).toBe(false);
    expect(mayChange(java("java.utility.X"), inPackage("java.util"))).toBe(false);
    expect(mayChange({ name: "a.b", language: "kotlin" }, inPackage("c.d"))).toBe(false);
  });

  it("PHP: a class or function only through its namespace's files; a required path always", () => {
    const php = (name: string, packageName: string | null) =>
      mayChange({ name, language: "php" }, [{ path: "src/A.php", packageName }]);
    expect(php("Doctrine.ORM.NoResultException", "Doctrine.ORM")).toBe(true);
    expect(php("Doctrine.ORM.NoResultException", "Doctrine.DBAL")).toBe(false);
    expect(php("lib/helpers.php", "Doctrine.DBAL")).toBe(true);
    expect(php("Doctrine.ORM.X", null)).toBe(true);
  });

  it("Python: only a file named as the specifier's last part, or in a folder of that name", () => {
    const py = (name: string, path: string) => mayChange({ name, language: "python" }, [{ path, packageName: null }]);
    expect(py("django.db.models", "django/db/models/__init__.py")).toBe(true);
    expect(py("django.db.models", "django/db/models/query.py")).toBe(true);
    expect(py("django.utils.text", "vendor/utils/text.py")).toBe(true);
    expect(py(".query", "django/db/models/query.py")).toBe(true);
    expect(py("text", "text.pyi")).toBe(true);
    expect(py("django.utils.text", "django/utils/html.py")).toBe(false);
    expect(py("django.utils", "django/db/models/query.py")).toBe(false);
    expect(py(".", "django/utils/html.py")).toBe(true);
    expect(py("..", "anything.py")).toBe(true);
    // An `__init__.py` decides whether its folder is a package (no source root for a suffix match).
    expect(py("datetime", "django/db/models/functions/__init__.py")).toBe(true);
    expect(py(".query", "django/db/__init__.py")).toBe(false);
  });

  it("Go: only a file in the folder the import path names, by the go.mod files or Go's own tree", () => {
    const ctx: ProjectContext = {
      ...noContext,
      goModules: [
        { dir: "", module: "example.com/shop" },
        { dir: "tools", module: "example.com/shop/tools" },
        { dir: "src", module: "std" },
      ],
    };
    const go = (name: string, path: string) => mayChange({ name, language: "go" }, [{ path, packageName: "any" }], ctx);
    expect(go("example.com/shop/store", "store/store.go")).toBe(true);
    expect(go("example.com/shop", "main.go")).toBe(true);
    expect(go("example.com/shop/tools/lint", "tools/lint/lint.go")).toBe(true);
    expect(go("net/http", "src/net/http/server.go")).toBe(true);
    expect(go("example.com/shop/store", "store/sub/sub.go")).toBe(false);
    expect(go("example.com/shop/store", "api/store.go")).toBe(false);
    expect(go("net/http", "net/http/server.go")).toBe(false);
    expect(go("github.com/other/store", "store/store.go")).toBe(false);
  });

  it("C and C++: only a file of the name an include asks for", () => {
    const include = (name: string, path: string, language = "c") =>
      mayChange({ name, language }, [{ path, packageName: null }]);
    expect(include("util.h", "src/util.h")).toBe(true);
    expect(include("../lib/util.h", "lib/util.h")).toBe(true);
    expect(include("<sys/types.h>", "include/sys/types.h", "cpp")).toBe(true);
    expect(include("util.h", "src/util.c")).toBe(false);
    expect(include("util.h", "src/other.h")).toBe(false);
    expect(include("<vector>", "src/vector.h", "cpp")).toBe(false);
  });

  it("a file without a package, and languages that cannot tell, may change anything", () => {
    expect(mayChange(java("java.util"), inPackage(null))).toBe(true);
    expect(mayChange({ name: "./util", language: "typescript" }, inPackage("x"))).toBe(true);
    expect(mayChange({ name: "crate::a", language: "rust" }, inPackage(null))).toBe(true);
    // Unless nothing comes or goes (a Go or Java file declaring other names changes only their imports).
    expect(mayChange({ name: "./util", language: "typescript" }, [])).toBe(false);
  });
});

describe("the names a changed local type gives a sync to follow", () => {
  const namesOf = (types: LocalTypeFact[]) => {
    const names: NamedRole[][] = [];
    localTypeFacts(types, [], names);
    return names.map((list) => list.filter((n) => n.name).map((n) => `${n.name} (${n.role})`));
  };
  const at = (scopeKind: string, scopeName: string, name: string, typeName: string): LocalTypeFact => ({
    scope: scopeKind === "file" ? "" : `u-${scopeName}`,
    scopeKind,
    scopeName,
    name,
    typeName,
  });

  it("a function's result by the function's name alone: `()` names nothing another file writes", () => {
    expect(namesOf([at("function", "make", "()", "Box")])).toEqual([["make (top)"]]);
    expect(namesOf([at("function", "pair", "()#1", "Box")])).toEqual([["pair (top)"]]);
    expect(namesOf([at("method", "open", "()", "Box")])).toEqual([["open (member)"]]);
  });

  it("a field by its name, and a module-level value by its own", () => {
    expect(namesOf([at("class", "Shop", "this.repo", "Repo")])).toEqual([["repo (member)"]]);
    expect(namesOf([at("class", "Shop", "limit", "int")])).toEqual([["limit (member)"]]);
    expect(namesOf([at("file", "shop.py", "session", "Session()")])).toEqual([["session (top)"]]);
  });
});
