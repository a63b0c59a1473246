// Scoring of one explore answer (text) against a question's expected symbols and files.
//
// Both tools print the source they return as line-numbered text grouped by file:
//   ours   `## <path>` then, per block, a line naming the symbols and lines `<n padded>  <code>`
//          (a block may end with `… cut here; …`); the section runs to the next `## ` heading.
//   colby  `**\`<path>\`** — <symbols>`, then a ```lang fence of lines `<n>\t<code>` (with
//          `... (gap) ...` between non-adjacent ranges), then the closing fence.
// Everything else (summaries, blast radius, relationships, "not shown" name lists) is prose and
// never counts as showing source.
//
// Rules (documented in bench/README.md):
//   - a file section starts at either heading form whose path is a file of the repo, and ends at
//     the next line that starts with `## ` or `**` (any heading or bold paragraph of either tool);
//     its span runs from the heading to its last source line (numbered line, fence or cut marker),
//     so trailing prose is not counted as source;
//   - a symbol is found when a section of its expected file shows its defining line: a numbered
//     line whose number is the expected line and whose text equals that line of the file on disk
//     (whitespace-trimmed), so a name in a list or a caller reference never counts;
//   - a file is found when the answer has a section for it with at least one numbered line;
//   - relevant share = characters of the sections of expected files / characters of the answer;
//   - a symbol is named (a weaker, secondary signal) when some line of the answer, source or prose,
//     holds its expected file's path and, outside that path, its last name part as a word: it was
//     found but maybe not shown (a caller list, a "not shown" list).

const OURS_HEAD = /^## (.+?)\s*$/;
const COLBY_HEAD = /^\*\*`([^`]+)`\*\*/;
const NUMBERED = /^\s*(\d+)(?:\t| {2}|$)(.*)$/;
const SOURCEISH = /^(```|… cut here|\.\.\. \(gap)/;

/**
 * Splits an answer into file sections.
 * @param {string} text
 * @param {(path: string) => boolean} isFile whether a heading's path is a file of the repo
 * @returns {{file: string, start: number, end: number, lines: Map<number, string>}[]} start/end are
 *   character offsets of the span ([start, end)).
 */
export function parseSections(text, isFile) {
  const sections = [];
  let cur = null;
  let offset = 0;
  const close = () => {
    if (cur) {
      if (cur.lastSourceEnd !== null) cur.end = cur.lastSourceEnd;
      delete cur.lastSourceEnd;
      sections.push(cur);
    }
    cur = null;
  };
  for (const line of text.split("\n")) {
    const lineStart = offset;
    const lineEnd = offset + line.length;
    offset = lineEnd + 1;
    if (line.startsWith("## ") || line.startsWith("**")) {
      close();
      const m = OURS_HEAD.exec(line) ?? COLBY_HEAD.exec(line);
      const path = m?.[1]?.trim();
      if (path && isFile(path)) {
        cur = { file: path, start: lineStart, end: lineEnd, lastSourceEnd: null, lines: new Map() };
      }
      continue;
    }
    if (!cur) continue;
    const n = NUMBERED.exec(line);
    if (n) {
      cur.lines.set(Number(n[1]), n[2]);
      cur.lastSourceEnd = lineEnd;
    } else if (SOURCEISH.test(line.trimStart())) {
      cur.lastSourceEnd = lineEnd;
    }
  }
  close();
  return sections;
}

/**
 * Scores one answer.
 * @param {string} text the answer
 * @param {{symbol: string, file: string, line: number}[]} expect
 * @param {(path: string) => boolean} isFile
 * @param {(path: string, line: number) => string | null} fileLine the line of a repo file (1-based)
 */
export function scoreAnswer(text, expect, isFile, fileLine) {
  const sections = parseSections(text, isFile);
  const byFile = new Map();
  for (const s of sections) {
    if (!byFile.has(s.file)) byFile.set(s.file, []);
    byFile.get(s.file).push(s);
  }
  const symbols = expect.map((e) => {
    const want = (fileLine(e.file, e.line) ?? "").trim();
    const found = (byFile.get(e.file) ?? []).some((s) => {
      const got = s.lines.get(e.line);
      return got !== undefined && got.trim() === want;
    });
    return { symbol: e.symbol, file: e.file, line: e.line, found };
  });
  const files = [...new Set(expect.map((e) => e.file))].map((file) => ({
    file,
    found: (byFile.get(file) ?? []).some((s) => s.lines.size > 0),
  }));
  const textLines = text.split("\n");
  const named = expect.map((e) => {
    const name = e.symbol.split(".").pop();
    const word = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, "\\$&")}($|[^\\w$])`);
    return textLines.some((l) => l.includes(e.file) && word.test(l.split(e.file).join(" ")));
  });
  symbols.forEach((s, i) => (s.named = s.found || named[i]));
  const wanted = new Set(files.map((f) => f.file));
  const relevantChars = sections.filter((s) => wanted.has(s.file)).reduce((n, s) => n + (s.end - s.start), 0);
  return {
    symbolRecall: symbols.filter((s) => s.found).length / symbols.length,
    namedRecall: symbols.filter((s) => s.named).length / symbols.length,
    fileRecall: files.filter((f) => f.found).length / files.length,
    relevantShare: text.length ? relevantChars / text.length : 0,
    chars: text.length,
    tokens: Math.round(text.length / 4),
    sectionFiles: [...byFile.keys()],
    symbols,
    files,
  };
}

/** Checks of the parser and matcher on small answers in both formats; returns failure messages. */
export function selfTestScorer() {
  const repo = {
    "a/x.py": ["import os", "", "class A:", "    def f(self):", "        return 1", "", "def g():", "    pass"],
    "a/y.ts": ["export function h() {", "  return 2;", "}"],
  };
  const isFile = (p) => p in repo;
  const fileLine = (p, n) => repo[p]?.[n - 1] ?? null;
  const expect = [
    { symbol: "A.f", file: "a/x.py", line: 4 },
    { symbol: "g", file: "a/x.py", line: 7 },
    { symbol: "h", file: "a/y.ts", line: 1 },
  ];
  const ours = [
    'Explored "q": 1 symbol in 1 file',
    "",
    "## a/x.py",
    "A.f (method, 4-5)",
    "4      def f(self):",
    "5          return 1",
    "",
    "## Relationships",
    "g (function, a/x.py:7)",
    "  called by: h (a/y.ts:2)",
    "",
    "Also relevant, not shown: h (a/y.ts:1)",
  ].join("\n");
  const colby = [
    "**Exploration: q**",
    "",
    "- `g` (a/x.py:7) — 1 caller",
    "",
    "**`a/y.ts`** — h(function)",
    "",
    "```typescript",
    "1\texport function h() {",
    "2\t  return 2;",
    "3\t}",
    "```",
    "",
    "**`a/x.py`** — f(method)",
    "",
    "```python",
    "1\timport os",
    "... (gap) ...",
    "7\tdef g():",
    "```",
    "",
    "**Not shown above**",
    "- a/x.py: f:4",
  ].join("\n");
  const failures = [];
  const o = scoreAnswer(ours, expect, isFile, fileLine);
  const c = scoreAnswer(colby, expect, isFile, fileLine);
  const eq = (what, got, want) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  eq(
    "ours symbols",
    o.symbols.map((s) => s.found),
    [true, false, false],
  );
  eq(
    "ours files",
    o.files.map((f) => f.found),
    [true, false],
  );
  eq(
    "colby symbols",
    c.symbols.map((s) => s.found),
    [false, true, true],
  );
  eq("colby sections", c.sectionFiles, ["a/y.ts", "a/x.py"]);
  eq(
    "ours named",
    o.symbols.map((s) => s.named),
    [true, true, true],
  );
  eq(
    "colby named",
    c.symbols.map((s) => s.named),
    [true, true, true],
  );
  // The name only inside the path is not a mention.
  eq("path is not a name", scoreAnswer("see a/y.ts", expect.slice(2), isFile, fileLine).namedRecall, 0);
  const oursSpan = "## a/x.py\nA.f (method, 4-5)\n4      def f(self):\n5          return 1".length;
  eq("ours relevant chars", Math.round(o.relevantShare * ours.length), oursSpan);
  // A line number shown with other text (another version of the file) does not count.
  const stale = scoreAnswer("## a/x.py\n4  def f(self, other):", expect.slice(0, 1), isFile, fileLine);
  eq("stale line", stale.symbolRecall, 0);
  // A heading whose path is not a repo file starts no section.
  eq("unknown heading", scoreAnswer("## Blast radius\n4  def f(self):", expect, isFile, fileLine).sectionFiles, []);
  return failures;
}
