// Preloaded into a CLI run (NODE_OPTIONS=--require): names the Node built-ins it loaded, on stderr.
process.on("exit", () => {
  const names = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13));
  process.stderr.write(`builtins: ${names.join(" ")}\n`);
});
