/** One word for sh: as it is when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A command line's words as sh splits a simple command: quotes and backslashes undone. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const close = end < 0 ? line.length : end;
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      word ??= "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        // Inside double quotes a backslash escapes only these.
        if (line[i] === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) i++;
        word += line[i];
      }
    } else if (c === "\\") {
      word = (word ?? "") + (line[++i] ?? "");
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
