import { describe, expect, it } from "vitest";
import { readEnv } from "../../src/config/env.js";
import { codeTokens } from "../../src/hook/code-tokens.js";
import { capBytes, CONTEXT_CAP_BYTES, foundNothing, fullContext } from "../../src/hook/context.js";
import { fold } from "../../src/hook/fold.js";
import { parseHookInput } from "../../src/hook/input.js";
import { isTaskNotification } from "../../src/hook/notification.js";
import { budgetFor } from "../../src/query/explore-budget.js";
import { renderExplore } from "../../src/render/explore.js";

describe("hook input", () => {
  it("reads Claude Code's payload", () => {
    const payload = { session_id: "s", cwd: "/p", hook_event_name: "UserPromptSubmit", prompt: "how?" };
    expect(parseHookInput(JSON.stringify(payload))).toEqual({ prompt: "how?", cwd: "/p" });
    expect(parseHookInput(JSON.stringify({ prompt: "how?" }))).toEqual({ prompt: "how?", cwd: null });
  });

  it("takes anything that is not JSON as the raw prompt", () => {
    expect(parseHookInput("how does X work\n")).toEqual({ prompt: "how does X work\n", cwd: null });
    expect(parseHookInput("[WIP] where is it?")?.prompt).toBe("[WIP] where is it?");
  });

  it("refuses malformed payloads and empty input", () => {
    for (const raw of ['{"prompt": "x', '{"cwd": "/p"}', '{"prompt": 1}', "", "  \n"]) {
      expect(parseHookInput(raw), raw).toBeNull();
    }
  });
});

describe("task notifications", () => {
  it("are recognised only as the first non-whitespace content", () => {
    expect(isTaskNotification("<task-notification><summary>done</summary></task-notification>")).toBe(true);
    expect(isTaskNotification("\n  \t<task-notification>done")).toBe(true);
    expect(isTaskNotification("what is this <task-notification> thing?")).toBe(false);
    expect(isTaskNotification("<task-notifications>")).toBe(false);
  });
});

describe("code-shaped tokens", () => {
  it("finds the shapes the reference names, and paths", () => {
    const t = codeTokens("why does getUserId call get_user, and Counter() use user.login in src/app.ts?");
    expect(t.names).toEqual(expect.arrayContaining(["getUserId", "get_user", "Counter"]));
    expect(t.qualified).toEqual(["user.login"]);
    expect(t.paths).toEqual([{ path: "src/app.ts", absolute: false }]);
  });

  it("takes backticked names, whatever their case", () => {
    expect(codeTokens("make `slugify` keep unicode").names).toEqual(["slugify"]);
  });

  it("leaves plain words, e.g. and i.e. as prose", () => {
    const t = codeTokens("Paginator pages are wrong, e.g. the last one, i.e. page 3.2");
    expect(t.names).toEqual([]);
    expect(t.qualified).toEqual([]);
    expect(t.prose).toContain("Paginator pages are wrong");
  });

  it("blanks what it takes out of the prose", () => {
    const t = codeTokens("the checkout state machine calls getUserId");
    expect(t.prose).not.toContain("getUserId");
    expect(t.prose).toContain("checkout state machine");
  });
});

describe("the byte cap", () => {
  const note = "… cut";

  it("leaves text that fits alone", () => {
    expect(capBytes("a\nb", 10, note)).toBe("a\nb");
  });

  it("cuts at the end of the last whole line that fits, and adds the note", () => {
    const text = ["one", "two", "three", "four"].join("\n");
    const out = capBytes(text, 16, note); // the note is 7 bytes: "one\ntwo" (7) + "\n" + note fits
    expect(out).toBe(`one\ntwo\n${note}`);
    expect(capBytes(text, 14, note)).toBe(`one\n${note}`);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(16);
  });

  it("counts UTF-8 bytes, and never splits a character", () => {
    const text = "é".repeat(50); // one line, 100 bytes
    const out = capBytes(text, 41, note);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(41);
    expect(out).not.toContain("\uFFFD");
    expect(out.endsWith(`\n${note}`)).toBe(true);
  });

  it("keeps the whole injected context, final newline included, within 9,000 bytes", () => {
    const explore = Array.from({ length: 2000 }, (_, i) => `${i}  line — ü`).join("\n");
    const out = fullContext(explore);
    expect(Buffer.byteLength(`${out}\n`)).toBeLessThanOrEqual(CONTEXT_CAP_BYTES);
    expect(out.split("\n").at(-1)).toMatch(/^… cut at 9,000 bytes/);
  });
});

describe("an explore answer with nothing in it", () => {
  it("is recognised, so the hook stays silent rather than inject a miss", () => {
    const empty = renderExplore({
      query: "how are you",
      budget: budgetFor(10),
      pinned: [],
      setAside: [],
      unresolved: [],
      blast: [],
      terms: [],
      files: [],
      relationships: [],
      notShown: [],
      drifted: [],
    });
    expect(foundNothing(empty)).toBe(true);
    expect(foundNothing('Explored "x": 1 symbol in 1 file\n\n## src/a.ts')).toBe(false);
  });
});

describe("folding", () => {
  it("drops Latin and Greek accents but keeps letters other scripts need", () => {
    expect(fold("Dónde ESTÁ İstanbul ılık")).toBe("donde esta istanbul ilik");
    expect(fold("Πώς")).toBe("πως");
    expect(fold("йога ёж")).toBe("йога еж");
    expect(fold("फ़ाइल")).toBe("फ़ाइल".normalize("NFC"));
  });
});

describe("the kill switches", () => {
  it("turn the hook off, and nothing else does", () => {
    expect(readEnv({}).promptHook).toBe(true);
    expect(readEnv({ CODEGRAPH_NO_PROMPT_HOOK: "1" }).promptHook).toBe(false);
    expect(readEnv({ CODEGRAPH_PROMPT_HOOK: "0" }).promptHook).toBe(false);
    expect(readEnv({ CODEGRAPH_PROMPT_HOOK: "1", CODEGRAPH_NO_PROMPT_HOOK: "0" }).promptHook).toBe(true);
  });
});
