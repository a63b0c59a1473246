// Console and Markdown rendering of an evaluation.

export const TARGETS = { precision: 0.95, recall: 0.9 };
export const PEERS = [
  ["@colbymchenry/codegraph", 0.91, 0.78],
  ["@optave/codegraph", 0.87, 0.58],
];

const f3 = (x) => x.toFixed(3);
const mark = (v, t) => (v >= t ? "PASS" : "FAIL");
const cell = (s) =>
  String(s ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");

export function consoleReport(r, ctx) {
  const L = [];
  L.push(`codegraph call-edge eval — ${ctx.repoName} (${ctx.repo})`);
  L.push(
    `  reference: ${r.reference.files} files, ${r.reference.sites} call sites ` +
      `(${Object.entries(r.reference.statusCounts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}), ${r.reference.units} project units`,
  );
  L.push(
    `  ours:      ${r.ours.edges} call edges; ${r.ours.considered} in reference files; judged ${r.ours.judged}, correct ${r.ours.correct}; ` +
      `at checker-unresolved sites ${r.ours.unchecked}; at no reference site ${r.ours.noSite}; outside .ts files ${r.ours.outsideFiles}`,
  );
  L.push("");
  L.push(
    `  precision ${f3(r.precision)}  (${r.ours.correct}/${r.ours.judged})   target >= ${TARGETS.precision}  ${mark(r.precision, TARGETS.precision)}`,
  );
  L.push(
    `  recall    ${f3(r.recall)}  (${r.found}/${r.reference.units})   target >= ${TARGETS.recall}  ${mark(r.recall, TARGETS.recall)}`,
  );
  L.push(
    `  (recall without targets that are function-valued locals: ${f3(r.nonLocal.recall)} (${r.nonLocal.found}/${r.nonLocal.units}))`,
  );
  L.push(`  peers: ${PEERS.map(([n, p, q]) => `${n} ${p}/${q}`).join(", ")}`);
  if (r.fpCategories.length) {
    L.push("", "  false positives by category:");
    for (const [k, n] of r.fpCategories) L.push(`    ${String(n).padStart(5)}  ${k}`);
  }
  if (r.missCategories.length) {
    L.push("", "  misses by category:");
    for (const [k, n] of r.missCategories) L.push(`    ${String(n).padStart(5)}  ${k}`);
    L.push("", "  misses by checker target kind (missed/total):");
    for (const [k, n, tot] of r.missByTargetKind) L.push(`    ${String(n).padStart(5)}/${String(tot).padEnd(5)} ${k}`);
    L.push("", "  misses by call shape (missed/total):");
    for (const [k, n, tot] of r.missByShape) L.push(`    ${String(n).padStart(5)}/${String(tot).padEnd(5)} ${k}`);
  }
  if (r.byResolution.length) {
    L.push("", "  precision by our resolution strategy:");
    for (const [k, v] of r.byResolution)
      L.push(`    ${String(v.correct).padStart(5)}/${String(v.judged).padEnd(5)} ${f3(v.correct / v.judged)}  ${k}`);
  }
  const ex = (title, list) => {
    if (!list.length) return;
    L.push("", `  ${title}:`);
    for (const x of list) {
      L.push(`    ${x.where}  ${x.callee}  [${x.category}${x.shape ? `; ${x.shape}` : ""}]`);
      if (x.text) L.push(`        code:    ${x.text}`);
      L.push(`        ours:    ${x.ours}`);
      L.push(`        checker: ${x.checker}`);
    }
  };
  ex("false positives (examples)", r.examples.falsePositives);
  ex("misses (examples)", r.examples.misses);
  ex("edges at checker-unresolved sites (not scored; examples)", r.examples.unchecked);
  ex("edges with no reference call site (not scored; examples)", r.examples.noSite);
  return L.join("\n");
}

export function markdownReport(r, ctx) {
  const L = [];
  L.push(`# Call-edge evaluation — ${ctx.date}`, "");
  L.push(
    `Corpus \`${ctx.repoName}\` (${ctx.corpusRev ? `commit ${ctx.corpusRev.slice(0, 12)}` : "no git"}${ctx.corpusSources ? `; ${ctx.corpusSources}` : ""}), ` +
      `reference: TypeScript ${ctx.tsVersion} type checker. codegraph ${ctx.codegraphRev ? `at ${ctx.codegraphRev.slice(0, 12)}` : ""}${ctx.dirty ? " (uncommitted changes)" : ""}. ` +
      `Index ${ctx.indexMs != null ? `${(ctx.indexMs / 1000).toFixed(1)} s` : "reused"}, reference ${(ctx.refMs / 1000).toFixed(1)} s.`,
    "",
  );
  L.push(`Run: \`${ctx.command}\``, "");
  L.push("| metric | value | target | status |", "|---|---|---|---|");
  L.push(
    `| precision | **${f3(r.precision)}** (${r.ours.correct}/${r.ours.judged}) | >= ${TARGETS.precision} | ${mark(r.precision, TARGETS.precision)} |`,
  );
  L.push(
    `| recall | **${f3(r.recall)}** (${r.found}/${r.reference.units}) | >= ${TARGETS.recall} | ${mark(r.recall, TARGETS.recall)} |`,
    "",
  );
  L.push(
    `Recall without targets that are function-valued locals (\`const f = () => ...\` inside a body, not graph nodes today): ${f3(r.nonLocal.recall)} (${r.nonLocal.found}/${r.nonLocal.units}).`,
    "",
  );
  L.push("Peers (precision/recall): " + PEERS.map(([n, p, q]) => `${n} ${p}/${q}`).join(", ") + ".", "");
  L.push("## Definitions", "");
  L.push(
    "- A call site is keyed by (caller file, 1-based line of the callee name token, callee name); `super(...)` is named `super`.",
  );
  L.push(
    "- The checker's answer is `getResolvedSignature(call).declaration`, else the callee symbol (aliases followed). Signatures that come from a type (`cb: () => void`) fall back to the symbol.",
  );
  L.push(
    "- **project**: a declaration in a project file (function, method, constructor/class, function-valued variable or property, interface member); **local**: a parameter, destructured binding, non-function local or anonymous function; **elsewhere**: lib / external declaration; **unresolved**: nothing (unresolved import, `any`).",
  );
  L.push(
    "- An edge is correct when its target node is in the checker's file, its line range contains the declaration's name line and the name matches; `new X()` may target class X or X's constructor.",
  );
  L.push(
    "- Precision counts our `calls`/`instantiates` edges at sites the checker resolved (project, local or elsewhere). Recall counts distinct checker answers that land on a project declaration.",
    "",
  );
  L.push("## Counts", "");
  L.push("| | count |", "|---|---|");
  L.push(`| reference files | ${r.reference.files} |`);
  L.push(`| reference call sites | ${r.reference.sites} |`);
  for (const [k, v] of Object.entries(r.reference.statusCounts)) L.push(`| &nbsp;&nbsp;${k} | ${v} |`);
  L.push(`| reference project units (recall denominator) | ${r.reference.units} |`);
  L.push(`| project sites with a computed callee, e.g. \`(a || b)()\` (not scored) | ${r.reference.namelessProject} |`);
  L.push(`| our call refs | ${r.ours.refs} |`);
  L.push(`| our call edges | ${r.ours.edges} |`);
  L.push(`| &nbsp;&nbsp;in non-reference files (e.g. .js) | ${r.ours.outsideFiles} |`);
  L.push(`| &nbsp;&nbsp;duplicates (same site and target) | ${r.ours.duplicates} |`);
  L.push(`| &nbsp;&nbsp;judged (precision denominator) | ${r.ours.judged} |`);
  L.push(`| &nbsp;&nbsp;correct | ${r.ours.correct} |`);
  L.push(`| &nbsp;&nbsp;at sites the checker could not resolve (not scored) | ${r.ours.unchecked} |`);
  L.push(`| &nbsp;&nbsp;at no reference call site (not scored) | ${r.ours.noSite} |`, "");
  const table = (title, head, rows) => {
    if (!rows.length) return;
    L.push(`## ${title}`, "", `| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
    for (const row of rows) L.push(`| ${row.map(cell).join(" | ")} |`);
    L.push("");
  };
  table("False positives by category", ["category", "edges"], r.fpCategories);
  table("Misses by category", ["category", "units"], r.missCategories);
  table("Misses by checker target kind", ["target kind", "missed", "total"], r.missByTargetKind);
  table("Misses by call shape", ["shape", "missed", "total"], r.missByShape);
  table(
    "Precision by our resolution strategy",
    ["resolution", "correct", "judged", "precision"],
    r.byResolution.map(([k, v]) => [k, v.correct, v.judged, f3(v.correct / v.judged)]),
  );
  const examples = (title, list) => {
    if (!list.length) return;
    L.push(`## ${title}`, "", "| where | callee | category | code | ours | checker |", "|---|---|---|---|---|---|");
    for (const x of list)
      L.push(
        `| ${cell(x.where)} | \`${cell(x.callee)}\` | ${cell(x.category)}${x.shape ? ` (${cell(x.shape)})` : ""} | \`${cell(x.text ?? "")}\` | ${cell(x.ours)} | ${cell(x.checker)} |`,
      );
    L.push("");
  };
  examples("False positives (examples)", r.examples.falsePositives);
  examples("Misses (examples)", r.examples.misses);
  examples("Edges at checker-unresolved sites (not scored)", r.examples.unchecked);
  examples("Edges at no reference call site (not scored)", r.examples.noSite);
  return L.join("\n") + "\n";
}
