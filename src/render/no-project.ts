/**
 * The answer to a tool call when the server knows no default project and the call named none. It is
 * success-shaped on purpose: it tells the agent exactly how to go on.
 */
export function renderNoProject(tool: string, candidates: readonly string[], discovers = true): string {
  const lines = discovers
    ? [
        `${tool} needs a project, and this server has no default one: it was started outside any indexed project.`,
        "Any of these fixes it:",
        "  - pass projectPath: the absolute path of an indexed project, on this call and the next ones;",
        "  - start the server inside the project, or with `codegraph serve --mcp --path /abs/path/to/project`;",
      ]
    : [
        // `serve --http` without --path serves whichever project each call names, wherever it was started.
        `${tool} needs a project, and this HTTP server has no default one: it was started without --path.`,
        "Any of these fixes it:",
        "  - pass projectPath: the absolute path of an indexed project, on this call and the next ones;",
        "  - restart the server as `codegraph serve --http --path /abs/path/to/project`;",
      ];
  lines.push("  - index the project first with `codegraph init /abs/path/to/project` if it has no .codegraph/ yet.");
  if (candidates.length) {
    lines.push(`Indexed projects found below the launch folder (pass one as projectPath):`);
    for (const c of candidates) lines.push(`  - ${c}`);
  }
  return lines.join("\n");
}
