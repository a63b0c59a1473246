// Harness self-test: a synthetic graph built from the reference must score precision = recall = 1;
// then known mistakes are injected and must be counted exactly. Needs no index or CLI.
import { evaluate } from "./metrics.mjs";

function edgeTo(site, t, extra = {}) {
  const isCtor = t.declKind === "Constructor";
  return {
    id: 0,
    kind: site.kind === "new" ? "instantiates" : "calls",
    line: site.line,
    resolution: "selftest",
    file: site.file,
    name: site.name,
    targetId: `${t.file}:${t.line}`,
    targetName: t.name,
    targetKind: isCtor ? "constructor" : t.declKind === "ClassDeclaration" ? "class" : "function",
    targetQName: t.name,
    // An `export`/decorator may start the node a line before the name; the range must still match.
    targetStart: Math.max(1, t.startLine - 1),
    targetEnd: t.line + 3,
    targetFile: t.file,
    ...extra,
  };
}

export function selfTest(reference) {
  const failures = [];
  const check = (what, got, want) => {
    if (got !== want) failures.push(`${what}: got ${got}, want ${want}`);
  };
  const refs = reference.sites
    .filter((s) => s.name)
    .map((s) => ({
      file: s.file,
      line: s.line,
      name: s.name,
      resolved: 1,
      kind: "calls",
    }));

  // 1. perfect graph: one edge per project site (to the class when it is a `new`)
  const perfect = [];
  for (const s of reference.sites) {
    if (s.status !== "project" || !s.name) continue;
    const t = s.targets.find((x) => x.declKind === "ClassDeclaration") ?? s.targets[0];
    perfect.push(edgeTo(s, t));
  }
  let r = evaluate(reference, { edges: perfect, refs, files: reference.files });
  check("perfect precision", r.precision, 1);
  const namedUnits = r.reference.units;
  check("perfect recall (named units)", r.found, namedUnits);

  // 2. inject: a wrong target at a project site, an edge at a local site, an edge at an
  //    unresolved site, an edge at a line with no call; drop one correct edge.
  const project = reference.sites.filter((s) => s.status === "project" && s.name);
  const local = reference.sites.find((s) => s.status === "local" && s.name);
  const unresolved = reference.sites.find(
    (s) =>
      s.status === "unresolved" &&
      s.name &&
      !reference.sites.some(
        (o) => o !== s && o.file === s.file && o.line === s.line && o.name === s.name && o.status !== "unresolved",
      ),
  );
  const wrongSite = project[0];
  const other = project.find(
    (s) => s.targets[0].file !== wrongSite.targets[0].file || s.targets[0].line !== wrongSite.targets[0].line,
  );
  const injected = perfect.slice(1); // drop the edge of project[0]... re-added wrong below
  let expectFp = 0;
  let expectUnchecked = 0;
  let expectNoSite = 0;
  injected.push(edgeTo(wrongSite, other.targets[0])); // wrong target, and wrongSite is now missed
  expectFp++;
  if (local) {
    injected.push(edgeTo(local, other.targets[0]));
    expectFp++;
  }
  if (unresolved) {
    injected.push(edgeTo(unresolved, other.targets[0]));
    expectUnchecked++;
  }
  injected.push(edgeTo({ ...wrongSite, line: 999999 }, other.targets[0]));
  expectNoSite++;
  r = evaluate(reference, { edges: injected, refs, files: reference.files });
  check("injected false positives", r.ours.judged - r.ours.correct, expectFp);
  check("injected unchecked", r.ours.unchecked, expectUnchecked);
  check("injected no-site", r.ours.noSite, expectNoSite);
  const wrongUnitKeys = reference.sites.filter(
    (s) =>
      s.status === "project" && s.file === wrongSite.file && s.line === wrongSite.line && s.name === wrongSite.name,
  );
  const wrongUnits = new Set(
    wrongUnitKeys.map((s) =>
      s.targets
        .map((t) => `${t.file}:${t.line}:${t.name}`)
        .sort()
        .join("|"),
    ),
  ).size;
  // perfect.slice(1) removed the one edge for wrongSite; other units at that key may still be hit by
  // edges of other sites with the same key, so the loss is between 1 and wrongUnits.
  const lost = namedUnits - r.found;
  if (lost < 1 || lost > wrongUnits) failures.push(`injected recall loss ${lost}, want 1..${wrongUnits}`);

  // 3. constructor leniency: `new X()` pointing at X's constructor node counts as correct
  const ctorSite = reference.sites.find(
    (s) => s.kind === "new" && s.status === "project" && s.targets.some((t) => t.declKind === "Constructor"),
  );
  if (ctorSite) {
    const t = ctorSite.targets.find((x) => x.declKind === "Constructor");
    r = evaluate(reference, {
      edges: [edgeTo(ctorSite, t)],
      refs,
      files: reference.files,
    });
    check("constructor target correct", r.ours.correct, 1);
  }
  // 4. overload leniency: an edge to an overload signature of the checker's function counts
  const ovSite = reference.sites.find((s) => s.status === "project" && s.name && s.targets.some((t) => t.overload));
  if (ovSite) {
    const t = ovSite.targets.find((x) => x.overload);
    r = evaluate(reference, {
      edges: [edgeTo(ovSite, t, { targetStart: t.startLine, targetEnd: t.line })],
      refs,
      files: reference.files,
    });
    check("overload target correct", r.ours.correct, 1);
  }
  // 5. an edge whose node range misses the declaration's name line is wrong
  const farSite = project.find((s) => s.targets.every((t) => !t.className));
  if (farSite) {
    const t = farSite.targets[0];
    r = evaluate(reference, {
      edges: [edgeTo(farSite, t, { targetStart: t.line + 1, targetEnd: t.line + 5 })],
      refs,
      files: reference.files,
    });
    check("range mismatch is wrong", r.ours.correct, 0);
  }
  return failures;
}
