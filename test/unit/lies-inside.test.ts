import { relative, isAbsolute, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { liesInside } from "../../src/core/paths.js";

// Every read of a project file is checked with liesInside; a fast path answers the common case (a
// normalised path below the root) without `relative`. Its answer must be relative's in every case.

/** The answer by `relative` alone, as liesInside gave it before its fast path. */
function byRelative(p: string, base: string): boolean {
  const rel = relative(base, p);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

const root = "/home/dev/project";
const cases: [string, string, boolean][] = [
  [`${root}/src/app.ts`, root, true],
  [`${root}/a`, root, true],
  [root, root, false],
  [`${root}/`, root, false],
  [`${root}-other/src/app.ts`, root, false],
  [`${root}x`, root, false],
  ["/home/dev", root, false],
  ["/etc/passwd", root, false],
  [`${root}/../project-secrets/key`, root, false],
  [`${root}/src/../../etc/passwd`, root, false],
  [`${root}/src/..`, root, false],
  [`${root}/..`, root, false],
  [`${root}/./src/app.ts`, root, true],
  [`${root}/.git/config`, root, true],
  [`${root}/src/.hidden/x.ts`, root, true],
  [`${root}//src//app.ts`, root, true],
  [`${root}/src/app.ts`, `${root}/`, true],
  [`${root}/src/app.ts`, `${root}/src/..`, true],
  ["/home/dev/other/x", `${root}/..`, true],
  ["/x", "/", true],
  [`${root}//`, root, false],
  [`${root}//src`, root, true],
  [`${root}/src//`, root, true],
  ["/work/.cache/jdk/src/A.java", "/work/.cache/jdk", true],
  ["/work/.cache/jdk/../etc", "/work/.cache/jdk", false],
  ["/work/.cache/jdkx/A.java", "/work/.cache/jdk", false],
  ["/etc/passwd", "", false],
  ["src/app.ts", "src", true],
];

describe("liesInside", () => {
  it.each(cases)("%s inside %s: %s", (p, base, inside) => {
    expect(liesInside(p, base)).toBe(inside);
    expect(liesInside(p, base)).toBe(byRelative(p, base));
  });

  it("agrees with relative on every path built from a pool of awkward segments", () => {
    const segments = ["src", ".", "..", ".git", "", "a.ts", "..a", "a..", "project", "-x"];
    const bases = ["/home/dev/project", "/home/.dev/project", "/", "/home/dev/project/", "rel/project"];
    let seed = 7;
    const pick = () => segments[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % segments.length]!;
    for (const base of bases)
      for (let n = 0; n < 3000; n++) {
        const rest = Array.from({ length: 1 + (n % 5) }, pick).join("/");
        for (const p of [`${base}/${rest}`, `${base}${rest}`, `/home/dev/${rest}`])
          expect(liesInside(p, base)).toBe(byRelative(p, base));
      }
  });
});
