const SUFFIXES = ["ing", "ed", "er", "es", "s", "e", "d"];

/**
 * A crude English stem, enough to meet a question's words and identifiers halfway: `resolver`,
 * `resolved` and `resolve` → `resolv`; `applied` and `apply` → `appli`; `tasks` → `task`. One suffix
 * is removed, never leaving fewer than four letters.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const s of SUFFIXES) {
    if (w.endsWith(s) && w.length - s.length >= 4) {
      w = w.slice(0, -s.length);
      break;
    }
  }
  return w.endsWith("y") ? `${w.slice(0, -1)}i` : w;
}

/** The lower-case words of an identifier: `runWorker` → run, worker; `get_task` → get, task. */
export function identifierParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
}
