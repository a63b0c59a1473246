/** Characters of a query an answer repeats. */
const ECHO_CHARS = 80;

/**
 * A query as an answer repeats it: its first line, at most ECHO_CHARS characters. A pasted
 * traceback, a prompt of several paragraphs (the prompt hook's) or a runaway argument would otherwise
 * come back whole, in a budget meant for code.
 */
export function echo(query: string): string {
  const lines = query.trim().split("\n");
  const first = lines[0]!.trim();
  if (first.length > ECHO_CHARS) return `${first.slice(0, ECHO_CHARS - 1).trimEnd()}…`;
  return lines.length > 1 ? `${first} …` : first;
}
