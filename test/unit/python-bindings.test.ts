import { describe, expect, it } from "vitest";
import { extractSource } from "../../src/extract/parser.js";

/**
 * A bare call of a name a Python function holds as a value of its own (a parameter, an assignment,
 * a loop, `with`, `except` or `:=` target) is recorded with the unknown receiver "?", so the resolver
 * does not take it for the module-level function of that name. A name the function defines, imports
 * or declares `global`, or reads off something (`save = self.save`), is left to the resolver.
 * Each case calls `run` on its last line.
 */
const receiverOfRun = async (source: string) => {
  const calls = (await extractSource("python", source, "m.py")).refs.filter(
    (r) => r.kind === "calls" && r.name === "run",
  );
  expect(calls.length, source).toBeGreaterThan(0);
  return calls.at(-1)!.receiver;
};

const HELD: Record<string, string> = {
  parameter: "def f(run):\n    run()\n",
  "starred parameter": "def f(*run):\n    run()\n",
  assignment: "def f():\n    run = make()\n    run()\n",
  "annotated assignment": "def f():\n    run: Callable = make()\n    run()\n",
  "augmented assignment": "def f():\n    run += 1\n    run()\n",
  "tuple target": "def f():\n    a, (b, *run) = make()\n    run()\n",
  "list target": "def f():\n    [a, run] = make()\n    run()\n",
  "for target": "def f(xs):\n    for key, run in xs:\n        run()\n",
  comprehension: "def f(xs):\n    return [run() for run in xs]\n",
  "with target": "def f():\n    with make() as run:\n        run()\n",
  "with tuple target": "def f():\n    with make() as (a, run):\n        run()\n",
  "except target": "def f():\n    try:\n        pass\n    except Exception as run:\n        run()\n",
  walrus: "def f():\n    if (run := make()):\n        run()\n",
  "enclosing function's local": "def f():\n    run = make()\n    def g():\n        run()\n",
  "outer local, an inner import from a module of its name":
    "def f(run):\n    def g():\n        from run import x\n        run()\n",
};

const LEFT_TO_THE_RESOLVER: Record<string, string> = {
  "module-level function": "def run():\n    pass\ndef f():\n    run()\n",
  "a method read off a value": "class A:\n    def f(self):\n        run = self.save\n        run()\n",
  "nested function": "def f(run):\n    def g():\n        def run():\n            pass\n        run()\n",
  "nested class": "def f(run):\n    def g():\n        class run(Base):\n            pass\n        run()\n",
  "import inside": "def f(run):\n    def g():\n        from m import run\n        run()\n",
  "aliased import": "def f(run):\n    def g():\n        import m as run\n        run()\n",
  "dotted import": "def f(run):\n    def g():\n        import run.sub\n        run()\n",
  global: "def f(run):\n    def g():\n        global run\n        run()\n",
  "a nested function's local": "def f():\n    def g():\n        run = make()\n    run()\n",
  "a lambda's comprehension": "def f(xs):\n    k = lambda: [run for run in xs]\n    run()\n",
  "text in a string or comment": 'def f():\n    "run = 1"\n    # run = 2\n    run()\n',
  "an item or attribute target": "def f(x):\n    run[0] = 1\n    run.y = 2\n    x.run = 3\n    run()\n",
  "a keyword argument": "def f():\n    make(run=1)\n    run()\n",
};

describe("Python locals that hold a value", () => {
  it("are told apart the same way in a function that calls many names (read all at once past a few)", async () => {
    const held = Array.from({ length: 12 }, (_, i) => `held${i}`);
    const free = Array.from({ length: 12 }, (_, i) => `free${i}`);
    const body = held.map((h, i) => (i % 2 ? `    ${h} = make()` : `    for ${h} in xs:\n        pass`));
    const calls = [...held, ...free].sort().map((n) => `    ${n}()`);
    const source = `def f(xs):\n${[...body, ...calls].join("\n")}\n`;
    const refs = (await extractSource("python", source, "m.py")).refs.filter((r) => r.kind === "calls");
    const receivers = Object.fromEntries(refs.filter((r) => r.name !== "make").map((r) => [r.name, r.receiver]));
    expect(receivers).toEqual(Object.fromEntries([...held.map((h) => [h, "?"]), ...free.map((n) => [n, null])]));
  });

  for (const [what, source] of Object.entries(HELD))
    it(`a bare call of a ${what} has an unknown receiver`, async () => {
      expect(await receiverOfRun(source)).toBe("?");
    });
  for (const [what, source] of Object.entries(LEFT_TO_THE_RESOLVER))
    it(`a bare call of a ${what} is left to the resolver`, async () => {
      expect(await receiverOfRun(source)).toBeNull();
    });
});
