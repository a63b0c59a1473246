/**
 * Whether a prompt is a host-generated task notification: Claude Code submits a background task's
 * completion as a prompt whose first non-whitespace content is `<task-notification>`. Anchored at
 * the start, so a user who quotes the tag later in a real message is still heard.
 */
export function isTaskNotification(prompt: string): boolean {
  return /^[\s\uFEFF]*<task-notification>/.test(prompt);
}
