// A stand-in read worker for ReadPool's tests (a fault we cannot cause in the real one on demand):
// it says it is loaded, answers `echo` calls with their argument and this thread's id, blocks its
// thread for `args.ms` on `slow` before answering so, and exits on `crash`.
import { parentPort, threadId } from "node:worker_threads";

parentPort.on("message", ({ call }) => {
  if (call.name === "crash") process.exit(3);
  if (call.name === "slow") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, call.args.ms);
  parentPort.postMessage({
    answer: { result: { content: [{ type: "text", text: `${call.args.n} from ${threadId}` }] }, internal: null },
  });
});
parentPort.postMessage({ ready: true });
