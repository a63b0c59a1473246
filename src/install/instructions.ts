/**
 * What we tell agents, in their instruction files (a fenced block) and in the shared skill file. One
 * text, so an agent reads the same advice whichever file its host loads.
 */
const GUIDANCE = `This repository has a codegraph index (\`.codegraph/\`): a graph of its symbols, calls, imports and
inheritance, kept fresh while files change. Reach for it before grep or reading whole files:

- \`codegraph_explore\` first, for "how does X work", "where is Y handled", "what happens when Z": one
  call returns the relevant source, ranked, with the callers and callees that connect it.
- \`codegraph_node\` to read one symbol (or a file's lines) with its relations, instead of opening the file.
- \`codegraph_search\` to find a symbol by name, or by words in its name, signature or docs.
- \`codegraph_callers\` before changing a function's signature or behaviour: every call site, grouped by
  definition (\`codegraph_callees\` and \`codegraph_impact\` go the other way and further).

Subagents and scripts without MCP have the same tools on the command line: \`codegraph explore "<question>"\`,
\`codegraph node <symbol>\`, \`codegraph search <name>\`, \`codegraph callers <symbol>\` (add \`--json\` for data).

An answer that cites a file changed since the last sync says so in a banner at its top; everything
the banner does not list is current.`;

/** The body of the fenced block in AGENTS.md, CLAUDE.md and GEMINI.md. */
export const INSTRUCTION_BLOCK = `## codegraph\n\n${GUIDANCE}\n`;

/** `.agents/skills/codegraph/SKILL.md`: the whole file is ours. */
export const SKILL_FILE = `---
name: codegraph
description: Answer questions about this codebase's structure (where is X, how does Y work, who calls Z, what breaks if W changes) from the codegraph index instead of grepping and reading whole files.
---

# codegraph

${GUIDANCE}
`;
