/** One line of a TOML document, with its line break. */
export interface TomlLine {
  text: string;
  offset: number;
  /** The dotted name of a table header (`[a."b"]` → `a.b`), quotes and spaces taken out. */
  header?: string;
  /** Holds a key, a value, or part of a value that spans lines (not only blanks and a comment). */
  content: boolean;
}

const HEADER = /^[ \t]*\[\[?([^\]]*)\]\]?[ \t]*(#.*)?$/;

/**
 * The document's lines, each telling whether it is a table header. A line inside a multi-line
 * string or a multi-line array (`args = [\n ["x"]\n]`) is a value, however much it looks like a
 * header: taking it for one cut our table short, and uninstall left half a value behind.
 */
export function tomlLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  let offset = 0;
  // What is still open at the end of the previous line: a multi-line string's delimiter, and how
  // many brackets and braces of a value.
  let string: '"""' | "'''" | null = null;
  let depth = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const bare = line.replace(/\r?\n$/, "");
    const inValue = string !== null || depth > 0;
    const header = inValue ? undefined : HEADER.exec(bare)?.[1]?.replace(/["'\s]/g, "");
    if (header !== undefined) {
      lines.push({ text: line, offset, header, content: true });
    } else {
      const scan = scanValueLine(bare, string, depth);
      string = scan.string;
      depth = scan.depth;
      lines.push({ text: line, offset, content: inValue || scan.content });
    }
    offset += line.length;
  }
  return lines;
}

/** Follow one line's strings, brackets and comment, from the state the line starts in. */
function scanValueLine(
  line: string,
  open: '"""' | "'''" | null,
  depth: number,
): { string: '"""' | "'''" | null; depth: number; content: boolean } {
  let string = open;
  let content = false;
  for (let i = 0; i < line.length;) {
    if (string !== null) {
      const close = closingDelimiter(line, i, string);
      if (close < 0) return { string, depth, content: true };
      i = close;
      string = null;
      continue;
    }
    const c = line[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "#") break;
    content = true;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      string = line.slice(i, i + 3) as '"""' | "'''";
      i += 3;
    } else if (c === '"' || c === "'") {
      i = closingQuote(line, i + 1, c);
    } else {
      if (c === "[" || c === "{") depth++;
      else if ((c === "]" || c === "}") && depth > 0) depth--;
      i++;
    }
  }
  return { string, depth, content };
}

/** Just past the multi-line string's closing delimiter (up to two quotes before it belong to the string), or -1. */
function closingDelimiter(line: string, from: number, delimiter: '"""' | "'''"): number {
  for (let i = from; i < line.length; i++) {
    if (delimiter === '"""' && line[i] === "\\") {
      i++;
      continue;
    }
    if (line.startsWith(delimiter, i)) {
      let end = i + 3;
      while (end < line.length && end - i < 5 && line[end] === delimiter[0]) end++;
      return end;
    }
  }
  return -1;
}

/** Just past a one-line string's closing quote (a basic string's escapes skipped), or the line's end. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (quote === '"' && line[i] === "\\") i++;
    else if (line[i] === quote) return i + 1;
  }
  return line.length;
}
