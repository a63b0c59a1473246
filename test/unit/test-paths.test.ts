import { describe, expect, it } from "vitest";
import { isTestPath } from "../../src/core/test-paths.js";

describe("isTestPath", () => {
  it.each([
    "test/unit/layers.test.ts",
    "tests/test_compiler.py",
    "src/__tests__/app.tsx",
    "spec/models/user_spec.rb",
    "pkg/server/engine_test.go",
    "django/db/test_models.py",
    "app/models_test.py",
    "app/conftest.py",
    "src/app.test.ts",
    "src/app.spec.tsx",
    "lib/util.test.mjs",
    "src/main/java/com/acme/WidgetTest.java",
    "src/main/java/com/acme/WidgetTests.java",
    "src/test/java/com/acme/Widget.java",
    "web\\__tests__\\x.js",
    "Tests/Foo.cs",
    "app/tests.py",
    "src/main/java/com/acme/TestWidget.java",
    "src/main/java/com/acme/WidgetIT.java",
    "src/__mocks__/fs.ts",
    "pkg/testdata/input.go",
  ])("%s is a test", (path) => {
    expect(isTestPath(path)).toBe(true);
  });

  it.each([
    "src/app.ts",
    "src/testing-library.ts",
    "src/contest.py",
    "src/attest.go",
    "src/latest/index.ts",
    "src/test_helpers_guide.md",
    "src/protest_test.txt",
    "src/specification.ts",
    "test.ts",
    "src/main/java/com/acme/Testament.java",
    "src/main/java/com/acme/SPLIT.java",
    "",
  ])("%s is not a test", (path) => {
    expect(isTestPath(path)).toBe(false);
  });
});
