// Loaded with NODE_OPTIONS="--import <this file>" by bench/load.mjs --cpu-prof DIR (Node refuses
// --cpu-prof in NODE_OPTIONS, and the daemon is spawned without our execArgv). In the main thread
// of every Node process that inherits it: the first SIGUSR2 starts the V8 CPU profiler, the
// second stops it and writes DIR/<pid>-<argv tail>.cpuprofile (open in Chrome DevTools).
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";

const dir = process.env.CODEGRAPH_BENCH_PROF_DIR;
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  let on = false;
  process.on("SIGUSR2", () => {
    if (!on) {
      on = true;
      session.post("Profiler.setSamplingInterval", { interval: 200 }, () =>
        session.post("Profiler.enable", () => session.post("Profiler.start")),
      );
      return;
    }
    on = false;
    session.post("Profiler.stop", (err, res) => {
      if (err) return;
      const role = process.argv.slice(2, 3).join("-") || "node";
      writeFileSync(join(dir, `${process.pid}-${role}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
