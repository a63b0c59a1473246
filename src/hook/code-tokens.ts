import { blank, isCodeShaped, parsePathSpans, qualifiedNames } from "../query/explore-parse.js";

/** What a prompt writes as code, to be checked against the index. */
export interface CodeTokens {
  /** Identifiers written as code: camelCase, snake_case, `name()`, or in backticks. */
  names: string[];
  /** Dotted names (`QuerySet.filter`, `user.login`, `Engine::run` as `Engine.run`). */
  qualified: string[];
  /** Paths with a source extension, or with a separator (`django/core/paginator.py`, `src/app`). */
  paths: WrittenPath[];
  /** The prompt with all of the above blanked out: what is left is prose. */
  prose: string;
}

/** A path as the prompt writes it; `absolute` when spelled from outside the project (`/home/me/proj/...`, a URL). */
export interface WrittenPath {
  path: string;
  absolute: boolean;
}

/** A prompt is not a source file: past these, more candidates are not worth a lookup each. */
const MAX_NAMES = 40;
const MAX_QUALIFIED = 10;
const MAX_PATHS = 10;
/** Code pasted at length is read up to here: its first names are the ones the prompt is about. */
const SCAN_CHARS = 8000;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The code-shaped tokens of a prompt (`getUserId`, `get_user`, `Counter()`, `user.login`, paths),
 * found without the index; the gate keeps those the index has. Plain words are never code here,
 * whatever their case: `Paginator` at the start of a sentence is prose.
 */
export function codeTokens(fullPrompt: string): CodeTokens {
  const prompt = fullPrompt.slice(0, SCAN_CHARS);
  const spans = parsePathSpans(prompt);
  const paths = new Map<string, WrittenPath>();
  for (const s of spans) {
    if (s.hasExtension || (s.kind === "soft" && s.path.includes("/"))) {
      paths.set(s.path, { path: s.path, absolute: s.absolute });
    }
  }
  let text = blank(prompt, spans);
  const dotted = qualifiedNames(text);
  text = blank(text, dotted);
  const names = new Set<string>();
  const take = (re: RegExp, keep: (token: string) => boolean) => {
    const ranges: { start: number; end: number }[] = [];
    for (const m of text.matchAll(re)) {
      const token = m[1]!;
      if (!keep(token)) continue;
      names.add(token);
      ranges.push({ start: m.index, end: m.index + m[0].length });
    }
    text = blank(text, ranges);
  };
  take(/`([^`\s]+)`/g, (t) => IDENTIFIER.test(t));
  take(/([A-Za-z_$][\w$]*)\(/g, () => true);
  take(/(?<![\w$])([A-Za-z_$][\w$]*)/g, isCodeShaped);
  return {
    names: [...names].slice(0, MAX_NAMES),
    qualified: [...new Set(dotted.map((q) => q.text))].slice(0, MAX_QUALIFIED),
    paths: [...paths.values()].slice(0, MAX_PATHS),
    prose: text,
  };
}
