import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, run, tempRepo } from "../helpers/cli.js";

// `codegraph prompt-hook` as Claude Code runs it: the built CLI, a JSON payload on stdin, stdout
// injected into the prompt. Every case must exit 0; anything on stdout is context.

const FIXTURE = join(import.meta.dirname, "fixtures", "prompt-hook");
const PREFACE = "codegraph: the code this prompt most likely concerns";
const HINT = "codegraph: words in this prompt match these indexed symbols";

let repo: ReturnType<typeof tempRepo>;
let elsewhere: string;

/** The environment of a hook run: none of the hook's own knobs unless a test sets them. */
function hookEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extra };
  for (const k of ["CODEGRAPH_NO_PROMPT_HOOK", "CODEGRAPH_PROMPT_HOOK", "CODEGRAPH_DEBUG"])
    if (!(k in extra)) delete env[k];
  return env;
}

/** Claude Code's UserPromptSubmit payload. */
const payload = (prompt: string, cwd: string = repo.dir) =>
  JSON.stringify({
    session_id: "e2e",
    transcript_path: join(tmpdir(), "transcript.jsonl"),
    cwd,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });

async function hook(
  input: string | undefined,
  options: { args?: string[]; cwd?: string; env?: Record<string, string> } = {},
) {
  const r = await run(["prompt-hook", ...(options.args ?? [])], {
    cwd: options.cwd ?? elsewhere,
    env: hookEnv(options.env),
    input: input ?? "",
  });
  expect(r.code).toBe(0);
  return r;
}

beforeAll(async () => {
  repo = tempRepo(FIXTURE);
  elsewhere = mkdtempSync(join(tmpdir(), "codegraph-e2e-elsewhere-"));
  expect((await run(["init", repo.dir])).code).toBe(0);
}, 60_000);
afterAll(() => {
  repo.cleanup();
  rmSync(elsewhere, { recursive: true, force: true });
});

describe("the three tiers", () => {
  it("gives full context for a structural question", async () => {
    const r = await hook(payload("how does checkout advance to payment?"));
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
    expect(r.stdout).toContain("## src/checkout/state-machine.ts");
    expect(r.stdout).toContain("CheckoutStateMachine.advance");
    expect(r.stderr).toBe("");
  });

  it("gives full context for a structural question in another language", async () => {
    const r = await hook(payload("¿Dónde se define getUserId?"));
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
    expect(r.stdout).toContain("## src/users/ids.ts");
  });

  it.each([
    ["camelCase", "getUserId returns the email instead of the id", "getUserId"],
    ["snake_case", "get_user is slow on a cold cache", "get_user"],
    ["a call", "Counter() counts every visit twice", "Counter"],
    ["a dotted name", "user.login throws after the upgrade", "login"],
    ["a path", "tidy up src/checkout/state-machine.ts please", "CheckoutStateMachine"],
  ])("gives full context for %s that the index has", async (_shape, prompt, shown) => {
    const r = await hook(payload(prompt));
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
    expect(r.stdout).toContain(shown);
  });

  it("gives a short hint for prose words that spell a type's name", async () => {
    const r = await hook(payload("the checkout state machine gets stuck after a refund"));
    expect(r.stdout.startsWith(HINT)).toBe(true);
    expect(r.stdout).toContain("- CheckoutStateMachine (class) src/checkout/state-machine.ts:4");
    expect(r.stdout).not.toContain("Explored");
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(600);
  });

  it.each([
    ["ordinary prose", "please fix this typo"],
    ["a code-shaped token the index does not have", "rename fetchUserProfile to loadProfile"],
    ["small talk that holds a structural phrase", "how are you today?"],
  ])("stays silent on %s", async (_what, prompt) => {
    const r = await hook(payload(prompt));
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  it("says why on stderr with CODEGRAPH_DEBUG=1, and nothing more on stdout", async () => {
    const debug = { CODEGRAPH_DEBUG: "1" };
    const r = await hook(payload("please fix this typo"), { env: debug });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("codegraph prompt-hook: silent: nothing\n");
    // "how are" is a structural phrase, but no word of the question is in the index's names.
    expect((await hook(payload("how are you today?"), { env: debug })).stderr).toBe(
      "codegraph prompt-hook: silent: unanchored\n",
    );
  });
});

describe("exits 0 with no output", () => {
  const question = "how does checkout advance to payment?";

  it.each([
    ["CODEGRAPH_NO_PROMPT_HOOK=1", { CODEGRAPH_NO_PROMPT_HOOK: "1" }],
    ["CODEGRAPH_PROMPT_HOOK=0", { CODEGRAPH_PROMPT_HOOK: "0" }],
  ])("when turned off with %s", async (_name, env) => {
    const r = await hook(payload(question), { env });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  it("on a host's task notification, even one asking a structural question", async () => {
    for (const prompt of [
      `<task-notification>\n<status>completed</status>\n<summary>${question}</summary>\n</task-notification>`,
      ` \n\t<task-notification><summary>getUserId was renamed</summary></task-notification>`,
    ]) {
      expect((await hook(payload(prompt))).stdout).toBe("");
    }
  });

  it("but hears a real message that mentions the tag later", async () => {
    const r = await hook(payload(`I saw <task-notification> in the log; ${question}`));
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });

  it("when no index is found", async () => {
    const r = await hook(payload(question, elsewhere));
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  it.each([
    ["truncated JSON", '{"prompt": "how does checkout'],
    ["a payload without a prompt", JSON.stringify({ cwd: "/tmp" })],
    ["a prompt that is not a string", JSON.stringify({ prompt: 42, cwd: "/tmp" })],
    ["empty input", ""],
  ])("on malformed input: %s", async (_what, input) => {
    const r = await hook(input, { cwd: repo.dir });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  it("on an engine error, which goes to the daemon log", async () => {
    const broken = mkdtempSync(join(tmpdir(), "codegraph-e2e-broken-"));
    try {
      mkdirSync(join(broken, ".codegraph"));
      writeFileSync(join(broken, ".codegraph", "graph.db"), "not a database");
      for (const prompt of [question, "the checkout state machine gets stuck"]) {
        const r = await hook(payload(prompt, broken));
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe("");
      }
      expect(readFileSync(join(broken, ".codegraph", "daemon.log"), "utf8")).toMatch(/prompt-hook: .*graph\.db/);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe("input forms", () => {
  it("takes the prompt as a raw-string argument", async () => {
    const r = await hook(undefined, { args: ["how does checkout advance to payment?"], cwd: repo.dir });
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });

  it("takes a raw string on stdin", async () => {
    const r = await hook("how does checkout advance to payment?", { cwd: repo.dir });
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });

  it("finds the project from --path when the working directory has none", async () => {
    const r = await hook(undefined, { args: ["get_user is slow", "--path", repo.dir] });
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });

  it("prefers the payload's cwd, and falls back to --path when it holds no index", async () => {
    expect((await hook(payload("get_user is slow", repo.dir))).stdout.startsWith(PREFACE)).toBe(true);
    const r = await hook(payload("get_user is slow", elsewhere), { args: ["-p", repo.dir] });
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });

  it("ignores options it does not know", async () => {
    const r = await hook(payload("get_user is slow"), { args: ["--frobnicate", "-x"] });
    expect(r.stdout.startsWith(PREFACE)).toBe(true);
  });
});

describe("the 9,000-byte cap", () => {
  let big: ReturnType<typeof tempRepo>;
  const question = "how are invoices rendered?";

  beforeAll(async () => {
    big = tempRepo();
    mkdirSync(join(big.dir, "src"));
    for (let f = 0; f < 30; f++) {
      // Three bytes a character: the source explore is asked for (5,000 characters) outweighs the cap.
      const body = Array.from(
        { length: 40 },
        (_, i) => `  total += line${i}; // ${"請求書の合計を計算する".repeat(4)} — ¥€ ${f}.${i}`,
      );
      writeFileSync(
        join(big.dir, "src", `invoice${f}.ts`),
        `export function renderInvoice_${f}(line0: number): number {\n  let total = 0;\n${body.join("\n")}\n  return total;\n}\n`,
      );
    }
    expect((await run(["init", big.dir])).code).toBe(0);
  }, 60_000);
  afterAll(() => big.cleanup());

  it("cuts explore's answer on a line boundary and says so", async () => {
    // The hook asks explore for 5,000 characters of source (PROMPT_SOURCE_CHARS), so its answer fits the cap unless, as here, characters are multi-byte.
    const full = await run(["explore", question, "--max-chars", "5000"], { cwd: big.dir });
    expect(Buffer.byteLength(full.stdout)).toBeGreaterThan(9000);
    const r = await hook(payload(question, big.dir));
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(9000);
    const out = r.stdout.replace(/\n$/, "");
    const lines = out.split("\n");
    expect(lines.at(-1)).toMatch(/^… cut at 9,000 bytes/);
    const kept = lines.slice(0, -1).join("\n");
    const uncut = `${lines[0]}\n\n${full.stdout}`;
    expect(uncut.startsWith(kept)).toBe(true);
    expect(uncut[kept.length]).toBe("\n");
  });
});

describe("start-up", () => {
  it("loads neither the parsers, the MCP SDK nor commander", () => {
    // `codegraph` is a dispatcher (bin.ts) that sends prompt-hook straight to its own bundle.
    const bin = readFileSync(CLI, "utf8");
    const imports = [...bin.matchAll(/^import .* from ["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports.every((s) => s!.startsWith("node:"))).toBe(true);
    const hookBundle = readFileSync(join(CLI, "..", "commands", "prompt-hook-command.js"), "utf8");
    for (const heavy of [
      "web-tree-sitter",
      "tree-sitter-wasms",
      "@modelcontextprotocol",
      "commander",
      "@parcel/watcher",
    ]) {
      expect(hookBundle, heavy).not.toContain(heavy);
    }
  });
});

describe("the daemon", () => {
  const question = "how does checkout advance to payment?";

  it("is never started by the hook", async () => {
    await hook(payload(question));
    expect(existsSync(join(repo.dir, ".codegraph", "daemon.sock"))).toBe(false);
    expect(existsSync(join(repo.dir, ".codegraph", "writer.pid"))).toBe(false);
  });

  it("answers the full tier when one runs, with the same context", async () => {
    const alone = await hook(payload(question), { env: { CODEGRAPH_DEBUG: "1" } });
    expect(alone.stderr).toMatch(/full: keyword "how does" \(en\), in-process \(daemon: no-daemon\)/);
    let daemon: ChildProcess | undefined;
    try {
      daemon = spawn(process.execPath, [CLI, "daemon", "--path", repo.dir, "--no-watch"], {
        cwd: repo.dir,
        stdio: "ignore",
      });
      const sock = join(repo.dir, ".codegraph", "daemon.sock");
      for (let i = 0; i < 200 && !existsSync(sock); i++) await sleep(50);
      expect(existsSync(sock)).toBe(true);
      const warm = await hook(payload(question), { env: { CODEGRAPH_DEBUG: "1" } });
      expect(warm.stderr).toMatch(/full: keyword "how does" \(en\), daemon$/m);
      expect(warm.stdout).toBe(alone.stdout);
    } finally {
      daemon?.kill("SIGTERM");
      if (daemon && daemon.exitCode === null) await new Promise((r) => daemon!.once("exit", r));
    }
  }, 30_000);
});
