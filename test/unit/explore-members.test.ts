import { describe, expect, it } from "vitest";
import { addMembersNamedByVerbs, queryTerms, type Candidate } from "../../src/query/explore-rank.js";
import { findSymbols } from "../../src/query/symbols.js";
import { useIndexedProject } from "../helpers/indexed-project.js";

// A type the question names, whose members each share one name word with it: which of them its
// documentation speaks of decides their order (ThreadPoolExecutor's runWorker and getTask against
// its worker-count helpers, in the JDK).
const POOL = `package shop;

public class Pool {
    private int workerCountOf(int c) { return c; }

    private void addWorkerFailed(Object w) {}

    /**
     * Main worker loop: repeatedly takes tasks from the queue and runs them on this thread.
     */
    final void runWorker(Object w) {}

    /** Blocks until a task is in the queue, or returns null once this worker must exit. */
    private Runnable getTask() { return null; }
}
`;

// Go writes a type's methods outside its body, here in another file of its package.
const QUEUE = `package jobs

type Queue struct {
	items []string
}
`;
const QUEUE_WORK = `package jobs

func (q *Queue) dispatchNext() {}

func (q *Queue) size() int { return len(q.items) }
`;

const project = useIndexedProject("explore-members", {
  files: {
    "src/shop/Pool.java": POOL,
    "go.mod": "module example.com/jobs\n",
    "queue.go": QUEUE,
    "work.go": QUEUE_WORK,
  },
});

describe("members of a type the question names", () => {
  it("rank those whose documentation holds more of the question's words first", () => {
    const [pool] = findSymbols(project.db, "Pool");
    expect(pool?.kind).toBe("class");
    const best = new Map<number, Candidate>([[pool!.id, { symbol: pool!, score: 100 }]]);
    addMembersNamedByVerbs(project.db, best, queryTerms("how does a Pool worker thread take tasks from the queue"));
    const members = [...best.values()]
      .filter((c) => c.symbol.id !== pool!.id)
      .sort((a, b) => b.score - a.score || a.symbol.startLine - b.symbol.startLine)
      .map((c) => c.symbol.name);
    expect(members).toEqual(["runWorker", "getTask", "workerCountOf", "addWorkerFailed"]);
  });
});

describe("members written outside their type's body", () => {
  it("are matched against the question's words as the members inside it are", () => {
    const [queue] = findSymbols(project.db, "Queue");
    expect(queue?.kind).toBe("struct");
    const best = new Map<number, Candidate>([[queue!.id, { symbol: queue!, score: 100 }]]);
    addMembersNamedByVerbs(project.db, best, queryTerms("how does the Queue dispatch work"));
    expect([...best.values()].map((c) => c.symbol.qualifiedName)).toEqual(["Queue", "Queue.dispatchNext"]);
  });
});
