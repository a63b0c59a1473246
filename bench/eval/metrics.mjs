// Compare codegraph's call edges with the checker's reference call sites.
//
// A call site is keyed by (caller file, line of the callee name token, callee name).
//   precision = correct edges / our edges at sites the checker resolved (project, local or elsewhere)
//   recall    = reference units we got right / all reference units, where a unit is one distinct
//               checker answer at a key that lands on a project declaration
// Our edges at sites the checker could not resolve, and at keys with no reference site at all,
// are counted separately.

export const keyOf = (file, line, name) => `${file}:${line}:${name ?? ""}`;

const targetId = (t) => `${t.file}:${t.line}:${t.name}`;

/** Does our edge target (a node) stand for the checker's declaration `t`? */
export function matchesTarget(e, t) {
  if (e.targetFile !== t.file) return false;
  if (!(e.targetStart <= t.line && t.line <= e.targetEnd)) return false;
  if (e.targetName === t.name) return true;
  if (t.declKind === "Constructor" && e.targetKind === "constructor") return true;
  // `new X()` may point at class X when the checker names X's constructor, and vice versa.
  if (t.className && e.targetKind === "class" && e.targetName === t.className) return true;
  if (t.name == null) return e.targetStart === t.startLine || e.targetStart === t.line;
  return false;
}

export const describeOurs = (e) =>
  `${e.targetKind} ${e.targetQName || e.targetName} @ ${e.targetFile}:${e.targetStart} [${e.resolution}]`;

export function describeChecker(site) {
  if (!site) return "no call site";
  switch (site.status) {
    case "project":
      return site.targets
        .map(
          (t) =>
            `${t.declKind} ${t.className && t.name === "constructor" ? `${t.className}.constructor` : t.name} @ ${t.file}:${t.line}`,
        )
        .join(" | ");
    case "local":
      return `local ${site.local.declKind} ${site.local.name ?? "(anonymous)"} @ ${site.local.file}:${site.local.line}`;
    case "elsewhere":
      return `outside project: ${site.elsewhere.declKind ?? ""} ${site.elsewhere.name ?? ""} (${site.elsewhere.file ?? "?"})`.replace(
        /\s+/g,
        " ",
      );
    default:
      return "unresolved";
  }
}

const INTERFACE_MEMBER = new Set(["MethodSignature", "PropertySignature"]);

function bump(map, k, n = 1) {
  map.set(k, (map.get(k) ?? 0) + n);
}

/** Pick up to n examples, round-robin across categories (largest first) so each kind shows up. */
export function pickExamples(items, n, groupOf = (it) => it.category) {
  const byCat = new Map();
  for (const it of items) {
    const g = groupOf(it);
    if (!byCat.has(g)) byCat.set(g, []);
    byCat.get(g).push(it);
  }
  const cats = [...byCat.entries()].sort((a, b) => b[1].length - a[1].length);
  const out = [];
  for (let i = 0; out.length < n; i++) {
    let any = false;
    for (const [, list] of cats) {
      if (i < list.length && out.length < n) {
        out.push(list[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}

export function evaluate(reference, graph, { examples = 15 } = {}) {
  const refFiles = new Set(reference.files);

  // --- reference side -------------------------------------------------------------------------
  const byKey = new Map();
  const statusCounts = {};
  for (const s of reference.sites) {
    statusCounts[s.status] = (statusCounts[s.status] ?? 0) + 1;
    const k = keyOf(s.file, s.line, s.name);
    let entry = byKey.get(k);
    if (!entry) byKey.set(k, (entry = { key: k, sites: [], units: new Map(), resolved: false }));
    entry.sites.push(s);
    if (s.status !== "unresolved") entry.resolved = true;
    if (s.status === "project" && s.name) {
      const uid = s.targets.map(targetId).sort().join("|");
      if (!entry.units.has(uid)) entry.units.set(uid, { targets: s.targets, site: s });
    }
  }

  // --- our side ---------------------------------------------------------------------------------
  const ourRefKeys = new Map();
  for (const r of graph.refs) {
    if (!refFiles.has(r.file)) continue;
    const k = keyOf(r.file, r.line, r.name);
    const prev = ourRefKeys.get(k);
    ourRefKeys.set(k, {
      resolved: (prev?.resolved ?? 0) || r.resolved,
      ref: r,
    });
  }
  const edgesByKey = new Map();
  const seen = new Set();
  let outsideFiles = 0;
  let duplicates = 0;
  const edges = [];
  for (const e of graph.edges) {
    if (!refFiles.has(e.file)) {
      outsideFiles++;
      continue;
    }
    const k = keyOf(e.file, e.line, e.name);
    const dk = `${k}->${e.targetId}`;
    if (seen.has(dk)) {
      duplicates++;
      continue;
    }
    seen.add(dk);
    e.key = k;
    edges.push(e);
    if (!edgesByKey.has(k)) edgesByKey.set(k, []);
    edgesByKey.get(k).push(e);
  }

  // --- precision --------------------------------------------------------------------------------
  let judged = 0;
  let correct = 0;
  const unchecked = [];
  const noSite = [];
  const falsePositives = [];
  const fpCategories = new Map();
  const byResolution = new Map(); // resolution -> {judged, correct}
  for (const e of edges) {
    const entry = byKey.get(e.key);
    if (!entry) {
      const sameLine = reference.sites.filter((s) => s.file === e.file && s.line === e.line).map((s) => s.name);
      noSite.push({
        category: sameLine.length ? "no site with that name on the line" : "no call site on the line",
        where: `${e.file}:${e.line}`,
        callee: e.name,
        ours: describeOurs(e),
        checker: sameLine.length ? `sites on this line: ${[...new Set(sameLine)].join(", ")}` : "no call site",
      });
      continue;
    }
    if (!entry.resolved) {
      unchecked.push({
        category: "checker unresolved",
        where: `${e.file}:${e.line}`,
        callee: e.name,
        ours: describeOurs(e),
        checker: "unresolved",
        text: entry.sites[0].text,
      });
      continue;
    }
    judged++;
    const r = byResolution.get(e.resolution) ?? { judged: 0, correct: 0 };
    r.judged++;
    const ok = [...entry.units.values()].some((u) => u.targets.some((t) => matchesTarget(e, t)));
    if (ok) {
      correct++;
      r.correct++;
    } else {
      const site =
        entry.sites.find((s) => s.status === "project") ?? entry.sites.find((s) => s.status !== "unresolved");
      let category;
      if (site.status === "local") category = `checker: callee is a local/parameter (${site.local.declKind})`;
      else if (site.status === "elsewhere") category = "checker: declaration outside the project (lib/external)";
      else {
        const ts = site.targets;
        const sameName = ts.some((t) => t.name === e.targetName || t.className === e.targetName);
        if (sameName && (e.targetKind === "interface" || e.targetKind === "type_alias"))
          category = "ours: a type (interface/type alias); checker: the value of the same name";
        else if (ts.some((t) => INTERFACE_MEMBER.has(t.declKind)) && sameName)
          category = "checker: interface/type member; ours: an implementation";
        else if (sameName && ts.some((t) => t.file === e.targetFile))
          category = "same name and file, other declaration (overload / merged interface+value / shadowing)";
        else if (sameName) category = "same name, declaration in another file";
        else category = "different target";
      }
      bump(fpCategories, category);
      falsePositives.push({
        category,
        shape: site.shape,
        where: `${e.file}:${e.line}`,
        callee: e.name,
        text: site.text,
        ours: describeOurs(e),
        checker: describeChecker(site),
      });
    }
    byResolution.set(e.resolution, r);
  }

  // --- recall -----------------------------------------------------------------------------------
  let units = 0;
  let found = 0;
  let localUnits = 0;
  let localFound = 0;
  const misses = [];
  const missCategories = new Map();
  const missByTargetKind = new Map();
  const unitsByTargetKind = new Map();
  const missByShape = new Map();
  const unitsByShape = new Map();
  for (const entry of byKey.values()) {
    const ours = edgesByKey.get(entry.key) ?? [];
    for (const u of entry.units.values()) {
      units++;
      const t0 = u.targets[0];
      const isLocalFn = u.targets.every((t) => t.localFn);
      if (isLocalFn) localUnits++;
      const tk = `${u.site.kind === "call" ? "" : `${u.site.kind} → `}${t0.declKind}${t0.localFn ? " (local)" : ""}`;
      bump(unitsByTargetKind, tk);
      bump(unitsByShape, u.site.shape);
      if (ours.some((e) => u.targets.some((t) => matchesTarget(e, t)))) {
        found++;
        if (isLocalFn) localFound++;
        continue;
      }
      bump(missByTargetKind, tk);
      let category;
      if (ours.length) category = "we resolved to a different target";
      else if (ourRefKeys.has(entry.key)) category = "call site extracted, not resolved";
      else category = "call site not extracted (no ref at file:line:name)";
      bump(missCategories, category);
      bump(missByShape, u.site.shape);
      misses.push({
        category,
        shape: u.site.shape,
        targetKind: tk,
        where: `${u.site.file}:${u.site.line}`,
        callee: u.site.name,
        text: u.site.text,
        ours: ours.length ? ours.map(describeOurs).join(" | ") : ourRefKeys.has(entry.key) ? "ref, no edge" : "no ref",
        checker: describeChecker(u.site),
      });
    }
  }

  const precision = judged ? correct / judged : 0;
  const recall = units ? found / units : 0;
  // Functions held in locals (`const f = () => ...` inside a body) are not graph nodes by design;
  // this secondary figure shows recall without them.
  const nonLocal = { units: units - localUnits, found: found - localFound };
  nonLocal.recall = nonLocal.units ? nonLocal.found / nonLocal.units : 0;
  const sortMap = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    precision,
    recall,
    nonLocal,
    reference: {
      files: reference.files.length,
      sites: reference.sites.length,
      statusCounts,
      keys: byKey.size,
      namelessProject: reference.sites.filter((s) => s.status === "project" && !s.name).length,
      units,
    },
    ours: {
      edges: graph.edges.length,
      outsideFiles,
      duplicates,
      considered: edges.length,
      judged,
      correct,
      unchecked: unchecked.length,
      noSite: noSite.length,
      refs: graph.refs.length,
    },
    found,
    fpCategories: sortMap(fpCategories),
    missCategories: sortMap(missCategories),
    missByTargetKind: sortMap(missByTargetKind).map(([k, n]) => [k, n, unitsByTargetKind.get(k)]),
    unitsByTargetKind: sortMap(unitsByTargetKind),
    missByShape: sortMap(missByShape).map(([k, n]) => [k, n, unitsByShape.get(k)]),
    byResolution: [...byResolution.entries()].sort((a, b) => b[1].judged - a[1].judged),
    examples: {
      falsePositives: pickExamples(falsePositives, examples, (it) => `${it.category}|${it.shape}`),
      misses: pickExamples(misses, examples, (it) => `${it.category}|${it.shape}|${it.targetKind}`),
      unchecked: pickExamples(unchecked, Math.min(examples, 5)),
      noSite: pickExamples(noSite, Math.min(examples, 8)),
    },
    all: { falsePositives, misses, unchecked, noSite },
  };
}
