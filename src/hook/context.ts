/**
 * Claude Code inlines a hook's output up to 10,000 bytes; the cap leaves room for its wrapper.
 * Measured in UTF-8 bytes, which is what that limit counts.
 */
export const CONTEXT_CAP_BYTES = 9000;

const PREFACE = "codegraph: the code this prompt most likely concerns, from the project's index (codegraph_explore):";
const CUT_NOTE = "… cut at 9,000 bytes for the prompt; codegraph_explore with a narrower question shows the rest.";

/**
 * Explore's answer as the hook injects it: a line saying where it comes from, then the answer,
 * capped so that with the newline the hook ends its output with it stays within CONTEXT_CAP_BYTES.
 */
export function fullContext(exploreText: string): string {
  return capBytes(`${PREFACE}\n\n${exploreText.trimEnd()}`, CONTEXT_CAP_BYTES - 1, CUT_NOTE);
}

/**
 * `text` within `cap` UTF-8 bytes: unchanged when it fits, else cut at the end of the last whole
 * line that fits, followed by `note` (a single line longer than the cap is cut between characters).
 */
export function capBytes(text: string, cap: number, note: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= cap) return text;
  const room = cap - Buffer.byteLength(note, "utf8") - 1;
  let end = room > 0 ? bytes.lastIndexOf(0x0a, room) : -1;
  if (end <= 0) {
    end = Math.max(0, room);
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a character
  }
  return `${bytes.subarray(0, end).toString("utf8")}\n${note}`;
}

/** Whether an explore answer found nothing to show: then the hook stays silent rather than inject a miss. */
export function foundNothing(exploreText: string): boolean {
  return /^No relevant code found for /m.test(exploreText);
}
