/**
 * How deep a request body may nest arrays and objects. MCP messages nest a few levels; past several
 * thousand, code that walks a value recursively overflows the stack: the SDK's Node adapter
 * serialises a parsed body again (`JSON.stringify`), and answered a body nested 10,000 levels deep
 * with 500 "Internal server error". Python's JSON reader stops at about this depth too.
 */
export const MAX_JSON_NESTING = 1000;

/**
 * Whether valid JSON text nests arrays and objects more than `limit` levels deep. Each level takes
 * two characters, so text shorter than that is not scanned: a tool call's body never is.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
