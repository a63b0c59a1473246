// Markdown report of a benchmark run (the JSON beside it holds every run's numbers).
const MiB = 2 ** 20;
const PEERS = ["colby", "optave", "optave-wasm"];

const s = (ms) => (ms == null ? "—" : (ms / 1000).toFixed(ms < 10000 ? 2 : 1));
const mib = (bytes) => (bytes == null ? "—" : (bytes / MiB).toFixed(bytes < 10 * MiB ? 2 : 1));
const rss = (kb) => (kb == null || kb === 0 ? "—" : (kb / 1024).toFixed(0));
const int = (n) => (n == null ? "—" : n.toLocaleString("en-US"));
const ratio = (a, b) => (a == null || b == null || b === 0 ? "—" : (a / b).toFixed(2) + "×");
const rate = (n, ms, d = 0) => (n == null || !ms ? "—" : (n / (ms / 1000)).toFixed(d));

function table(head, rows) {
  const out = [`| ${head.join(" | ")} |`, `|${head.map((h, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
  for (const r of rows) out.push(`| ${r.join(" | ")} |`);
  return out.join("\n");
}

const med = (repo, tool, phase) => repo.tools[tool]?.[phase + "Median"] ?? null;
const ms = (repo, tool, phase) => med(repo, tool, phase)?.ms ?? null;
const failNote = (repo, tool, phase) => {
  const m = med(repo, tool, phase);
  return m && m.failed ? ` (${m.failed} failed)` : "";
};
const cell = (repo, tool, phase) => {
  if (!repo.tools[tool]) return "—";
  const m = med(repo, tool, phase);
  if (!m || (m.ok === 0 && m.failed === 0)) return "—";
  if (m.ok === 0) return "failed";
  return s(m.ms) + failNote(repo, tool, phase);
};

export function renderMarkdown(report) {
  const m = report.machine;
  const tools = report.tools;
  const has = (t) => tools[t]?.available;
  const peers = PEERS.filter(has);
  const L = [];
  L.push(`# codegraph benchmark — ${report.date.slice(0, 10)}`);
  L.push("");
  L.push(
    `Machine: ${m.nproc} cores (${m.cpu}), ${m.memGiB} GiB RAM, Node ${m.node}, Linux ${m.kernel}; ` +
      `load average ${m.loadStart.join(" / ")} at start, ${m.loadEnd?.join(" / ") ?? "?"} at end.`,
  );
  L.push(
    `Ours: ${has("ours") ? `codegraph ${tools.ours.version ?? "?"} (commit ${m.commit}${m.dirty ? ", with uncommitted changes" : ""}; run as \`node ${report.oursMain}\`)` : `not measured (${tools.ours?.why ?? "not selected"})`}. ` +
      `Peers: ` +
      [
        ["colby", "@colbymchenry/codegraph"],
        ["optave", "@optave/codegraph"],
      ]
        .map(([k, pkg]) => `${pkg} ${tools[k]?.version ?? "(not installed)"}`)
        .join(", ") +
      ".",
  );
  L.push(`Runs: ${report.options.runs} per measurement; every time below is the median, in seconds; RSS in MiB.`);
  L.push("");

  for (const [tier, t] of Object.entries(report.tiers)) {
    const repos = Object.values(t.repos);
    if (!repos.length) continue;
    const ours = has("ours");
    const inLangs = (r) => r.corpus.parseFiles > 0;
    const name = (r) => r.repo + (inLangs(r) ? "" : " †");
    L.push(`## Tier ${tier}`);
    L.push("");

    // --- ours
    if (ours) {
      L.push("### Ours");
      L.push("");
      L.push(
        table(
          [
            "repo",
            "files (all / indexed)",
            "MiB (all / parsed)",
            "full index s",
            "files/s",
            "MiB/s",
            "peak RSS",
            "DB MiB",
            "nodes",
            "edges",
            "sync s",
            "edit s",
          ],
          repos.map((r) => {
            const st = r.tools.ours?.stats ?? {};
            const full = ms(r, "ours", "full");
            return [
              name(r),
              `${int(r.corpus.files)} / ${int(st.files)}`,
              `${mib(r.corpus.bytes)} / ${mib(r.corpus.parseBytes)}`,
              cell(r, "ours", "full"),
              rate(st.files, full),
              rate(r.corpus.parseBytes / MiB, full, 2),
              rss(med(r, "ours", "full")?.rssKb),
              mib(st.dbBytes),
              int(st.nodes),
              int(st.edges),
              cell(r, "ours", "sync"),
              cell(r, "ours", "edit"),
            ];
          }),
        ),
      );
      L.push("");
    }

    // --- full index side by side
    L.push("### Full index, side by side");
    L.push("");
    const lift = repos.some((r) => r.floorLiftoff);
    const fullHead = ["repo", "floor", ...(lift ? ["floor liftoff-only"] : []), "ours"];
    for (const p of peers) fullHead.push(p === "colby" ? "colby init" : p);
    if (has("colby")) fullHead.push("colby index");
    fullHead.push("ours/floor");
    for (const p of peers) fullHead.push(`ours/${p}`);
    const totals = { floor: 0, lift: 0, ours: 0 };
    for (const p of peers) totals[p] = 0;
    let complete = 0;
    const fullRows = repos.map((r) => {
      const f = r.floor?.ms ?? null;
      const o = ms(r, "ours", "full");
      const row = [name(r), s(f), ...(lift ? [s(r.floorLiftoff?.ms)] : []), cell(r, "ours", "full")];
      for (const p of peers) row.push(cell(r, p, "full"));
      if (has("colby")) row.push(cell(r, "colby", "rebuild"));
      const ok = inLangs(r);
      row.push(ok ? ratio(o, f) : "—");
      for (const p of peers) row.push(ok ? ratio(o, ms(r, p, "full")) : "—");
      if (ok && f != null && o != null && peers.every((p) => ms(r, p, "full") != null)) {
        complete++;
        totals.floor += f;
        totals.lift += r.floorLiftoff?.ms ?? 0;
        totals.ours += o;
        for (const p of peers) totals[p] += ms(r, p, "full");
      }
      return row;
    });
    if (complete > 1) {
      const row = [
        `**total** (${complete} repos in our languages)`,
        s(totals.floor),
        ...(lift ? [s(totals.lift)] : []),
        s(totals.ours),
      ];
      for (const p of peers) row.push(s(totals[p]));
      if (has("colby")) row.push("");
      row.push(ratio(totals.ours, totals.floor));
      for (const p of peers) row.push(ratio(totals.ours, totals[p]));
      fullRows.push(row.map((c) => (c ? `**${c.replace(/\*\*/g, "")}**` : c)));
    }
    L.push(table(fullHead, fullRows));
    L.push("");

    // --- by language (issue 9 asks throughput per language against its floor)
    if (ours) {
      const byLanguage = new Map();
      for (const r of repos) {
        const f = r.floor?.ms ?? null;
        const o = ms(r, "ours", "full");
        const lang = mainLanguage(r.corpus.byLang);
        if (!lang || f == null || o == null) continue;
        const g = byLanguage.get(lang) ?? { repos: [], floor: 0, ours: 0, bytes: 0 };
        g.repos.push(r.repo);
        g.floor += f;
        g.ours += o;
        g.bytes += r.corpus.parseBytes;
        byLanguage.set(lang, g);
      }
      if (byLanguage.size) {
        L.push("### By language");
        L.push("");
        L.push(
          "Each repo counted under the language most of its parsed bytes are in; MiB/s over the bytes of files in the floor's languages.",
        );
        L.push("");
        L.push(
          table(
            ["language", "repos", "floor s", "ours s", "floor MiB/s", "ours MiB/s", "ours/floor"],
            [...byLanguage]
              .sort((a, b) => a[0].localeCompare(b[0]))
              .map(([lang, g]) => [
                lang,
                g.repos.join(", "),
                s(g.floor),
                s(g.ours),
                rate(g.bytes / MiB, g.floor, 2),
                rate(g.bytes / MiB, g.ours, 2),
                ratio(g.ours, g.floor),
              ]),
          ),
        );
        L.push("");
      }
    }

    // --- incremental
    if (ours || peers.length) {
      const who = [...(ours ? ["ours"] : []), ...peers];
      L.push("### Sync: nothing changed / one file edited");
      L.push("");
      const head = ["repo"];
      for (const w of who) head.push(`${w} sync`);
      for (const w of who) head.push(`${w} edit`);
      L.push(
        table(
          head,
          repos.map((r) => [name(r), ...who.map((w) => cell(r, w, "sync")), ...who.map((w) => cell(r, w, "edit"))]),
        ),
      );
      L.push("");
      const edited = repos.filter((r) => r.editTarget).map((r) => `${r.repo}: \`${r.editTarget.path}\``);
      if (edited.length) L.push(`Edited file (a comment line appended, then restored): ${edited.join("; ")}.`);
      L.push("");

      // --- memory
      L.push("### Peak RSS of the full index (MiB)");
      L.push("");
      L.push(
        table(
          ["repo", "floor", ...(lift ? ["floor liftoff-only"] : []), ...who],
          repos.map((r) => [
            name(r),
            rss(r.floor?.rssKb),
            ...(lift ? [rss(r.floorLiftoff?.rssKb)] : []),
            ...who.map((w) => rss(med(r, w, "full")?.rssKb)),
          ]),
        ),
      );
      L.push("");

      // --- what each built
      L.push("### What each index holds: files / nodes / edges / DB MiB");
      L.push("");
      L.push(
        table(
          ["repo", ...who],
          repos.map((r) => [
            name(r),
            ...who.map((w) => {
              const st = r.tools[w]?.stats;
              if (!st) return "—";
              if (st.error) return "stats failed";
              return `${int(st.files)} / ${int(st.nodes)} / ${int(st.edges)} / ${mib(st.dbBytes)}`;
            }),
          ]),
        ),
      );
      L.push("");
    }

    const other = {};
    for (const r of repos) for (const [e, n] of Object.entries(r.corpus.otherExts)) other[e] = (other[e] ?? 0) + n;
    const otherList = Object.entries(other)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([e, n]) => `${e} ${n}`)
      .join(", ");
    const dagger = repos.filter((r) => !inLangs(r)).map((r) => r.repo);
    if (dagger.length)
      L.push(
        `† No file in the floor's languages (TS/TSX/JS/Python/Go/Java): ${dagger.join(", ")}. The floor parses nothing there, so their ratios are left out; the peers index those languages.`,
      );
    if (otherList)
      L.push(
        `Files the floor does not parse (other languages, docs, data), by extension: ${otherList}${Object.keys(other).length > 12 ? ", …" : ""}.`,
      );
    const differ = repos
      .filter(
        (r) =>
          r.floor?.files != null && r.tools.ours?.stats?.files != null && r.floor.files !== r.tools.ours.stats.files,
      )
      .map((r) => `${r.repo} (floor ${r.floor.files}, ours ${r.tools.ours.stats.files})`);
    if (differ.length) L.push(`The floor parsed a different number of files than ours indexed: ${differ.join(", ")}.`);
    const loads = repos.filter((r) => r.loadStart).map((r) => `${r.repo} ${r.loadStart[0]}–${r.loadEnd?.[0] ?? "?"}`);
    if (loads.length) L.push(`1-minute load average at the start and end of each repo: ${loads.join(", ")}.`);
    const tooBig = repos.reduce((a, r) => a + r.corpus.tooBig, 0);
    if (tooBig) L.push(`${tooBig} files over 1 MiB were skipped by the floor.`);
    L.push("");
  }

  L.push("### How it was measured");
  L.push("");
  L.push(
    [
      "- Wall time: `process.hrtime` around each spawned command, Node start included. Peak RSS: the larger of GNU time's `%M` and a 50 ms poll summing VmRSS over the command's process tree.",
      "- ours: `node dist/cli/main.js init --force REPO` (no index beforehand), `sync REPO` with nothing changed, and `sync REPO` after appending a comment line to one source file. Nodes/edges/DB size from `status --json`.",
      '- floor: `bench/floor-worker.mjs` — `git ls-files` (files ≤ 1 MiB), then 2 worker_threads parsing byte-balanced shares with web-tree-sitter and the tree-sitter-wasms grammars, deleting every tree; no extraction, no storage. Node start and grammar loading included, as for ours. "floor liftoff-only" is the same run with `node --liftoff-only` (no TurboFan tier-up of the grammars\' wasm; colby runs that way).',
      '- colby: `codegraph init -y REPO` on a repo without `.codegraph/` (since 1.6 `init` builds the index; `index REPO`, a rebuild inside an initialised project, is the "colby index" column); `sync REPO` for both syncs. Its npm bin is a launcher that spawns a bundled Node 24 run with `--liftoff-only`.',
      "- optave: `codegraph build REPO --no-incremental` (index removed beforehand), `build REPO` for both syncs; default engine is its native (Rust) addon. optave-wasm is the same with `--engine wasm` (web-tree-sitter, like ours).",
      "- Peers run with a scratch HOME and `DO_NOT_TRACK=1 CODEGRAPH_TELEMETRY=0 CODEGRAPH_NO_UPDATE_CHECK=1 CODEGRAPH_NO_DOWNLOAD=1`; every measured command runs without NODE_EXTRA_CA_CERTS. Each tool works on its own copy of the repo; full runs are interleaved round by round.",
      "- files/s uses ours' indexed file count; MiB/s uses the bytes of files in the floor's languages.",
    ].join("\n"),
  );
  L.push("");
  return L.join("\n");
}

/** The floor language most of a repo's parsed bytes are in (`byLang` from corpus.mjs), or null. */
function mainLanguage(byLang) {
  let best = null;
  for (const [lang, v] of Object.entries(byLang ?? {}))
    if (!lang.startsWith("other:") && (!best || v.bytes > byLang[best].bytes)) best = lang;
  return best;
}
