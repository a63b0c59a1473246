import { describe, expect, it } from "vitest";
import { moduleMayChange } from "../../src/resolve/languages/index.js";
import { mentionsWord } from "../../src/store/reader.js";

// What a sync re-resolves when names or files come and go: the tests that keep it narrow but never
// narrower than what could change.

describe("a receiver or type mentions a name", () => {
  it("as a whole identifier, between any punctuation", () => {
    expect(mentionsWord("go", "go")).toBe(true);
    expect(mentionsWord("self.go.run", "go")).toBe(true);
    expect(mentionsWord("go().x", "go")).toBe(true);
    expect(mentionsWord("$this->repo", "repo")).toBe(true);
    expect(mentionsWord("a::go", "go")).toBe(true);
    expect(mentionsWord("List<Probe>", "Probe")).toBe(true);
  });

  it("not inside a longer identifier", () => {
    expect(mentionsWord("algorithm", "go")).toBe(false);
    expect(mentionsWord("self.gone", "go")).toBe(false);
    expect(mentionsWord("ProbeSet", "Probe")).toBe(false);
    expect(mentionsWord("my_go", "go")).toBe(false);
    expect(mentionsWord("ægo", "go")).toBe(false);
  });

  it("anywhere after an occurrence that is not one", () => {
    expect(mentionsWord("algorithm.go", "go")).toBe(true);
  });
});

describe("a file coming or going may change a module reference", () => {
  const java = (name: string) => ({ name, language: "java" });
  const inPackage = (packageName: string | null) => [{ path: "src/X.java", packageName }];

  it("Java and Kotlin: only through the package the import names or runs through", () => {
    expect(moduleMayChange(java("java.util"), inPackage("java.util"))).toBe(true);
    expect(moduleMayChange(java("java.util.List"), inPackage("java.util"))).toBe(true);
    expect(moduleMayChange(java("java.util.Map.Entry"), inPackage("java.util"))).toBe(true);
    expect(moduleMayChange(java("java.util"), inPackage("java.util.probe"))).toBe(false);
    expect(moduleMayChange(java("java.utility.X"), inPackage("java.util"))).toBe(false);
    expect(moduleMayChange({ name: "a.b", language: "kotlin" }, inPackage("c.d"))).toBe(false);
  });

  it("PHP: a class or function only through its namespace's files; a required path always", () => {
    const php = (name: string, packageName: string | null) =>
      moduleMayChange({ name, language: "php" }, [{ path: "src/A.php", packageName }]);
    expect(php("Doctrine.ORM.NoResultException", "Doctrine.ORM")).toBe(true);
    expect(php("Doctrine.ORM.NoResultException", "Doctrine.DBAL")).toBe(false);
    expect(php("lib/helpers.php", "Doctrine.DBAL")).toBe(true);
    expect(php("Doctrine.ORM.X", null)).toBe(true);
  });

  it("Python: only a file named as the specifier's last part, or in a folder of that name", () => {
    const py = (name: string, path: string) =>
      moduleMayChange({ name, language: "python" }, [{ path, packageName: null }]);
    expect(py("django.db.models", "django/db/models/__init__.py")).toBe(true);
    expect(py("django.db.models", "django/db/models/query.py")).toBe(true);
    expect(py("django.utils.text", "vendor/utils/text.py")).toBe(true);
    expect(py(".query", "django/db/models/query.py")).toBe(true);
    expect(py("text", "text.pyi")).toBe(true);
    expect(py("django.utils.text", "django/utils/html.py")).toBe(false);
    expect(py("django.utils", "django/db/models/query.py")).toBe(false);
    expect(py(".", "django/utils/html.py")).toBe(true);
    expect(py("..", "anything.py")).toBe(true);
  });

  it("a file without a package, and languages that cannot tell, may change anything", () => {
    expect(moduleMayChange(java("java.util"), inPackage(null))).toBe(true);
    expect(moduleMayChange({ name: "./util", language: "typescript" }, inPackage("x"))).toBe(true);
    expect(moduleMayChange({ name: "crate::a", language: "rust" }, inPackage(null))).toBe(true);
  });
});
