/**
 * The line ending a config file uses. A Windows-edited file keeps CRLF throughout: text we add in
 * LF would make a second install see a difference and rewrite the file, and would leave the user's
 * file with mixed endings.
 */
export function lineEnding(text: string): "\r\n" | "\n" {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** `rendered` (written with `\n`) with the line endings of `text`. */
export function inLineEndingOf(text: string, rendered: string): string {
  return lineEnding(text) === "\r\n" ? rendered.replace(/\r?\n/g, "\r\n") : rendered;
}
