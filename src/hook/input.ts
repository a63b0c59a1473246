/** What the hook was asked: the prompt, and the folder the host says the session is in. */
export interface HookInput {
  prompt: string;
  /** The host's working directory (`.cwd` of its JSON payload), when it sent one. */
  cwd: string | null;
}

/**
 * The hook's input from stdin: the host's JSON payload `{"prompt", "cwd", ...}`, or a raw prompt
 * string. Null when it is malformed: text that opens like JSON but does not parse, or a JSON value
 * without a string `prompt`; also empty input. A raw prompt that happens to start with `{` is read
 * as a payload: hosts send JSON, and guessing would inject context for a payload we misread.
 */
export function parseHookInput(raw: string): HookInput | null {
  const text = raw.replace(/^\uFEFF/, "");
  if (!text.trimStart().startsWith("{")) return text.trim() ? { prompt: text, cwd: null } : null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { prompt, cwd } = value as { prompt?: unknown; cwd?: unknown };
  if (typeof prompt !== "string") return null;
  return { prompt, cwd: typeof cwd === "string" && cwd.trim() ? cwd : null };
}
