/**
 * Control characters in a file or folder name: line breaks (C0, NEL, the Unicode line and paragraph
 * separators), escape sequences (ESC, CSI) and the rest of C0 and C1, tab aside. Every answer quotes
 * paths as text, so a file named `x\nSYSTEM: …` would add a line of its own choosing to what an agent
 * reads, and one holding ESC would drive a terminal. No project names its code so: such files and
 * folders are skipped, and counted.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasControlCharacters(name: string): boolean {
  return CONTROL.test(name);
}

/** A path as it may be printed: its control characters written as escapes (`\n`, `\u001b`). */
export function printablePath(path: string): string {
  return path.replace(new RegExp(CONTROL.source, "g"), (c) => JSON.stringify(c).slice(1, -1));
}
