/** Folders whose contents are tests, fixtures of tests, or test helpers. */
const TEST_DIRS = new Set([
  "test",
  "tests",
  "__tests__",
  "__test__",
  "spec",
  "specs",
  "testing",
  "e2e",
  "__mocks__",
  "testdata",
]);

/**
 * File names that mark a test wherever they live: Go `_test.go`, Python `test_*.py` / `*_test.py` /
 * `tests.py` / `conftest.py`, JS and TS `*.test.*` / `*.spec.*`, Java and Kotlin `Test*` / `*Test` / `*Tests` /
 * `*IT`, Ruby `_spec.rb`.
 */
const TEST_FILES = [
  /_test\.go$/,
  /^test_[^/]*\.pyi?$/,
  /_tests?\.pyi?$/,
  /^(?:conftest|tests)\.py$/,
  /\.(?:test|spec)\.[cm]?[jt]sx?$/,
  /^Test[A-Z_].*\.(?:java|kt)$/,
  /(?:Tests?|[a-z]IT)\.(?:java|kt)$/,
  /_spec\.rb$/,
];

/**
 * Whether a project-relative path (either separator) is a test file: a path segment named
 * test/tests/__tests__/spec/specs/testing/e2e/__mocks__/testdata, or a test file name (`*_test.go`, `test_*.py`,
 * `*.test.ts`, `*.spec.tsx`, `FooTest.java`, ...). Search ranking, exact-target counting and test
 * coverage all use this one predicate, so they agree on what a test is.
 */
export function isTestPath(path: string): boolean {
  const segments = path.split(/[\\/]+/).filter(Boolean);
  const base = segments.pop();
  if (!base) return false;
  if (segments.some((s) => TEST_DIRS.has(s.toLowerCase()))) return true;
  return TEST_FILES.some((re) => re.test(base));
}
